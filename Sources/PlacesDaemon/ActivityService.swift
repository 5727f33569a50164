import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// An itinerary's activity in words (who changed what, who joined, who viewed it) and when
/// a member's view of it is recorded. Holds the last view recorded of each itinerary.
struct ActivityService {
    /// A member records at most one view of an itinerary per this many milliseconds.
    static let viewCoalescingMs: Int64 = 10 * 60 * 1000

    /// When this daemon last recorded a view of each itinerary.
    private(set) var lastViewMs: [DocumentID: Int64] = [:]

    /// Whether a view of `doc` at `nowMs` is to be recorded (at most one per
    /// `viewCoalescingMs`); counts it as recorded when so.
    mutating func noteView(of doc: DocumentID, nowMs: Int64) -> Bool {
        guard nowMs - (lastViewMs[doc] ?? 0) >= ActivityService.viewCoalescingMs else { return false }
        lastViewMs[doc] = nowMs
        return true
    }

    /// The signed view of `doc` by `me` at `nowMs`.
    static func view(of doc: DocumentID, by me: PublicKey, nowMs: Int64) -> Edit {
        Edit(
            doc: doc,
            changes: [.set(ViewFields.viewedAt, of: me.hex, to: RFC3339.string(ms: nowMs))],
            summary: "itinerary viewed")
    }

    /// `GET /v1/itineraries/{id}/activity`: each activity row of `doc` with its summary in
    /// words. `myHex` and `myName` name this identity; `displayName` names anyone else.
    static func activity(
        of doc: DocumentID, store: Store, myHex: String?, myName: String?, displayName: (PublicKey) -> String
    ) throws -> ActivityList {
        let records = try ServiceError.storing { () throws(StoreError) in try store.activity(of: doc) }
        func nameOf(_ entity: String) -> String? {
            guard let record = try? store.entity(in: doc, id: entity) else { return nil }
            return Views.fields(record)["name"]?.stringValue
        }
        var names = [String: String]()
        var people = [String: String]()
        let entries = records.map { r -> ActivityEntry in
            let authorKey = try? PublicKey(bytes: HexCoding.decode(r.author) ?? [])
            let author = authorKey.map(\.humanID) ?? r.author
            if people[r.author] == nil, let authorKey { people[r.author] = displayName(authorKey) }
            let authorName = r.author == myHex ? myName : people[r.author]
            let old = r.oldJSON.flatMap(ActivityService.parseJSON)
            let new = r.newJSON.flatMap(ActivityService.parseJSON)
            let who = authorName ?? String(author.prefix(7))
            let subject =
                Engine.publicKey(hex: r.entity).map(displayName)
                ?? String(r.entity.prefix(8))
            let entityName: String = {
                if let cached = names[r.entity] { return cached }
                let n = nameOf(r.entity) ?? ""
                names[r.entity] = n
                return n
            }()
            let summary: String
            switch (r.action, r.kind) {
            case ("joined", _) where r.entity == r.author:
                summary = "\(who) joined through a link as \(new?.stringValue ?? "member")"
            case ("joined", _):
                summary = "\(subject) joined through a link as \(new?.stringValue ?? "member") (let in by \(who))"
            case ("shared", "link"):
                let role = new?.stringValue ?? "share"
                summary = "\(who) made \(role == "editor" ? "an" : "a") \(role) link (\(r.entity.prefix(8)))"
            case ("shared", _):
                summary = "\(who) shared the itinerary with \(subject) as \(new?.stringValue ?? "member")"
            case ("unshared", "link"): summary = "\(who) revoked link \(r.entity.prefix(8))"
            case ("unshared", _): summary = "\(who) removed \(subject) from the itinerary"
            case ("left", _): summary = "\(who) left the itinerary"
            case ("viewed", _): summary = "\(who) viewed the itinerary"
            case ("edited", "member") where r.field == "role":
                summary = "\(who) made \(subject) \(new?.stringValue ?? "a member")"
            case ("created", "itinerary"): summary = "\(who) created the itinerary “\(new?.stringValue ?? entityName)”"
            case ("created", _): summary = "\(who) added “\(new?.stringValue ?? entityName)” to the places to go"
            case ("deleted", "itinerary"): summary = "\(who) deleted the itinerary"
            case ("deleted", _): summary = "\(who) removed “\(entityName)” from the places to go"
            case ("moved", _): summary = "\(who) moved “\(entityName)” in the places to go"
            case ("restored", _): summary = "\(who) restored “\(entityName)”"
            default:
                let field = r.field ?? "a field"
                switch (old, new) {
                case (let o?, let n?) where !o.isNull && !n.isNull:
                    summary = "\(who) changed \(field) from “\(o)” to “\(n)”"
                case (_, let n?) where !n.isNull: summary = "\(who) set \(field) to “\(n)”"
                default: summary = "\(who) cleared \(field)"
                }
            }
            return ActivityEntry(
                time: RFC3339.string(ms: r.timeMs), author: author, authorName: authorName, action: r.action,
                kind: r.kind,
                entity: r.entity, field: r.field, old: old, new: new, summary: summary)
        }
        return ActivityList(activity: entries, count: entries.count)
    }

    static func parseJSON(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }
}
