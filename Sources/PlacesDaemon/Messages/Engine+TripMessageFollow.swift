import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Trip messages arriving from members (`Protocol/sync.md` §8.1, "Trip messages"). Who may
/// write a message is the store's rule (`Store.tripMessageRefusal`); the bounds are here:
/// a trip past 100,000 messages takes no op that adds one (refused, logged), and a message
/// dated more than 5 minutes ahead, or past 50 from its author within a minute of its
/// signed time, is stored (later ops may depend on it) but never shown (logged) — the
/// direct messages' way.
extension Engine {
    /// The rule `store.ingest` applies to each op of an itinerary before storing it: no new
    /// message once the trip holds `maxTripMessages`, counting those of the batch.
    func tripMessageCap(_ record: Store.DocumentRecord) -> (OpHeader, OpBody) -> String? {
        guard record.kind == .itinerary else { return { _, _ in nil } }
        // Counted at the batch's first new message: most batches hold none, and need no read.
        let store = store, doc = record.id
        let counter = TripMessageCounter()
        return { _, body in
            let created = body.changes.reduce(0) { n, change in
                if case .create(_, .message) = change { return n + 1 }
                return n
            }
            guard created > 0 else { return nil }
            let held = counter.held ?? (try? store.messageCount(in: doc)) ?? 0
            guard held + created <= Self.maxTripMessages else {
                counter.held = held
                return "the trip holds \(Self.maxTripMessages) messages, the most it may"
            }
            counter.held = held + created
            return nil
        }
    }

    /// After ops of an itinerary were stored: each new message is checked against the time
    /// and flood bounds (dropped here past them), then notified unless the conversation is
    /// muted or its author blocked.
    func tripMessagesFollow(_ record: Store.DocumentRecord, stored: [SignedOp], bodies: [OpBody]) {
        guard let me, record.kind == .itinerary else { return }
        var created = [EntityID]()
        for body in bodies {
            for change in body.changes {
                if case .create(let id, .message) = change, !created.contains(id) { created.append(id) }
            }
        }
        guard !created.isEmpty else { return }
        let trip = TripConversation(doc: record)
        let now = RFC3339.nowMs()
        var shown = [(EntityID, PublicKey)]()
        for id in created {
            guard let message = try? store.entity(in: record.id, id: id), message.kind == .message,
                let author = tripMessageAuthor(message), author != me
            else { continue }
            let ref = MessageRef(doc: record.id, id: id)
            let ms = message.createdMs ?? 0
            let sentAt = Views.fields(message)[MessageFields.sentAt].flatMap(FieldRule.timestampMs)
            var reason: String?
            if ms > now + Self.messageClockSkewMs {
                reason = "dropped a trip message dated in the future"
            } else if sentAt != nil, sentAt != ms {
                reason = "dropped a trip message whose sentAt is not its op's time"
            } else if ((try? store.tripMessageCount(
                in: record.id, author: author.hex, from: ms - 59_999, to: ms,
                limit: Self.maxTripMessagesPerMinute + 1)) ?? 0) > Self.maxTripMessagesPerMinute
            {
                reason = "dropped a trip message: more than \(Self.maxTripMessagesPerMinute) a minute from one member"
            }
            if let reason {
                logger.warning(
                    "\(reason)", metadata: ["peer.id": "\(author.humanID.prefix(7))", "doc.id": "\(record.id)"])
                try? store.setPreference(Self.droppedKey(ref), "1")
                continue
            }
            guard !message.deleted, !isBlocked(author) else { continue }
            shown.append((id, author))
        }
        guard !shown.isEmpty else { return }
        let muted = isMuted(trip.id)
        for (id, author) in shown where !muted {
            notify("message", actor: author, subject: trip.id, dedup: "message:\(record.id.hex):\(id)")
        }
        let name = tripName(trip)
        for author in Set(shown.map(\.1)).sorted(by: { $0.hex < $1.hex }) {
            events.publish(
                Event(
                    type: "message", time: RFC3339.string(ms: now), doc: record.id.hex, docKind: "itinerary",
                    author: author.humanID, summary: "\(displayName(of: author)) wrote in “\(name)”"))
        }
    }
}

/// The messages a trip holds while one batch is stored (the cap's count).
final class TripMessageCounter: @unchecked Sendable {
    // Used only inside one `store.ingest` call, on its thread. Nil until first needed.
    var held: Int?
}
