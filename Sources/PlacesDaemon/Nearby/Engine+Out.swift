import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesRoutes
import PlacesStore

/// "I'm out" (issue 32, `Protocol/sync.md` §7.3 "Out notes", `docs/out-and-about.md`): a note
/// to an audience of friends saying where the user is, roughly, until when. It is written
/// into the user's outbox to each reader, and into the journal with who it went to; every
/// reader's daemon hides it at its `until` by its own clock.
extension Engine {
    static let outDefaultMs: Int64 = 3 * 3_600_000
    static let outMaxMs: Int64 = 24 * 3_600_000
    /// How far in the future a reader accepts a note's `since` (clocks differ).
    static let outClockSkewMs: Int64 = 5 * 60_000
    static let outMaxNoteCharacters = 280
    /// The grid a position is rounded to unless the author asks for `exact`: 0.002° of
    /// latitude (about 222 m), and the same distance in longitude.
    static let outGridDegrees = 0.002

    /// `PUT /v1/out`: replaces the user's note.
    func putOut(_ body: [String: JSONValue]) throws -> JSONValue {
        guard let identity, let me else { throw ServiceError.loggedOut }
        let allowed: Set<String> = ["place", "latitude", "longitude", "until", "audience", "note", "exact"]
        if let unknown = body.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw ServiceError.invalid(
                unknown,
                "unknown field '\(unknown.prefix(40))': the fields are place, latitude, longitude, until, audience, note, exact"
            )
        }
        var exact = false
        if let value = body["exact"], !value.isNull {
            guard case .bool(let b) = value else {
                throw ServiceError.invalid("exact", "'exact' must be true or false")
            }
            exact = b
        }
        let position = try outPosition(body, exact: exact)
        let nowMs = RFC3339.nowMs()
        var untilMs = nowMs + Self.outDefaultMs
        if let value = body["until"], !value.isNull {
            guard let text = value.stringValue, let ms = RFC3339.parse(text) else {
                throw ServiceError.invalid("until", "'until' must be an RFC 3339 time, like 2027-05-01T22:00:00+01:00")
            }
            guard ms > nowMs else { throw ServiceError.invalid("until", "'until' \(text.prefix(40)) has passed") }
            guard ms <= nowMs + Self.outMaxMs else {
                throw ServiceError.invalid("until", "'until' is at most 24 hours from now")
            }
            untilMs = ms
        }
        var note: String?
        if let value = body["note"], !value.isNull {
            guard let text = value.stringValue else { throw ServiceError.invalid("note", "'note' must be a string") }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard trimmed.utf8.count <= 64 * Self.outMaxNoteCharacters, trimmed.count <= Self.outMaxNoteCharacters
            else {
                throw ServiceError.invalid("note", "a note is at most \(Self.outMaxNoteCharacters) characters")
            }
            note = trimmed.isEmpty ? nil : trimmed
        }
        var (audience, readers) = try outAudience(body["audience"] ?? .string("friends"))
        // Nothing new is written to a blocked person, and they are not told.
        readers = readers.filter { !isBlocked($0) }

        let since = RFC3339.string(ms: nowMs), until = RFC3339.string(ms: untilMs)
        let id = OutFields.entityID
        func write(in doc: DocumentID, journal: Bool) throws -> Store.Edit {
            let held = try storeCall { () throws(StoreError) in try store.entity(in: doc, id: id) }
            var w = held == nil ? EntityWrite<OutFields>.create(id) : .update(id)
            if let held, held.deleted { w.set(FieldSpec.deleted.name, to: .bool(false), old: .bool(true)) }
            w.set(OutFields.latitude, to: position.latitude)
            w.set(OutFields.longitude, to: position.longitude)
            w.set(OutFields.place, to: position.place)
            w.set(OutFields.note, to: note)
            w.set(OutFields.exact, to: exact)
            w.set(OutFields.since, to: since)
            w.set(OutFields.until, to: until)
            if journal {
                w.set(OutFields.audience, to: audience)
                w.set(OutFields.readers, to: readers.map(\.hex).sorted())
            }
            return Store.Edit(doc: doc, changes: w.changes, timeMs: nowMs)
        }
        let journal = try journal()
        var edits = [try write(in: journal.id, journal: true)]
        for reader in readers.sorted(by: { $0.hex < $1.hex }) {
            edits.append(try write(in: try ensureOutbox(to: reader, identity: identity).id, journal: false))
        }
        // Those who had the last note while it is still live lose it; nobody else hears of it.
        if let last = try currentOut(journal: journal.id, nowMs: nowMs) {
            for hex in Set(last.readers).subtracting(readers.map(\.hex)).sorted() {
                guard let key = Engine.publicKey(hex: hex) else { continue }
                let doc = Outboxes.documentID(author: me.bytes, reader: key.bytes)
                guard let held = try? store.entity(in: doc, id: id), !held.deleted else { continue }
                edits.append(Store.Edit(doc: doc, changes: [.tombstone(entity: id, kind: .out)], timeMs: nowMs))
            }
        }
        try commitEdits(edits, summary: "out")
        logger.info("said they are out", metadata: ["readers": "\(readers.count)"])
        guard let record = try storeCall({ () throws(StoreError) in try store.entity(in: journal.id, id: id) }),
            let view = outView(record, nowMs: nowMs)
        else { throw ServiceError.internal("Could not save your note", "not found after writing it") }
        return ownOutJSON(view, id: id)
    }

    /// `DELETE /v1/out`: ends the user's note early, for everyone it went to.
    func stopOut() throws -> JSONValue {
        guard let me else { throw ServiceError.loggedOut }
        let journal = try journal()
        let id = OutFields.entityID
        guard let held = try storeCall({ () throws(StoreError) in try store.entity(in: journal.id, id: id) }),
            !held.deleted
        else { return .object(["stopped": .bool(false)]) }
        let nowMs = RFC3339.nowMs()
        var edits = [Store.Edit(doc: journal.id, changes: [.tombstone(entity: id, kind: .out)], timeMs: nowMs)]
        for hex in Views.fields(held)[OutFields.readers] ?? [] {
            guard let key = Engine.publicKey(hex: hex) else { continue }
            let doc = Outboxes.documentID(author: me.bytes, reader: key.bytes)
            guard let copy = try? store.entity(in: doc, id: id), !copy.deleted else { continue }
            edits.append(Store.Edit(doc: doc, changes: [.tombstone(entity: id, kind: .out)], timeMs: nowMs))
        }
        let wasLive = outView(held, nowMs: nowMs) != nil
        try commitEdits(edits, summary: "out stopped")
        return .object(["stopped": .bool(wasLive)])
    }

    /// `GET /v1/out?near=`: friends who are out now, nearest first when `near` is given (else
    /// newest first), and the user's own note.
    func outList(_ query: [String: String]) throws -> JSONValue {
        guard let me else { throw ServiceError.loggedOut }
        for key in query.keys.sorted() where key != "near" {
            throw ServiceError.invalid(key, "unknown parameter '\(key.prefix(40))': near")
        }
        // Distances from `near`, else from "here" when it is set (`PUT /v1/here`).
        let here = keptHere().map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
        let centre = try query["near"].map { try nearbyCentre($0, index: try nearbyIndex()) } ?? here
        let nowMs = RFC3339.nowMs()
        var rows = [(distance: Double?, sinceMs: Int64, value: JSONValue)]()
        for friend in currentFriends() where !isBlockedForOut(friend) {
            let doc = Outboxes.documentID(author: friend.bytes, reader: me.bytes)
            guard let record = try? store.entity(in: doc, id: OutFields.entityID),
                let view = outView(record, nowMs: nowMs)
            else { continue }
            let distance = centre.map { $0.greatCircleDistanceMeters(to: view.point).rounded() }
            var o = outFields(view)
            o["person"] = .string(friend.humanID)
            o["name"] = .string(displayName(of: friend))
            o["distanceMeters"] = distance.map(JSONValue.number) ?? .null
            rows.append((distance, view.sinceMs, .object(o)))
        }
        rows.sort { a, b in
            if let da = a.distance, let db = b.distance, da != db { return da < db }
            return a.sinceMs > b.sinceMs
        }
        let mine = try currentOut(journal: try journal().id, nowMs: nowMs)
        return .object([
            "friends": .array(rows.map(\.value)),
            "mine": mine.map { ownOutJSON($0, id: OutFields.entityID) } ?? .null,
        ])
    }

    /// A note as a daemon shows it: nil when it is deleted, expired, not yet begun by this
    /// clock (beyond the skew allowed), or longer than a note may be.
    struct OutView {
        var point: GeoPoint
        var place: String?
        var note: String?
        var exact: Bool
        var sinceMs: Int64
        var untilMs: Int64
        var audience: String?
        var readers: [String]
    }

    func outView(_ record: Store.EntityRecord, nowMs: Int64) -> OutView? {
        guard !record.deleted, record.kind == .out else { return nil }
        let f = Views.fields(record)
        guard let lat = f[OutFields.latitude], let lon = f[OutFields.longitude],
            let since = f[OutFields.since].flatMap(FieldRule.timestampMs),
            let until = f[OutFields.until].flatMap(FieldRule.timestampMs),
            since <= nowMs + Self.outClockSkewMs, nowMs < until, until > since, until - since <= Self.outMaxMs
        else { return nil }
        return OutView(
            point: GeoPoint(latitude: lat, longitude: lon), place: f[OutFields.place], note: f[OutFields.note],
            exact: f[OutFields.exact] ?? false, sinceMs: since, untilMs: until, audience: f[OutFields.audience],
            readers: f[OutFields.readers] ?? [])
    }

    /// The user's live note, from the journal.
    func currentOut(journal: DocumentID, nowMs: Int64) throws -> OutView? {
        try storeCall { () throws(StoreError) in try store.entity(in: journal, id: OutFields.entityID) }
            .flatMap { outView($0, nowMs: nowMs) }
    }

    func outFields(_ view: OutView) -> [String: JSONValue] {
        [
            "latitude": .number(view.point.latitude), "longitude": .number(view.point.longitude),
            "place": view.place.map(JSONValue.string) ?? .null, "note": view.note.map(JSONValue.string) ?? .null,
            "exact": .bool(view.exact), "since": .string(RFC3339.string(ms: view.sinceMs)),
            "until": .string(RFC3339.string(ms: view.untilMs)),
        ]
    }

    func ownOutJSON(_ view: OutView, id: String) -> JSONValue {
        var o = outFields(view)
        o["id"] = .string(id)
        var audience = view.audience ?? "friends"
        if audience.hasPrefix("group:") { audience = String(audience.dropFirst(6)) }
        o["audience"] =
            audience == "people"
            ? .array(view.readers.compactMap { Engine.publicKey(hex: $0).map { .string($0.humanID) } })
            : .string(audience)
        o["readers"] = .int(Int64(view.readers.count))
        return .object(o)
    }

    /// Whether `person`'s notes are kept from this user: they are blocked (their outbox ops
    /// are dropped at ingest too; this hides what arrived before the block).
    func isBlockedForOut(_ person: PublicKey) -> Bool { isBlocked(person) }
}
