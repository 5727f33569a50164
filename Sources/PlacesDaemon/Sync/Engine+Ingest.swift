import Foundation
import Logging
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

extension Store.Rejection {
    /// What the replicator needs to know of the refusal.
    var refusal: IngestOutcome.Refusal {
        switch self {
        case .missingDependency: .missingDependency
        case .sequenceGap: .sequenceGap
        default: .other
        }
    }
}

/// Ops received from a peer (`Protocol/sync.md` §7, "Ops"), handed over by the replicator:
/// stored through the store's checks, the caches kept current, and announced.
extension Engine {
    public func ingest(_ ops: [[UInt8]], into docID: DocumentID, from peer: PublicKey) async -> IngestOutcome? {
        guard let record = try? store.document(docID) else { return nil }
        let participantsBefore = participants(of: record)
        // A device's ops are its person's; another device of this person hands on everything.
        let sender = person(of: peer), sibling = isSibling(peer)
        // An outbox's ops come only from its author while the friendship (or a request)
        // stands in this daemon's view, whatever the session saw before (an ended friendship
        // mid-session): anything else is not stored.
        // Through a relay, only the author's ops are taken (the relay itself writes nothing):
        // another's, which a member pushed to the relay, are left out, not the whole batch.
        let viaRelay = relays.isRelay(peer)
        var ops = ops
        if record.kind == .outbox, !sibling, viaRelay {
            let authors = ops.filter { bytes in
                let author = (try? SignedOp(decoding: bytes)).flatMap { try? PublicKey(bytes: $0.header.author) }
                return author.map { person(of: $0).bytes } == record.owner
            }
            if authors.count < ops.count {
                logger.warning(
                    "left out outbox ops from a relay that are not its author's",
                    metadata: [
                        "peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)",
                        "ops": "\(ops.count - authors.count)",
                    ])
            }
            ops = authors
        }
        let fromAuthor = viaRelay ? !ops.isEmpty : participantsBefore.contains(sender) && record.owner == sender.bytes
        if record.kind == .outbox, !sibling, !fromAuthor {
            logger.info(
                "ignored outbox ops from someone who is not its author or not a friend now",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)"])
            return nil
        }
        // Nothing from a person this person blocked, nor past the message bounds (Engine+MessageFollow).
        if record.kind == .outbox, !sibling, !outboxMayTakeOps(record) { return nil }
        // A published trip's ops come only from its author (never relayed), up to its size bound.
        if record.kind == .published, !sibling, record.owner != sender.bytes || !publishedHasRoom(record) {
            logger.info(
                "ignored published trip ops from someone who is not its author, or past the trip's size bound",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)"])
            return nil
        }
        let before = currentVector(docID)
        // A trip's conversation takes no message past its bound (Engine+TripMessageFollow).
        let cap = tripMessageCap(record)
        let result: Store.IngestResult
        do {
            result =
                try viaRelay
                ? ingestFromRelay(ops, doc: docID, keyring: keyringCopy(), authorize: cap)
                : store.ingest(ops, doc: docID, keyring: keyringCopy(), authorize: cap)
        } catch {
            // Part of the batch may be stored: read the vector again.
            didStore(.documents)
            logger.error("storing received ops failed", metadata: ["doc.id": "\(docID)", "error": "\(error)"])
            return nil
        }
        didStore(.ops(result.stored, membership: Engine.membershipDocuments(result.stored, bodies: result.bodies)))
        // A bulk grew the store's cache (even of ops already held): it is given back later.
        if ops.count >= Store.bulkOps { idleTrim.noteBurst() }
        await learnRevocations(in: result.bodies, doc: docID)
        if result.bodies.contains(where: { $0.changes.contains { $0.kind == .relay } }) {
            learnRelays(in: record)
            await steerLearnedRelays()
        }
        if record.kind == .library, sibling, !result.stored.isEmpty {
            adoptPersonState(from: result.bodies, library: docID)
            relayOwnDevicesChanged()
        }
        defer { if store.personStateMarked { mirrorPersonState() } }
        if let rejected = result.rejected {
            logger.warning(
                "rejected an op from a peer",
                metadata: [
                    "peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)", "reason": "\(rejected.reason)",
                ])
        }
        let outcome = IngestOutcome(
            before: before, stored: result.stored, refusal: result.rejected?.reason.refusal,
            participantsBefore: withDevices(participantsBefore).union(relayPeers(of: record)),
            participantsAfter: withDevices(participants(of: record)).union(relayPeers(of: record)),
            entities: Engine.photoEntities(of: result.bodies, in: record))
        guard !result.stored.isEmpty else { return outcome }
        // A member who left (the only way another's op ends a membership here) keeps the key:
        // the owner starts a new epoch, as for a removal, so that its grant of the old one no
        // longer vouches for it at a daemon that holds no role events yet (sync.md §8.4, §8.5).
        if record.kind == .itinerary, let me, record.owner == me.bytes,
            !participantsBefore.subtracting(participants(of: record)).subtracting([me]).isEmpty
        {
            do {
                try rotateKey(record)
            } catch {
                logger.error(
                    "rotating the key after a leave failed", metadata: ["doc.id": "\(docID)", "error": "\(error)"])
            }
        }
        if result.equivocations > 0 {
            logger.warning(
                "stored ops of a member who signed two different ops at one position (equivocation)",
                metadata: [
                    "peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)", "ops": "\(result.equivocations)",
                ])
        }
        if result.excluded > 0 {
            logger.notice(
                "stored ops made concurrently with their author's removal; they are not applied",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(docID)", "ops": "\(result.excluded)"])
        }
        if record.kind == .outbox {
            socialFollows(record, stored: result.stored, bodies: result.bodies)
            return outcome
        }
        tripMessagesFollow(record, stored: result.stored, bodies: result.bodies)
        let name = entityName(in: docID, docID.hex) ?? "an itinerary"
        let kind = record.kind == .published ? "published" : "itinerary"
        // A trip message is a `message` event (above), not a change of the trip.
        let changing = zip(result.stored, result.bodies).filter { _, body in
            body.changes.contains { $0.kind != .message }
        }
        for author in Set(changing.map(\.0.header.author)) {
            guard let key = try? PublicKey(bytes: author) else { continue }
            events.publish(
                Event(
                    type: "changed", time: RFC3339.string(ms: RFC3339.nowMs()), doc: docID.hex, docKind: kind,
                    author: key.humanID, summary: "\(displayName(of: key)) changed “\(name)”"))
        }
        // The owner hears when someone opens the itinerary (the stories' "receiver has viewed").
        if record.owner == me?.bytes {
            for (op, body) in zip(result.stored, result.bodies)
            where body.changes.contains(where: { $0.kind == .view && $0.entity == op.header.authorKey }) {
                guard let key = try? PublicKey(bytes: op.header.author) else { continue }
                notify(
                    "viewed", actor: key, subject: docID.hex,
                    dedup: "viewed:\(docID.hex):\(op.header.authorKey):\(op.header.seq)")
                events.publish(
                    Event(
                        type: "viewed", time: RFC3339.string(ms: body.timeMs), doc: docID.hex, docKind: "itinerary",
                        author: key.humanID, summary: "\(displayName(of: key)) viewed “\(name)”"))
            }
        }
        // The owner hears when someone joins through a link.
        if record.owner == me?.bytes {
            for (op, body) in zip(result.stored, result.bodies) {
                for change in body.changes {
                    guard case .set(let entity, .member, "role", _, _) = change, entity == op.header.authorKey,
                        body.changes.contains(where: {
                            if case .set(entity, .member, "token", _, _) = $0 { return true } else { return false }
                        }),
                        let key = try? PublicKey(bytes: op.header.author)
                    else { continue }
                    notify("joined", actor: key, subject: docID.hex, dedup: "joined:\(docID.hex):\(entity)")
                }
            }
        }
        return outcome
    }
}

extension Engine {
    /// The entities a stored batch changed that may name photos to fetch (`missingBlobs`):
    /// in a trip, its messages alone (a trip names photos nowhere else, and most batches
    /// change no message: they need no read); elsewhere, every entity changed.
    static func photoEntities(of bodies: [OpBody], in record: Store.DocumentRecord) -> Set<EntityID> {
        var entities = Set<EntityID>()
        for body in bodies {
            for change in body.changes where record.kind != .itinerary || change.kind == .message {
                entities.insert(change.entity)
            }
        }
        return entities
    }
}

extension Engine {
    /// Every 2 seconds: once no bulk of ops has been stored for 10 seconds after one, gives
    /// back SQLite's spare cache and malloc's free pages. A sync stores up to 4 MiB of ops in
    /// one transaction (`SyncLimits.bulkMergeWait`); what that grew is returned, so that a
    /// daemon idle after a sync does not keep it (a relay does the same, `RelayEngine`).
    func trimWhenIdle() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(2))
            idleTrim.trimIfDue(store)
        }
    }
}
