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
        /// A traveller by stored reference: a member's key, or a named traveller's last name.
        func travellerName(_ ref: String) -> String {
            if let key = Engine.publicKey(hex: ref) { return ref == myHex ? (myName ?? "you") : displayName(key) }
            return (try? store.entity(in: doc, id: ref)).flatMap { Views.fields($0)["name"]?.stringValue }
                ?? "a traveller"
        }
        func nameOf(_ entity: String) -> String? {
            guard let record = try? store.entity(in: doc, id: entity) else { return nil }
            let fields = Views.fields(record)
            if ActivityWording.isExpenseKind(record.kind.rawValue) {
                return ActivityWording.expensePhrase(kind: record.kind.rawValue, fields: fields, name: travellerName)
            }
            if ActivityWording.isTripFolderKind(record.kind.rawValue) {
                return ActivityWording.itemPhrase(kind: record.kind.rawValue, fields: fields)
            }
            return fields["name"]?.stringValue
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
            let summary = ActivityWording.summary(
                r.wordingRow(old: old, new: new), who: who, subject: subject, entityName: entityName)
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
