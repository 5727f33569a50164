import Foundation
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// What a person's daemon keeps at its relays (`Protocol/relay.md` §4–§5): the documents it
/// offers them, the signed access lists it makes as an owner and forwards as a member, and
/// the relays as peers of those documents. A relay's key is never a grant's member.
extension Engine {
    /// Whether `record` is offered to relays: an itinerary or outbox this person takes part in
    /// with someone else, or this person's own card while it has an audience.
    func isRelayDocument(_ record: Store.DocumentRecord) -> Bool {
        guard let me else { return false }
        switch record.kind {
        case .itinerary, .outbox:
            let participants = participants(of: record)
            return participants.contains(me) && participants.count > 1
        case .card: return record.owner == me.bytes && !cardAudience().isEmpty
        default: return false
        }
    }

    /// A relay never learns the profile name (relay.md §7).
    public func tellsName(to peer: PublicKey) async -> Bool {
        guard !relays.isRelay(peer) else { return false }
        return await knows(peer)
    }

    /// The documents offered to relays.
    func relayDocumentIDs() -> [DocumentID] {
        var out = [DocumentID]()
        for kind in [Store.DocumentKind.itinerary, .outbox, .card] {
            for record in (try? store.documents(kind: kind)) ?? [] where isRelayDocument(record) {
                out.append(record.id)
            }
        }
        return out
    }

    /// The relays that are peers of `record` (its ops go to them and come from them).
    func relayPeers(of record: Store.DocumentRecord) -> Set<PublicKey> {
        relays.known.isEmpty || !isRelayDocument(record) ? [] : relays.known
    }

    /// Whether a relay link this daemon added (or is redeeming) named `key`: such a key is
    /// never a grant's member (relay.md §1).
    func isRelayKey(_ key: PublicKey) -> Bool {
        relays.known.contains(key) || relays.named.contains(key) || relays.redeeming[key] != nil
    }

    /// The keys an access list of `record` names now: its participants' person keys, their
    /// devices certified in the document and not revoked, their connected devices, and this
    /// device; at most `RelayAccess.maxKeys` (the first in byte order).
    func accessKeys(_ record: Store.DocumentRecord) -> Set<PublicKey> {
        let persons = participants(of: record)
        var keys = persons.union(devices.devices(of: persons))
        if let identity { keys.insert(identity.publicKey) }
        for (device, person) in (try? store.devicePersons(in: record.id)) ?? [:] {
            guard let key = Engine.publicKey(hex: device), let owner = Engine.publicKey(hex: person),
                persons.contains(owner), (try? store.isRevoked(device: key, of: owner)) == false
            else { continue }
            keys.insert(key)
        }
        keys = keys.filter { !isRelayKey($0) }
        guard keys.count > RelayAccess.maxKeys else { return keys }
        return Set(keys.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }.prefix(RelayAccess.maxKeys))
    }

    /// The newest access list held for `doc` (cached).
    func heldAccess(_ doc: DocumentID) -> RelayAccess? {
        if let cached = relays.access[doc] { return cached }
        guard let held = try? store.relayAccess(of: doc)?.access else { return nil }
        if relays.access.count >= RelaysComponent.maxCachedLists { relays.access.removeAll() }
        relays.access[doc] = held
        return held
    }

    /// The newest access list of `record`: signed again when this daemon holds the owner's key
    /// and the list held is for an older epoch or names other keys; else the one held (an
    /// owner's list received from a member).
    func relayAccess(for record: Store.DocumentRecord) -> RelayAccess? {
        let held = heldAccess(record.id)
        guard isRelayDocument(record) else { return held }
        let signer = [account.personKey, identity].compactMap { $0 }.first { $0.publicKey.bytes == record.owner }
        guard let signer else { return held }
        let epoch = keyringCopy().current(record.id)?.epoch ?? 0
        let persons = participants(of: record)
        if let held, let checked = relays.checked[record.id], checked.persons == persons, checked.epoch == epoch {
            return held
        }
        let keys = accessKeys(record)
        if relays.checked.count >= RelaysComponent.maxCachedLists { relays.checked.removeAll() }
        relays.checked[record.id] = (persons, epoch)
        if let held, held.epoch == epoch, Set(held.keys) == keys { return held }
        let (next, overflow) = (held?.issuedMs ?? 0).addingReportingOverflow(1)
        guard !overflow,
            let access = try? RelayAccess.issue(
                doc: record.id, epoch: epoch, issuedMs: max(RFC3339.nowMs(), next), keys: keys, by: signer)
        else { return held }
        _ = try? store.saveRelayAccess(access, kind: Engine.replica(record).kind.rawValue)
        relays.access[record.id] = nil
        logger.info(
            "signed an access list", metadata: ["doc.id": "\(record.id)", "epoch": "\(epoch)", "keys": "\(keys.count)"])
        return access
    }

    /// An owner's access list a peer forwarded: kept when it is the owner's and newer.
    public func receiveRelayAccess(_ bytes: [UInt8], kind: ReplicaDocument.Kind, from peer: PublicKey) async {
        // A relay that offers a document holds its list: the photos it names go to it (relay.md §8).
        relayPhotosFollowOffer(bytes, from: peer)
        // The list held already (the usual case): no signature to check again.
        if let doc = DocumentID(bytes: Array(bytes.dropFirst().prefix(16))),
            heldAccess(doc)?.encoded == bytes
        {
            return
        }
        guard let access = try? RelayAccess(decoding: bytes), let record = try? store.document(access.doc),
            record.owner == access.owner.bytes
        else {
            logger.info(
                "ignored an access list not signed by its document's owner",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
            return
        }
        let outcome = try? store.saveRelayAccess(access, kind: Engine.replica(record).kind.rawValue)
        relays.access[access.doc] = nil
        if outcome == .kept, !relays.known.isEmpty {
            // Hand the newer list on to the relays at once.
            replicator.offer(access.doc, to: relays.connected)
        }
    }

    /// An offer to a relay: the owner, the vector, the owner-signed grants (kept opaque there)
    /// and the access list; never a name, a role or who sends it.
    func relayOffer(_ record: Store.DocumentRecord, vector: VersionVector) -> OfferContent? {
        guard isRelayDocument(record), let access = relayAccess(for: record) else { return nil }
        let grants = ((try? store.grants(in: record.id)) ?? []).filter { $0.issuer == record.owner }
        var content = OfferContent(owner: record.owner, vector: vector, grants: grants)
        content.kind = Engine.replica(record).kind
        content.relayAccess = access.encoded
        return content
    }

    /// After a local commit: a changed access list goes to the relays in a fresh offer.
    func relayAfterCommit(_ record: Store.DocumentRecord) {
        guard !relays.connected.isEmpty, isRelayDocument(record) else { return }
        let before = heldAccess(record.id)
        if relayAccess(for: record) != before { replicator.offer(record.id, to: relays.connected) }
    }

    /// A relay's usage report or quota refusal (relay.md §5), outside any redemption.
    func relayReport(_ message: RelayMessage, from peer: PublicKey) -> Bool {
        guard relays.known.contains(peer) else { return false }
        switch message {
        case .usage(let documents, let bytes, let quota):
            try? store.noteRelayUsage(
                peer, documents: Int(clamping: documents), bytes: Int64(clamping: bytes),
                quotaBytes: Int64(clamping: quota), timeMs: RFC3339.nowMs())
            relays.full.remove(peer)
            return true
        case .full(let doc, let reason):
            relays.full.insert(peer)
            logger.warning(
                "a relay refused ops: relay full",
                metadata: ["relay.id": "\(peer.humanID.prefix(7))", "doc.id": "\(doc)", "reason": "\(reason)"])
            return true
        default: return false
        }
    }
}
