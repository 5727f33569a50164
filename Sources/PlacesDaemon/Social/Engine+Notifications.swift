import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Notifications: local to this device (never synced), derived when something happens to
/// this person — a like or comment on their post, a friend request or acceptance, an
/// invitation, a view of or join to their shared itinerary — one per event, the newest 1,000
/// kept (`Store.maxNotifications`), each also published as an event.
extension Engine {
    /// Records a notification once per `dedup` key.
    func notify(_ type: String, actor: PublicKey, subject: String, dedup: String) {
        guard
            (try? store.addNotification(
                type: type, actor: actor.bytes, subject: subject, atMs: RFC3339.nowMs(), dedup: dedup)) == true
        else { return }
        events.publish(
            Event(
                type: "notification", time: RFC3339.string(ms: RFC3339.nowMs()), author: actor.humanID,
                summary: "\(type) from \(displayName(of: actor))"))
    }

    /// `GET /v1/notifications?limit=N`.
    func notifications(_ query: [String: String]) throws -> NotificationList {
        try requireLogin()
        var limit = 100
        if let text = query["limit"] {
            guard let n = Int(text), (1...Store.maxNotifications).contains(n) else {
                throw ServiceError.invalid(
                    "limit", "'limit' must be a whole number from 1 to \(Store.maxNotifications)")
            }
            limit = n
        }
        let records = try storeCall { () throws(StoreError) in try store.notifications(limit: limit) }
        let unread = try storeCall { () throws(StoreError) in try store.unreadNotifications() }
        return NotificationList(
            unread: unread,
            notifications: records.map { record in
                let actor = try? PublicKey(bytes: record.actor)
                let name = actor.map(displayName)
                return Notification(
                    id: String(record.id), type: record.type,
                    actor: actor?.humanID ?? HexCoding.encode(record.actor),
                    actorName: name == actor.map { String($0.humanID.prefix(7)) } ? nil : name,
                    subject: record.subject, read: record.read, at: RFC3339.string(ms: record.atMs))
            })
    }

    /// `POST /v1/notifications/read` (`{"ids": […]}`, or no body for all).
    func markNotificationsRead(_ body: [UInt8]) throws -> NotificationList {
        try requireLogin()
        var ids: [Int64]?
        if !body.isEmpty {
            guard case .object(let o)? = try? JSONDecoder().decode(JSONValue.self, from: Data(body)) else {
                throw ServiceError.malformed("the body must be a JSON object {\"ids\": [...]} or empty")
            }
            if let unknown = o.keys.sorted().first(where: { $0 != "ids" }) {
                throw ServiceError.invalid(unknown, "unknown field '\(unknown)': the field is ids")
            }
            if let list = o["ids"], !list.isNull {
                guard case .array(let items) = list, items.count <= Store.maxNotifications else {
                    throw ServiceError.invalid("ids", "'ids' must be a list of notification ids")
                }
                ids = try items.map { item in
                    guard let text = item.stringValue, let id = Int64(text) else {
                        throw ServiceError.invalid("ids", "'ids' must hold notification ids (strings)")
                    }
                    return id
                }
            }
        }
        _ = try storeCall { () throws(StoreError) in try store.markNotificationsRead(ids) }
        return try notifications([:])
    }
}
