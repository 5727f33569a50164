import Foundation
import PlacesModel
import PlacesStore
import PlacesTrips

/// The trip folder's items: requests checked and turned into edits (the engine commits
/// them). Field rules come from the kinds' declarations; the cross-field rules a register
/// cannot carry (an end before its start, a zone this daemon does not know, a link to an
/// item of another itinerary) are checked here, against the values the item will have.
struct ItemService {
    let snapshot: TripSnapshot
    /// The zone of timed items that name none and whose itinerary has none.
    let localZone: String

    // MARK: Requests

    /// The edit that creates the item `body` describes.
    func create(_ body: [String: JSONValue]) throws -> (edit: Edit, id: String) {
        guard let typeValue = body["type"] else {
            throw ServiceError.invalid("type", "'type' is required: lodging, transport, food or activity")
        }
        let kind = try Self.kind(typeValue)
        var flat = try Self.flatten(body)
        flat.removeValue(forKey: "type")
        let given = Set(flat.keys)
        if kind == .transport, flat[TransportFields.mode.name] == nil {
            flat[TransportFields.mode.name] = .string("other")
        }
        if kind == .activity, flat[ActivityFields.booked.name] == nil {
            flat[ActivityFields.booked.name] = .bool(false)
        }
        let fields = try validated(flat, kind: kind, creating: true)
        var after = [String: JSONValue]()
        for (k, v) in fields { after[k] = v }
        if after["timeZone"] == nil, Self.hasTime(after["start"]) || Self.hasTime(after["end"]) {
            after["timeZone"] = .string(defaultZone)
        }
        let id = EntityLookup.newID()
        try check(after, kind: kind, id: id, given: given)
        var changes: [Change] = [.create(entity: id, kind: kind)]
        for (field, value) in after.sorted(by: { $0.key < $1.key }) where !value.isNull {
            changes.append(.set(entity: id, kind: kind, field: field, value: value, old: nil))
        }
        let key = try keyAtEndOfItems()
        changes.append(.set(entity: id, kind: kind, field: FieldSpec.position.name, value: .string(key), old: nil))
        return (Edit(doc: snapshot.doc, changes: changes, summary: "\(kind.rawValue) added"), id)
    }

    /// The edit of a PATCH, nil when nothing changes.
    func update(_ reference: String, _ body: [String: JSONValue]) throws -> Edit? {
        let record = try item(reference)
        if let type = body["type"], type != .string(record.kind.rawValue) {
            throw ServiceError.invalid(
                "type", "an item's type cannot change (this one is a \(record.kind.rawValue)); add a new item instead")
        }
        var flat = try Self.flatten(body)
        flat.removeValue(forKey: "type")
        let fields = try validated(flat, kind: record.kind, creating: false)
        let current = Views.fields(record)
        var after = current
        for (k, v) in fields { after[k] = v }
        try check(after, kind: record.kind, id: record.id, given: Set(flat.keys))
        let changes: [Change] = fields.compactMap { field, value in
            let old = current[field] ?? .null
            guard old != value else { return nil }
            return .set(entity: record.id, kind: record.kind, field: field, value: value, old: old)
        }
        guard !changes.isEmpty else { return nil }
        return Edit(doc: snapshot.doc, changes: changes, summary: "\(record.kind.rawValue) edited")
    }

    func delete(_ reference: String) throws -> Edit {
        let record = try item(reference)
        return Edit(
            doc: snapshot.doc, changes: [.tombstone(entity: record.id, kind: record.kind)],
            summary: "\(record.kind.rawValue) removed")
    }

    /// Moves an item or a place to go to `date` (keeping its time; `end` shifts by as many
    /// days) and/or to 1-based `position` among that day's items without a time.
    func move(_ reference: String, date requested: LocalDate?, position: Int?) throws -> (edit: Edit?, date: LocalDate?)
    {
        let record = try itemOrStop(reference)
        let f = Views.fields(record)
        var changes = [Change]()
        var date: LocalDate?
        if record.kind == .stop {
            date = requested ?? f[StopFields.day].flatMap { LocalDate($0) }
            if let requested, f[StopFields.day] != requested.description {
                changes.append(.set(StopFields.day, of: record.id, to: requested.description, old: f[StopFields.day]))
            }
        } else {
            let start = f["start"]?.stringValue.flatMap { LocalDateTime($0) }
            date = requested ?? start?.date
            if let requested {
                // An item with an end and no start (a deadline) gets a start on the day: not
                // after its end, which does not move.
                if start == nil, let end = f["end"]?.stringValue.flatMap({ LocalDateTime($0) }), end.date < requested {
                    throw ServiceError.invalid(
                        "date",
                        "it ends \(end), before \(requested): move it to \(end.date) or earlier, or change its end")
                }
                let shift = requested.dayNumber - (start?.date.dayNumber ?? requested.dayNumber)
                let newStart = LocalDateTime(date: requested, minuteOfDay: start?.minuteOfDay)
                if newStart != start {
                    changes.append(
                        .set(
                            entity: record.id, kind: record.kind, field: "start",
                            value: .string(newStart.description), old: f["start"] ?? .null))
                }
                if shift != 0, let end = f["end"]?.stringValue.flatMap({ LocalDateTime($0) }) {
                    let moved = LocalDateTime(date: end.date.adding(days: shift), minuteOfDay: end.minuteOfDay)
                    // Dates are years 1…9999 (op-format §5): an end pushed out of them would
                    // be an op every peer refuses, and this daemon's later ops with it.
                    guard (1...9999).contains(moved.date.year) else {
                        throw ServiceError.invalid(
                            "date",
                            "moving it to \(requested) would move its end \(end) to "
                                + (shift > 0 ? "after 9999-12-31" : "before 0001-01-01")
                                + ": change its end first")
                    }
                    changes.append(
                        .set(
                            entity: record.id, kind: record.kind, field: "end", value: .string(moved.description),
                            old: f["end"] ?? .null))
                }
            }
        }
        if let position {
            guard let date else {
                throw ServiceError.invalid("position", "give a 'date' or 'day' too: this item is not planned on a day")
            }
            let day = snapshot.schedule.days.first { $0.date == date }
            // By id, once: a day may hold thousands of items (a peer's), and a scan per item
            // would make a move quadratic.
            let timed = Dictionary(
                snapshot.trip.items.map { ($0.id, $0.start?.isTimed ?? false) }, uniquingKeysWith: { a, _ in a })
            let records = Dictionary(
                (snapshot.itemRecords + snapshot.stops).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            let neighbours = (day?.items ?? []).compactMap { id in
                id != record.id && timed[id] != true ? records[id] : nil
            }
            let key = try Self.valid(try EntityLookup.positionKey(at: position, among: neighbours), at: position)
            if key != record.position {
                changes.append(
                    .set(
                        entity: record.id, kind: record.kind, field: FieldSpec.position.name, value: .string(key),
                        old: record.position.map(JSONValue.string) ?? .null))
            }
        }
        guard !changes.isEmpty else { return (nil, date) }
        return (Edit(doc: snapshot.doc, changes: changes, summary: "\(record.kind.rawValue) moved"), date)
    }

    // MARK: Positions

    /// A key after every key of `positions` (a new item goes last). A peer may hold the last
    /// key there is (256 'z's, op-format §6.4): a key after it would be longer than a peer
    /// accepts, and an op with it would be refused with every later op of this daemon in the
    /// document. Then the new item goes just before it.
    static func keyAtEnd(of positions: [String]) throws -> String {
        var upper: String?
        for lower in Set(positions).sorted().reversed() {
            let key = FractionalIndex.between(lower, upper)
            if FractionalIndex.isValid(key) { return key }
            upper = lower
        }
        return try valid(FractionalIndex.between(nil, upper), at: nil)
    }

    /// `keyAtEnd` of the items' positions: after the last one, read without listing the items,
    /// unless no valid key follows it.
    private func keyAtEndOfItems() throws -> String {
        if let last = snapshot.lastItemPosition {
            let key = FractionalIndex.between(last, nil)
            if FractionalIndex.isValid(key) { return key }
        }
        return try Self.keyAtEnd(of: snapshot.itemRecords.compactMap(\.position))
    }

    /// `key` when a peer would accept it; a refusal naming `position` otherwise.
    static func valid(_ key: String, at position: Int?) throws -> String {
        guard FractionalIndex.isValid(key) else {
            throw ServiceError.invalid(
                "position",
                "there is no room in the order \(position.map { "at position \($0)" } ?? "at the end"): "
                    + "the neighbouring entries hold the last places there are; move one of them first")
        }
        return key
    }

    // MARK: Finding

    /// A live item (not a place to go) by id or unique prefix.
    func item(_ reference: String) throws -> Store.EntityRecord {
        if reference == TripItemViews.legacyLodgingID || reference == TripItemViews.legacyTransportID {
            guard snapshot.object(reference) != nil else {
                let field = reference == TripItemViews.legacyLodgingID ? "lodging" : "transportation"
                throw ServiceError.notFound(
                    "no item of this itinerary with id '\(reference)': the itinerary has no \(field) of its own")
            }
            throw ServiceError.conflict(
                "legacy-item",
                "'\(reference)' is the itinerary's own \(reference == TripItemViews.legacyLodgingID ? "lodging" : "transportation") field: change it with PATCH /v1/itineraries/{id}, or add a \(reference == TripItemViews.legacyLodgingID ? "lodging" : "transport") item"
            )
        }
        return try find(reference, stops: false)
    }

    /// A live item or place to go by id or unique prefix.
    func itemOrStop(_ reference: String) throws -> Store.EntityRecord {
        if reference.hasPrefix("legacy-") { return try item(reference) }
        return try find(reference, stops: true)
    }

    /// `find` among the snapshot's items (and places to go), looked up by id prefix.
    private func find(_ reference: String, stops: Bool) throws -> Store.EntityRecord {
        let ref = reference.lowercased()
        try Self.checkReference(reference, ref)
        return try Self.single(
            snapshot.records(idPrefix: ref, stops: stops), reference: reference, what: "item of this itinerary")
    }

    static func find(_ reference: String, in records: [Store.EntityRecord], what: String) throws
        -> Store.EntityRecord
    {
        let ref = reference.lowercased()
        try checkReference(reference, ref)
        return try single(records.filter { $0.id.hasPrefix(ref) }, reference: reference, what: what)
    }

    /// A reference is 4 to 32 hex digits (`ref`: lowercased).
    private static func checkReference(_ reference: String, _ ref: String) throws {
        guard ref.utf8.count >= 4, ref.utf8.count <= 32,
            ref.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else {
            throw ServiceError.invalid(
                "id", "'\(reference.prefix(64))' is not an item id: ids are hex, give at least 4 characters")
        }
    }

    /// The one record a reference matches.
    private static func single(_ matches: [Store.EntityRecord], reference: String, what: String) throws
        -> Store.EntityRecord
    {
        guard !matches.isEmpty else { throw ServiceError.notFound("no \(what) with id '\(reference)'") }
        guard matches.count == 1 else {
            throw ServiceError.invalid("id", "'\(reference)' matches \(matches.count) items: give more characters")
        }
        return matches[0]
    }

    // MARK: Rules

    static func kind(_ type: JSONValue) throws -> EntityKind {
        guard let name = type.stringValue, let kind = TripItemViews.kind(ofType: name) else {
            throw ServiceError.invalid(
                "type", "unknown item type \(type.description.prefix(40)): use lodging, transport, food or activity")
        }
        return kind
    }

    /// `location` and `to` objects flattened into `location.*` and `to.*` (null clears all
    /// four of a group; the dotted names are accepted at the top level too).
    static func flatten(_ body: [String: JSONValue]) throws -> [String: JSONValue] {
        var flat = body
        for group in TripItemViews.groups.sorted() {
            guard let value = flat.removeValue(forKey: group) else { continue }
            switch value {
            case .null:
                for k in ["name", "address", "latitude", "longitude"] { flat["\(group).\(k)"] = .null }
            case .object(let o):
                for (k, v) in o {
                    guard ["name", "address", "latitude", "longitude"].contains(k) else {
                        throw ServiceError.invalid(
                            "\(group).\(k.prefix(64))",
                            "unknown \(group) field '\(k.prefix(64))'; the fields are: name, address, latitude, longitude"
                        )
                    }
                    flat["\(group).\(k)"] = v
                }
            default:
                throw ServiceError.invalid(group, "'\(group)' must be an object {name, address, latitude, longitude}")
            }
        }
        return flat
    }

    private func validated(_ flat: [String: JSONValue], kind: EntityKind, creating: Bool) throws
        -> [(String, JSONValue)]
    {
        guard let schema = kind.schema else { throw ServiceError.internal("No schema", "\(kind) is not declared") }
        do {
            return try schema.validatedFields(flat, creating: creating)
        } catch {
            if error.message.hasPrefix("unknown field") {
                let known = schema.requestRules.keys.filter { !$0.contains(".") }.sorted()
                throw ServiceError.invalid(
                    error.field,
                    "a \(kind.rawValue) item has no field '\(error.field.prefix(64))'; its fields are: "
                        + (known + ["location", kind == .transport ? "to" : nil].compactMap { $0 }).sorted().joined(
                            separator: ", "))
            }
            throw ServiceError.invalid(error.field, error.message)
        }
    }

    /// The zone of a new timed item that names none: the itinerary's (which may be one only
    /// a peer's tz database knows: items of a trip share its zone), else this daemon's, else UTC.
    private var defaultZone: String {
        if let zone = snapshot.timeZone { return zone }
        let shaped = (try? FieldRule.timeZone.validate("timeZone", .string(localZone))) != nil
        return shaped && TripTime.isKnownZone(localZone) ? localZone : "UTC"
    }

    /// The rules across fields, on the values the item will have, for the fields the request
    /// `given` names: a value already stored (a peer's zone this daemon does not know, an end
    /// before its start from concurrent edits, a link to an item deleted since) does not block
    /// an edit of another field.
    private func check(_ after: [String: JSONValue], kind: EntityKind, id: String, given: Set<String>) throws {
        for field in ["timeZone", TransportFields.endTimeZone.name] where given.contains(field) {
            if let zone = after[field]?.stringValue, !TripTime.isKnownZone(zone) {
                throw ServiceError.invalid(
                    field,
                    "'\(field)' \(zone) is not a time zone this daemon knows: use an IANA name such as Europe/Lisbon")
            }
        }
        for group in ["location", "to"]
        where given.contains("\(group).latitude") || given.contains("\(group).longitude") {
            let lat = after["\(group).latitude"].flatMap { $0.isNull ? nil : $0 }
            let lon = after["\(group).longitude"].flatMap { $0.isNull ? nil : $0 }
            if (lat == nil) != (lon == nil) {
                let missing = lat == nil ? "latitude" : "longitude"
                throw ServiceError.invalid(
                    "\(group).\(missing)", "'\(group)' has only one coordinate: give both latitude and longitude")
            }
        }
        let times: Set<String> = ["start", "end", "timeZone", TransportFields.endTimeZone.name]
        if !given.isDisjoint(with: times), let startText = after["start"]?.stringValue,
            let endText = after["end"]?.stringValue,
            let start = LocalDateTime(startText), let end = LocalDateTime(endText)
        {
            let startZone = after["timeZone"]?.stringValue ?? snapshot.timeZone ?? localZone
            let endZone = after[TransportFields.endTimeZone.name]?.stringValue ?? startZone
            let before: Bool
            if start.isTimed, end.isTimed, let s = Self.instant(start, in: startZone),
                let e = Self.instant(end, in: endZone)
            {
                before = e < s
            } else {
                before = end.date < start.date
            }
            if before {
                let (a, b) =
                    kind == .lodging
                    ? ("check-out", "check-in") : kind == .transport ? ("arrival", "departure") : ("end", "start")
                throw ServiceError.invalid("end", "the \(a) \(endText) is before the \(b) \(startText)")
            }
        }
        if given.contains(ActivityFields.linkedItem.name),
            let linked = after[ActivityFields.linkedItem.name]?.stringValue
        {
            guard linked != id else { throw ServiceError.invalid("linkedItem", "an item cannot link to itself") }
            guard snapshot.record(linked) != nil else {
                throw ServiceError.invalid(
                    "linkedItem", "'linkedItem' \(linked) is not an item or place to go of this itinerary")
            }
        }
    }

    /// Seconds since 1970 of a local time in a zone this daemon knows, by the planning code's
    /// rule (`ZonedClock`: the day view and warnings read the same instant); nil otherwise.
    private static func instant(_ local: LocalDateTime, in zone: String) -> Int64? {
        var clock = ZonedClock()
        guard let instant = clock.instant(of: local, in: zone), instant.zoneIsKnown else { return nil }
        return instant.secondsSince1970
    }

    private static func hasTime(_ value: JSONValue?) -> Bool {
        value?.stringValue.flatMap { LocalDateTime($0) }?.isTimed ?? false
    }
}
