import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Messages arriving (`Protocol/sync.md` §7.3, "Messages"): the bounds that keep a flood out,
/// the delivered marks this daemon writes back, and notifications.
extension Engine {
    /// Messages one sender may send in a minute (by their clock); the rest are dropped here.
    static let maxMessagesPerMinute = 60
    /// Messages one conversation direction holds; past it, the friend's outbox takes no ops.
    static let maxMessagesPerConversation = 100_000
    /// Messages all conversations hold together; past it, no outbox with messages takes ops.
    static let maxMessagesInAll = 1_000_000
    /// Under this many messages in one conversation, the total bound cannot be reached
    /// (1,000 friends at most), so it is not counted.
    static let messagesBeforeTotalCounted = 1_000

    /// Whether an outbox may take ops from its author: nothing is taken from a person this
    /// person blocked (dropped silently: they are not told), nor past the message bounds.
    /// Checked before the ops are stored (`Engine+Ingest`).
    func outboxMayTakeOps(_ record: Store.DocumentRecord) -> Bool {
        guard let me, let author = try? PublicKey(bytes: record.owner), author != me else { return true }
        if isBlocked(author) {
            logger.info(
                "dropped outbox ops from a person this person blocked",
                metadata: ["peer.id": "\(author.humanID.prefix(7))"])
            return false
        }
        let held = (try? store.messageCount(in: record.id)) ?? 0
        if held >= Self.maxMessagesPerConversation {
            logger.warning(
                "dropped outbox ops: the conversation holds the most messages it may",
                metadata: [
                    "peer.id": "\(author.humanID.prefix(7))", "messages.max": "\(Self.maxMessagesPerConversation)",
                ])
            return false
        }
        if held >= Self.messagesBeforeTotalCounted, ((try? store.totalMessageCount()) ?? 0) >= Self.maxMessagesInAll {
            logger.warning(
                "dropped outbox ops: this daemon holds the most messages it may",
                metadata: ["peer.id": "\(author.humanID.prefix(7))", "messages.max": "\(Self.maxMessagesInAll)"])
            return false
        }
        return true
    }

    /// After ops of a friend's outbox to this person were stored: each new message is checked
    /// against the rate bound (dropped here with a logged reason past it), marked delivered
    /// in this person's outbox to the friend, and notified unless the conversation is muted.
    func messagesFollow(_ record: Store.DocumentRecord, bodies: [OpBody]) {
        guard let me, let friend = try? PublicKey(bytes: record.owner), friend != me,
            friendState(friend) == .friend, !isBlocked(friend)
        else { return }
        var created = [EntityID]()
        for body in bodies {
            for change in body.changes {
                if case .create(let id, .message) = change, !created.contains(id) { created.append(id) }
            }
        }
        guard !created.isEmpty else { return }
        let conversation = Conversation(me: me, friend: friend)
        let now = RFC3339.nowMs()
        var delivered = [EntityID]()
        for id in created {
            guard let message = try? store.entity(in: record.id, id: id), message.kind == .message else { continue }
            let ref = MessageRef(doc: record.id, id: id)
            let ms = message.createdMs ?? 0
            var reason: String?
            if ms > now + Self.messageClockSkewMs {
                reason = "dropped a message dated in the future"
            } else if ((try? store.messageCount(in: record.id, sentFrom: ms - 59_999, to: ms)) ?? 0)
                > Self.maxMessagesPerMinute
            {
                reason = "dropped a message: more than \(Self.maxMessagesPerMinute) a minute from one sender"
            }
            if let reason {
                logger.warning("\(reason)", metadata: ["peer.id": "\(friend.humanID.prefix(7))"])
                try? store.setPreference(Self.droppedKey(ref), "1")
                continue
            }
            guard !message.deleted else { continue }
            delivered.append(id)
        }
        do { try writeReceipts(conversation, for: delivered, read: false) } catch {
            logger.error("writing delivered marks failed", metadata: ["error": "\(error)"])
        }
        guard !delivered.isEmpty else { return }
        let muted = isMuted(conversation.id)
        for id in delivered where !muted {
            notify("message", actor: friend, subject: conversation.id, dedup: "message:\(record.id.hex):\(id)")
        }
        events.publish(
            Event(
                type: "message", time: RFC3339.string(ms: now), doc: record.id.hex, docKind: "outbox",
                author: friend.humanID,
                summary: "\(displayName(of: friend)) wrote to you"
                    + (delivered.count > 1 ? " (\(delivered.count) messages)" : "")))
    }
}
