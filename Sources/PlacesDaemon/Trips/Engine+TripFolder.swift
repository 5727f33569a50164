import Foundation
import PlacesAPI
import PlacesControl
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesTrips

/// Trip folder routes: items, days, warnings, the calendar and the checklist. The services
/// (`ItemService`, `ChecklistService`) read and decide; the engine commits. Reads come from
/// the itinerary's `TripSnapshot`, kept while the store does not change.
extension Engine {
    /// What trips' snapshots read of the rest of the daemon (`TripComponent`).
    var tripContext: TripComponent.Context {
        TripComponent.Context(store: store, keyring: account.keyring, expenseNames: { self.expenseNames($0) })
    }

    /// The snapshot of an itinerary the caller can see (any role).
    func tripSnapshot(_ doc: Store.DocumentRecord) throws -> TripSnapshot {
        try trips.tripSnapshot(doc, tripContext)
    }

    /// How many trip folder reads applied ops one by one, and how many read anew (`TripSnapshots`).
    var tripReads: (appliedInPlace: Int, readAnew: Int) { trips.tripReads }

    /// How many itinerary answers reused their kept places, and how many wrote them anew
    /// (`ItineraryPlaces`).
    var placesReads: (reused: Int, readAnew: Int) { trips.placesReads }

    private func itemService(_ reference: String, editing: Bool) throws -> (Store.DocumentRecord, ItemService) {
        let itineraries = try itineraryService()
        let doc = try itineraries.document(reference)
        if editing { try itineraries.requireEditor(doc) }
        return (doc, ItemService(snapshot: try tripSnapshot(doc), localZone: TimeZone.current.identifier))
    }

    // MARK: Items

    /// `GET …/items`: legacy items first, then each kind in section order, by start.
    func items(_ reference: String, type: String?) throws -> JSONValue {
        let (_, service) = try itemService(reference, editing: false)
        if let type, TripItemViews.kind(ofType: type) == nil {
            throw ServiceError.invalid(
                "type", "unknown item type '\(type.prefix(40))': use lodging, transport, food or activity")
        }
        return Self.itemsJSON(service.snapshot, type: type)
    }

    /// The answer of `GET …/items` from a snapshot.
    static func itemsJSON(_ snapshot: TripSnapshot, type: String?) -> JSONValue {
        let byID = Dictionary(snapshot.trip.items.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let list = snapshot.itemList.filter { json in
            guard let type else { return true }
            return json.objectValue?["type"]?.stringValue == type
        }.sorted { a, b in
            let ia = a.objectValue?["id"]?.stringValue.flatMap { byID[$0] }
            let ib = b.objectValue?["id"]?.stringValue.flatMap { byID[$0] }
            return itemOrder(ia, ib)
        }
        return .object(["items": .array(list), "count": .int(Int64(list.count))])
    }

    /// By start (undated last), then position, then id.
    static func itemOrder(_ a: PlacesTrips.TripItem?, _ b: PlacesTrips.TripItem?) -> Bool {
        switch (a?.start, b?.start) {
        case (let x?, let y?) where x != y: return x < y
        case (nil, _?): return false
        case (_?, nil): return true
        default: return (a?.position ?? "~", a?.id ?? "") < (b?.position ?? "~", b?.id ?? "")
        }
    }

    func item(_ reference: String, item itemReference: String) throws -> JSONValue {
        let (_, service) = try itemService(reference, editing: false)
        if itemReference.hasPrefix("legacy-"), let legacy = service.snapshot.object(itemReference) { return legacy }
        let record = try service.itemOrStop(itemReference)
        return service.snapshot.object(record.id) ?? .null
    }

    func createItem(_ reference: String, _ body: [String: JSONValue]) throws -> JSONValue {
        let (doc, service) = try itemService(reference, editing: true)
        let (edit, id) = try service.create(body)
        try commit(edit)
        return try writtenItem(doc, id)
    }

    func updateItem(_ reference: String, item itemReference: String, _ body: [String: JSONValue]) throws -> JSONValue {
        let (doc, service) = try itemService(reference, editing: true)
        let record = try service.item(itemReference)
        guard let edit = try service.update(record.id, body) else { return service.snapshot.object(record.id) ?? .null }
        try commit(edit)
        return try writtenItem(doc, record.id)
    }

    /// A written item's API object, read alone (the trip folder's snapshot takes the write
    /// at its next read): what the snapshot would show for it.
    private func writtenItem(_ doc: Store.DocumentRecord, _ id: String) throws -> JSONValue {
        guard let record = try storeCall({ () throws(StoreError) in try store.entity(in: doc.id, id: id) }),
            !record.deleted, EntityKind.tripItems.contains(record.kind)
        else { return .null }
        return TripItemViews.json(record)
    }

    func deleteItem(_ reference: String, item itemReference: String) throws {
        let (_, service) = try itemService(reference, editing: true)
        try commit(try service.delete(itemReference))
    }

    /// `POST …/items/{itemId}/move`: the day the item is on afterwards.
    func moveItem(_ reference: String, item itemReference: String, _ body: [String: JSONValue]) throws -> JSONValue {
        let (doc, service) = try itemService(reference, editing: true)
        for key in body.keys where !["date", "day", "position"].contains(key) {
            throw ServiceError.invalid(key, "unknown field '\(key.prefix(64))'; the fields are: date, day, position")
        }
        var date: LocalDate?
        if let value = body["date"], !value.isNull {
            guard let text = value.stringValue, let d = LocalDate(text) else {
                throw ServiceError.invalid("date", "'date' must be a date written YYYY-MM-DD")
            }
            date = d
        }
        if let value = body["day"], !value.isNull {
            guard date == nil else { throw ServiceError.invalid("day", "give 'date' or 'day', not both") }
            date = try Self.dayDate(value, schedule: service.snapshot.schedule, field: "day")
        }
        var position: Int?
        if let value = body["position"], !value.isNull {
            guard let p = value.intValue, let int = Int(exactly: p) else {
                throw ServiceError.invalid("position", "'position' must be a whole number from 1")
            }
            position = int
        }
        guard date != nil || position != nil else {
            throw ServiceError.invalid("date", "say where to move it: 'date' (or 'day') and/or 'position'")
        }
        let (edit, movedTo): (Edit?, LocalDate?)
        do {
            (edit, movedTo) = try service.move(itemReference, date: date, position: position)
        } catch let error as ServiceError where error.field == "date" && body["day"] != nil {
            // The day was turned into its date above: name the field the request gave.
            throw ServiceError.invalid("day", error.message)
        }
        if let edit { try commit(edit) }
        let after = try tripSnapshot(doc)
        guard let movedTo else { throw ServiceError.invalid("date", "say which day to move it to") }
        guard let day = after.schedule.day(on: movedTo) else {
            // A day the view does not show (it shows at most 366 days; a peer's far-off dates
            // can put this one outside): the date and the item alone, without a number.
            let item = try service.itemOrStop(itemReference).id
            return .object([
                "date": .string(movedTo.description), "items": .array([after.object(item)].compactMap { $0 }),
            ])
        }
        return Self.dayJSON(day, snapshot: after)
    }

    /// A day given as a 1-based number of the trip or as a date.
    static func dayDate(_ value: JSONValue, schedule: TripSchedule, field: String) throws -> LocalDate {
        if let n = value.intValue {
            guard n >= 1, n <= Int64(schedule.days.count) else {
                throw ServiceError.invalid(
                    field,
                    schedule.days.isEmpty
                        ? "the trip has no days yet: give it dates, or give a date"
                        : "day \(n) is out of range: the trip has days 1 to \(schedule.days.count)")
            }
            // 1 ≤ n ≤ days.count was checked above, so the index is in range.
            return schedule.days[Int(n - 1)].date
        }
        if let text = value.stringValue {
            if let d = LocalDate(text) { return d }
            if let n = Int64(text) { return try dayDate(.int(n), schedule: schedule, field: field) }
        }
        throw ServiceError.invalid(field, "'\(field)' must be a day number from 1 or a date written YYYY-MM-DD")
    }

    // MARK: Days and warnings

    /// `GET …/days`, encoded once per change of the store (and anew while a day has a
    /// forecast: `Engine+TripWeather`).
    func days(_ reference: String) throws -> [UInt8] {
        let snapshot = try tripSnapshot(try itineraryDoc(reference))
        return snapshot.daysBody(weather: tripDayWeather(snapshot))
    }

    func day(_ reference: String, day dayReference: String) throws -> JSONValue {
        let snapshot = try tripSnapshot(try itineraryDoc(reference))
        let date = try Self.dayDate(.string(dayReference), schedule: snapshot.schedule, field: "day")
        guard let day = snapshot.schedule.days.first(where: { $0.date == date }) else {
            throw ServiceError.notFound("\(date) is not a day of this trip")
        }
        guard case .object(var o) = Self.dayJSON(day, snapshot: snapshot) else { return .null }
        o["weather"] = tripDayWeather(snapshot)[date.description] ?? .null
        return .object(o)
    }

    static func dayJSON(_ day: PlacesTrips.TripDay, snapshot: TripSnapshot) -> JSONValue {
        var o: [String: JSONValue] = [
            "date": .string(day.date.description), "number": .int(Int64(day.number)),
            "items": .array(day.items.compactMap { snapshot.object($0) }),
        ]
        if let lodging = day.lodging, let json = snapshot.object(lodging) { o["lodging"] = json }
        return .object(o)
    }

    /// `GET …/warnings`, encoded once per change of the store.
    func warnings(_ reference: String) throws -> [UInt8] {
        try tripSnapshot(try itineraryDoc(reference)).body("warnings", Self.warningsJSON)
    }

    /// The answer of `GET …/warnings` from a snapshot.
    static func warningsJSON(_ snapshot: TripSnapshot) -> JSONValue {
        .object([
            "warnings": .array(
                snapshot.warnings.map { w in
                    .object([
                        "code": .string(w.code), "items": .array(w.items.map(JSONValue.string)),
                        "message": .string(w.message),
                    ])
                })
        ])
    }

    // MARK: Checklist

    private func checklistService(_ reference: String, editing: Bool) throws -> ChecklistService {
        let itineraries = try itineraryService()
        let doc = try itineraries.document(reference)
        if editing { try itineraries.requireEditor(doc) }
        return ChecklistService(store: store, doc: doc)
    }

    func checklist(_ reference: String) throws -> JSONValue {
        let service = try checklistService(reference, editing: false)
        let names = try memberNames(service.doc)
        let items = try service.lines().enumerated().map { index, line in
            ChecklistService.json(line, position: index + 1) { names[$0] }
        }
        return .object(["items": .array(items), "count": .int(Int64(items.count))])
    }

    /// The owner's and every member's display name, read once per answer: a checklist line
    /// names its assignee only when they are one of them (a peer's op may assign anyone).
    func memberNames(_ doc: Store.DocumentRecord) throws -> [PublicKey: String] {
        var names = [PublicKey: String]()
        if let owner = try? PublicKey(bytes: doc.owner) { names[owner] = displayName(of: owner) }
        for member in try ServiceError.storing({ () throws(StoreError) in try store.members(of: doc.id) }) {
            if let key = Engine.publicKey(hex: member.key) { names[key] = displayName(of: key) }
        }
        return names
    }

    private func checklistLine(_ service: ChecklistService, id: String) throws -> JSONValue {
        let lines = try service.lines()
        guard let index = lines.firstIndex(where: { $0.id == id }) else { return .null }
        let names = try memberNames(service.doc)
        return ChecklistService.json(lines[index], position: index + 1) { names[$0] }
    }

    func addChecklistItem(_ reference: String, _ body: [String: JSONValue]) throws -> JSONValue {
        let service = try checklistService(reference, editing: true)
        let (edit, id) = try service.add(body)
        try commit(edit)
        return try checklistLine(service, id: id)
    }

    func updateChecklistItem(_ reference: String, item: String, _ body: [String: JSONValue]) throws -> JSONValue {
        let service = try checklistService(reference, editing: true)
        let record = try service.line(item)
        if let edit = try service.update(record.id, body) { try commit(edit) }
        return try checklistLine(service, id: record.id)
    }

    func removeChecklistItem(_ reference: String, item: String) throws {
        let service = try checklistService(reference, editing: true)
        try commit(try service.remove(item))
    }

    func moveChecklistItem(_ reference: String, item: String, to position: Int) throws -> JSONValue {
        let service = try checklistService(reference, editing: true)
        let record = try service.line(item)
        if let edit = try service.move(record.id, to: position) { try commit(edit) }
        return try checklist(reference)
    }
}

extension Engine {
    /// `GET …/calendar`: the trip as an RFC 5545 calendar.
    func calendar(_ reference: String) throws -> ControlResponse {
        let doc = try itineraryDoc(reference)
        let snapshot = try tripSnapshot(doc)
        let name = Views.fields(snapshot.root)[ItineraryFields.name] ?? "Trip"
        let text = TripCalendar.ics(
            name: name, itineraryID: doc.id.hex, trip: snapshot.trip, stampMilliseconds: RFC3339.nowMs())
        return .raw(status: 200, contentType: TripCalendar.mediaType, body: Array(text.utf8))
    }
}
