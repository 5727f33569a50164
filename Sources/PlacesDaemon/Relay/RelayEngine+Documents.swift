import Foundation
import Logging
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// The documents a relay keeps (`Protocol/relay.md` §4–§5): access decided by the newest
/// owner-signed access list of each document and the session's key, ops stored unopened,
/// grants kept opaque, quotas per user in bytes of ops kept.
extension RelayEngine {
    /// Most documents one user may bring to the relay.
    static let maxDocumentsPerUser = 10_000
    /// Most grants kept per document (opaque records).
    static let maxGrantsPerDocument = 4_096

    /// The kinds a relay keeps: itineraries, outboxes and cards (relay.md §4).
    static func relays(_ kind: ReplicaDocument.Kind) -> Bool { [.itinerary, .outbox, .card].contains(kind) }

    public func receiveRelayAccess(_ record: [UInt8], kind: ReplicaDocument.Kind, from peer: PublicKey) async {
        let access: RelayAccess
        do { access = try RelayAccess(decoding: record) } catch {
            logger.warning(
                "refused an access list", metadata: ["peer.id": "\(peer.humanID.prefix(7))", "reason": "\(error)"])
            return
        }
        guard Self.relays(kind) else { return }
        do {
            let kept = try store.isRelayed(access.doc)
            if !kept {
                // A document new here comes from a user on its own list, within its bounds: no
                // stranger makes the relay keep anything.
                guard try store.relayUserRole(peer) != nil, access.allows(peer),
                    try store.relayUsage(of: peer).documents < Self.maxDocumentsPerUser
                else {
                    logger.info(
                        "ignored an access list of a document not kept here, from a key that may not bring one",
                        metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(access.doc)"])
                    return
                }
            }
            switch try store.saveRelayAccess(access, kind: kind.rawValue) {
            case .kept:
                accessCache[access.doc] = nil
                if !kept { try store.keepRelayed(access.doc, for: peer, timeMs: RFC3339.nowMs()) }
                if kept { dropCopiesOffList(access) }
                logger.info(
                    "access list kept",
                    metadata: [
                        "doc.id": "\(access.doc)", "epoch": "\(access.epoch)", "keys": "\(access.keys.count)",
                        "peer.id": "\(peer.humanID.prefix(7))",
                    ])
                // Every key on the new list that is connected is offered the document.
                replicator.offer(access.doc, to: Set(access.keys).subtracting([peer]))
            case .stale:
                // A replayed older list never rolls access back (relay.md §4.1); the list held
                // itself comes with every member's offer.
                guard self.access(access.doc)?.access.encoded != access.encoded else { break }
                logger.info(
                    "ignored an access list older than the one held",
                    metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(access.doc)"])
            case .wrongOwner:
                logger.warning(
                    "refused an access list not signed by the document's owner",
                    metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(access.doc)"])
            }
        } catch {
            logger.error("keeping an access list failed", metadata: ["error": "\(error)"])
        }
    }

    /// The newest list of a document kept here.
    func access(_ doc: DocumentID) -> (access: RelayAccess, kind: ReplicaDocument.Kind)? {
        if let cached = accessCache[doc] { return cached }
        guard (try? store.isRelayed(doc)) == true, let (access, kind) = try? store.relayAccess(of: doc) else {
            return nil
        }
        let entry = (access, ReplicaDocument.Kind(rawValue: kind) ?? .itinerary)
        if accessCache.count >= Self.maxCachedLists { accessCache.removeAll() }
        accessCache[doc] = entry
        return entry
    }

    /// Most documents a relay offers a key first when its session opens: a user may sign lists
    /// naming anyone, and the offers to one key must fit its session's queue (relay.md §4.2).
    static let maxFirstOffers = 1_000

    public func sharedDocumentIDs(with peer: PublicKey) async -> [DocumentID] {
        ((try? store.relayAccessDocuments(for: peer, limit: Self.maxFirstOffers)) ?? []).filter {
            (try? store.isRelayed($0)) == true
        }
    }

    public func document(_ doc: DocumentID) async -> ReplicaDocument? {
        guard let (access, kind) = access(doc) else { return nil }
        return ReplicaDocument(id: doc, owner: access.owner.bytes, isShared: true, kind: kind)
    }

    /// The keys the newest list names: who is offered the document and sent its new ops.
    public func participants(in doc: DocumentID) async -> Set<PublicKey> { Set(access(doc)?.access.keys ?? []) }
    public func isAdmitting(_ peer: PublicKey, to doc: DocumentID) async -> Bool { false }
    public func versionVector(of doc: DocumentID) async -> VersionVector? { try? store.versionVector(of: doc) }

    /// Never a name, a role or a description: the relay knows none.
    public func offerContent(of doc: DocumentID, to peer: PublicKey, describe: Bool) async -> OfferContent? {
        guard let (access, kind) = access(doc), access.allows(peer), let vector = try? store.versionVector(of: doc)
        else { return nil }
        // Only the grants sealed to the receiver: it can open no other, and an offer stays
        // small however many grants a document's owner signed (relay.md §4.2).
        let mine = grants(of: doc).filter { $0.member == peer.bytes }
        var content = OfferContent(owner: access.owner.bytes, vector: vector, grants: mine)
        content.kind = kind
        content.relayAccess = access.encoded
        return content
    }

    public func ops(of doc: DocumentID, missingFrom: VersionVector, after: Int64, maxBytes: Int) async -> ReplicaRound?
    {
        guard let round = try? store.ops(of: doc, missingFrom: missingFrom, after: after, maxBytes: maxBytes) else {
            return nil
        }
        return ReplicaRound(ops: round.ops, stamps: round.stamps, readThrough: round.readThrough)
    }

    public func heldOps(_ ids: [[UInt8]], in doc: DocumentID) async -> Set<[UInt8]>? {
        try? store.heldOpIDs(ids, of: doc)
    }

    public func ops(withIDs ids: [[UInt8]], in doc: DocumentID, maxBytes: Int) async -> ReplicaRound? {
        guard let found = try? store.ops(withIDs: ids, of: doc, maxBytes: maxBytes) else { return nil }
        return ReplicaRound(ops: found.ops, stamps: found.stamps, readThrough: found.readThrough)
    }

    /// The grants kept opaque with `doc`, read back (relay.md §4: `keepOpaque`'s layout).
    func grants(of doc: DocumentID) -> [KeyGrant] {
        ((try? store.opaqueRecords(of: doc)) ?? []).compactMap { record in
            guard record.kind == .grant else { return nil }
            return Self.grant(record.bytes)
        }
    }

    /// A grant from its kept bytes: the signed bytes, the issuer, the signature.
    static func grant(_ bytes: [UInt8]) -> KeyGrant? {
        let prefix = Array("places/keygrant/1".utf8).count + 1
        let fixed = prefix + 16 + 4 + 32
        guard bytes.count >= fixed + 96, let doc = DocumentID(bytes: Array(bytes[prefix..<(prefix + 16)])) else {
            return nil
        }
        var epoch: UInt32 = 0
        for byte in bytes[(prefix + 16)..<(prefix + 20)] { epoch = epoch << 8 | UInt32(byte) }
        let end = bytes.count - 96
        return KeyGrant(
            doc: doc, epoch: epoch, member: Array(bytes[(prefix + 20)..<fixed]), sealedKey: Array(bytes[fixed..<end]),
            issuer: Array(bytes[end..<(end + 32)]), signature: Array(bytes[(end + 32)...]))
    }

    public func heldGrantSignatures(in doc: DocumentID) async -> Set<[UInt8]> { Set(grants(of: doc).map(\.signature)) }

    /// Keeps the owner-signed grants of documents kept here as opaque records (the sealed
    /// keys are never opened), up to `maxGrantsPerDocument` per document.
    public func keepGrants(_ grants: [KeyGrant]) async -> Bool {
        var kept = false
        var counts = [DocumentID: Int]()
        for grant in grants {
            guard let (access, _) = access(grant.doc), grant.issuer == access.owner.bytes else { continue }
            let count = counts[grant.doc] ?? self.grants(of: grant.doc).count
            guard count < Self.maxGrantsPerDocument else { continue }
            if (try? store.keepOpaque(grant, timeMs: RFC3339.nowMs())) == true {
                kept = true
                counts[grant.doc] = count + 1
            }
        }
        return kept
    }

    /// Ops pushed by `peer`: only from a key on the document's newest list, only within the
    /// quota of the user the document is charged to (refused whole with `relay-full`
    /// otherwise, never accepted then dropped), stored unopened.
    public func ingest(_ ops: [[UInt8]], into doc: DocumentID, from peer: PublicKey) async -> IngestOutcome? {
        guard let (access, _) = access(doc), access.allows(peer) else {
            logger.warning(
                "refused ops from a key not on the document's access list",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(doc)", "ops": "\(ops.count)"])
            return nil
        }
        let keys = Set(access.keys)
        let before = try? store.versionVector(of: doc)
        guard let user = try? store.relayedDocUser(doc), let quota = try? store.relayQuota(of: user),
            let used = try? store.relayUsage(of: user).bytes
        else { return nil }
        let incoming = ops.reduce(Int64(0)) { $0 + Int64($1.count) }
        // One document holds at most the document quota, whoever brought it: a busy trip
        // cannot take its user's whole quota from the others.
        let documentQuota = relay.documentQuotaBytes
        let documentBytes = (try? store.relayedDocBytes(doc)) ?? 0
        guard documentBytes <= documentQuota, incoming <= documentQuota - documentBytes else {
            logger.warning(
                "refused ops over the document's quota (relay-full)",
                metadata: [
                    "peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(doc)", "bytes": "\(documentBytes)",
                    "quota": "\(documentQuota)",
                ])
            replicator.sendRelay(
                .full(doc: doc, reason: "the relay keeps \(documentBytes) of \(documentQuota) bytes for this document"),
                to: peer)
            return IngestOutcome(
                before: before, stored: [], refusal: .other, participantsBefore: keys, participantsAfter: keys)
        }
        guard used <= quota, incoming <= quota - used else {
            logger.warning(
                "refused ops over the user's quota (relay-full)",
                metadata: [
                    "peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(doc)", "used": "\(used)", "quota": "\(quota)",
                ])
            replicator.sendRelay(
                .full(doc: doc, reason: "the relay keeps \(used) of \(quota) bytes for this document's user"),
                to: peer)
            return IngestOutcome(
                before: before, stored: [], refusal: .other, participantsBefore: keys, participantsAfter: keys)
        }
        let result: Store.IngestResult
        do { result = try store.ingestUnopened(ops, doc: doc) } catch {
            logger.error("storing relayed ops failed", metadata: ["doc.id": "\(doc)", "error": "\(error)"])
            return nil
        }
        if let rejected = result.rejected {
            logger.warning(
                "rejected an op from a peer",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(doc)", "reason": "\(rejected.reason)"])
        }
        if !result.stored.isEmpty {
            idleTrim.noteBurst()
            logger.debug("relayed ops stored", metadata: ["doc.id": "\(doc)", "ops": "\(result.stored.count)"])
            sendUsage(to: user)
        }
        return IngestOutcome(
            before: before, stored: result.stored, refusal: result.rejected?.reason.refusal, participantsBefore: keys,
            participantsAfter: keys)
    }

    /// Tells a user what the relay keeps charged to it (nothing to a key that is no user).
    func sendUsage(to user: PublicKey) {
        guard let quota = try? store.relayQuota(of: user), let usage = try? store.relayUsage(of: user) else { return }
        replicator.sendRelay(
            .usage(
                documents: UInt64(clamping: usage.documents), bytes: UInt64(clamping: usage.bytes),
                quotaBytes: UInt64(clamping: quota)), to: user)
    }

    public func caughtUp(with peer: PublicKey, on doc: DocumentID, offered: VersionVector) async {}
    public func receiveShare(_ offer: ReceivedOffer, from peer: PublicKey) async -> ReplicaDocument? { nil }
    public func admitJoin(_ offer: ReceivedOffer, from peer: PublicKey) async -> Bool { false }
    public func joinPresentations(for peer: PublicKey) async -> [JoinPresentation] { [] }
    public func answerJoin(_ presentation: JoinPresentation, from peer: PublicKey) async -> JoinAnswer? { nil }
    public func joinRefused(_ refusal: JoinRefusal, from peer: PublicKey) async {}
}
