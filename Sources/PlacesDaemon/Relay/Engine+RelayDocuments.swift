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

    /// The documents offered to `relay`: to one this person added, every document chosen for
    /// relays; to one learned from documents, those that name it (relay.md §5.1).
    func relayDocumentIDs(for relay: PublicKey) -> [DocumentID] {
        var docs = relays.known.contains(relay) ? relayDocumentIDs() : []
        let named = relays.learned[relay]?.docs ?? []
        if !named.isEmpty {
            let held = Set(docs)
            docs += named.filter { doc in
                !held.contains(doc) && (try? store.document(doc)).map(isRelayDocument) == true
            }
        }
        return docs
    }

    /// The relays that are peers of `record` (its ops go to them and come from them): this
    /// person's relays, and those its owner names in it.
    func relayPeers(of record: Store.DocumentRecord) -> Set<PublicKey> {
        let named = relays.learnedByDoc[record.id] ?? []
        guard !relays.known.isEmpty || !named.isEmpty, isRelayDocument(record) else { return [] }
        return relays.known.union(named)
    }

    /// Whether a relay link this daemon added (or is redeeming) named `key`: such a key is
    /// never a grant's member (relay.md §1).
    func isRelayKey(_ key: PublicKey) -> Bool {
        relays.isRelay(key) || relays.named.contains(key)
    }

    /// The keys an access list of `record` names now: its participants' person keys, their
    /// devices certified in the document and not revoked, their connected devices, this
    /// device, and `own` (every device of this person's: `ownDevices`); at most
    /// `RelayAccess.maxKeys` (the first in byte order).
    func accessKeys(_ record: Store.DocumentRecord, own: Set<PublicKey>) -> Set<PublicKey> {
        let persons = participants(of: record)
        var keys = persons.union(devices.devices(of: persons)).union(own)
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

    /// Every device of this person's, certified in its library and not revoked: on the access
    /// lists it signs, so a phone that never wrote in a trip still reaches it through a relay
    /// while the first device is away. Read again when the library changes.
    func ownDevices() -> Set<PublicKey> {
        guard let me, let library = try? account.library() else { return [] }
        let version = currentVector(library)?.seqs.values.reduce(UInt64(0), &+) ?? 0
        if let cached = relays.ownDevices, cached.version == version { return cached.keys }
        let revoked = Set(((try? store.revocations(of: me)) ?? []).map(\.device))
        var keys: Set<PublicKey> = [me]
        for record in (try? store.entities(in: library, kind: .device)) ?? [] {
            guard let key = Engine.publicKey(hex: record.id), !revoked.contains(key),
                let text = Views.fields(record)[DeviceFields.cert.name]?.stringValue,
                let certificate = try? DeviceCertificate(base64url: text), certificate.person == me,
                certificate.device == key
            else { continue }
            keys.insert(key)
        }
        relays.ownDevices = (version, keys)
        return keys
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
        let own = ownDevices()
        if let held, let checked = relays.checked[record.id], checked.persons == persons, checked.epoch == epoch,
            checked.own == own
        {
            return held
        }
        let keys = accessKeys(record, own: own)
        if relays.checked.count >= RelaysComponent.maxCachedLists { relays.checked.removeAll() }
        relays.checked[record.id] = (persons, epoch, own)
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
        if record.kind == .library { relayOwnDevicesChanged() }
        if !relays.known.isEmpty { relayNamingAfterCommit(record) }
        guard !relays.connected.isEmpty, isRelayDocument(record) else { return }
        let before = heldAccess(record.id)
        if relayAccess(for: record) != before { replicator.offer(record.id, to: relays.connected) }
    }

    /// After the library changed (a device paired or revoked): when this person's devices are
    /// not the ones the lists were signed for, every document goes to the relays again, with a
    /// list signed anew.
    func relayOwnDevicesChanged() {
        guard !relays.connected.isEmpty else { return }
        let before = relays.ownDevices?.keys
        guard ownDevices() != before else { return }
        for doc in relayDocumentIDs() { replicator.offer(doc, to: relays.connected) }
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
            // The relay's words, escaped: a newline in them cannot forge a line of this log.
            logger.warning(
                "a relay refused ops: relay full",
                metadata: [
                    "relay.id": "\(peer.humanID.prefix(7))", "doc.id": "\(doc)", "reason": "\(reason.debugDescription)",
                ])
            return true
        default: return false
        }
    }
}
