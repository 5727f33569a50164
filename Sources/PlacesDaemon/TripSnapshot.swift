import PlacesModel
import PlacesRoutes
import PlacesStore
import PlacesTrips

/// Everything the trip folder's views read from one itinerary, loaded in one go: its root,
/// its live items and places to go, their API objects and the planning code's `Trip`. The
/// engine keeps the last few, each valid while the store's commit generation has not moved
/// (`SnapshotCache`), so the day view and the warnings of a 500-item trip parse nothing
/// twice.
final class TripSnapshot: @unchecked Sendable {
    let doc: DocumentID
    let root: Store.EntityRecord
    /// Live items of the four item kinds, in list order per kind.
    let itemRecords: [Store.EntityRecord]
    /// Live places to go, in list order.
    let stops: [Store.EntityRecord]
    /// The API object of every item, legacy item and place to go, by id.
    let json: [String: JSONValue]
    /// The items the planning code reads (legacy ones and places to go included).
    let trip: Trip
    /// The API objects of the items (not places to go), legacy ones first.
    let itemList: [JSONValue]
    /// Each entity's views, by id, with the record they were made from: a snapshot made
    /// after a change reuses those of the entities that did not change.
    let parsed: [String: Parsed]

    struct Parsed {
        var record: Store.EntityRecord
        var json: JSONValue
        var item: PlacesTrips.TripItem?
    }

    // Computed on first use; a snapshot is only read inside the engine actor.
    private var cachedSchedule: TripSchedule?
    private var cachedWarnings: [TripWarning]?
    /// Encoded answers of `GET …/days` and `…/warnings`, by route.
    private var cachedBodies: [String: [UInt8]] = [:]
    /// Each item's encoded API object, made on first use (and lent on to the next snapshot
    /// for the entities that do not change).
    private var encoded: [String: [UInt8]] = [:]

    /// The encoded API object of an item, legacy item or place to go.
    func encodedItem(_ id: String) -> [UInt8]? {
        if let bytes = encoded[id] { return bytes }
        guard let object = json[id] else { return nil }
        var out = [UInt8]()
        object.write(to: &out)
        encoded[id] = out
        return out
    }

    /// `GET …/days`: `{"days": [TripDay], "unscheduled": [TripItem]}`, keys sorted as every
    /// answer's, written from the items' encoded objects. With `weather` (the forecasts by
    /// date, `Engine.tripDayWeather`), each day has `weather`: its forecast or null; the
    /// answer is kept only when there is none (a forecast changes without the store).
    func daysBody(weather: [String: JSONValue]? = nil) -> [UInt8] {
        let cacheKey = weather == nil ? "days" : "days+weather"
        if weather?.isEmpty ?? true, let cached = cachedBodies[cacheKey] { return cached }
        var out = Array(#"{"days":["#.utf8)
        out.reserveCapacity(256 * trip.items.count)
        for (i, day) in schedule.days.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out += Array(#"{"date":""#.utf8) + Array(day.date.description.utf8) + Array(#"","items":["#.utf8)
            appendItems(day.items, to: &out)
            out.append(UInt8(ascii: "]"))
            if let lodging = day.lodging, let bytes = encodedItem(lodging) {
                out += Array(#","lodging":"#.utf8) + bytes
            }
            out += Array(#","number":"#.utf8) + Array(String(day.number).utf8)
            if let weather {
                out += Array(#","weather":"#.utf8)
                (weather[day.date.description] ?? .null).write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        out += Array(#"],"unscheduled":["#.utf8)
        appendItems(schedule.unscheduled, to: &out)
        out += Array("]}".utf8)
        if weather?.isEmpty ?? true { cachedBodies[cacheKey] = out }
        return out
    }

    private func appendItems(_ ids: [String], to out: inout [UInt8]) {
        var first = true
        for id in ids {
            guard let bytes = encodedItem(id) else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out += bytes
        }
    }

    /// The encoded answer of a read route, made once per snapshot.
    func body(_ route: String, _ make: (TripSnapshot) -> JSONValue) -> [UInt8] {
        if let cached = cachedBodies[route] { return cached }
        var out = [UInt8]()
        make(self).write(to: &out)
        cachedBodies[route] = out
        return out
    }

    /// Reads `doc`; `previous` (an older snapshot of it) lends the views of every entity
    /// whose record is unchanged.
    convenience init(doc: DocumentID, store: Store, previous: TripSnapshot? = nil) throws(ServiceError) {
        guard
            let root = try ServiceError.storing({ () throws(StoreError) in try store.entity(in: doc, id: doc.hex) }),
            !root.deleted
        else { throw ServiceError.notFound("no itinerary with id '\(doc.hex)'") }
        var records = [Store.EntityRecord]()
        for kind in EntityKind.tripItems {
            records += try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc, kind: kind) }
        }
        let stops = try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc, kind: .stop) }
        self.init(doc: doc, root: root, items: records, stops: stops, previous: previous)
    }

    /// A snapshot of records read elsewhere (a publication's copy before it is written:
    /// `--dry-run` shows it through the same views as the published trip).
    init(
        doc: DocumentID, root: Store.EntityRecord, items records: [Store.EntityRecord], stops: [Store.EntityRecord],
        previous: TripSnapshot? = nil
    ) {
        self.doc = doc
        self.root = root
        self.itemRecords = records
        self.stops = stops
        var json = [String: JSONValue]()
        var items = [PlacesTrips.TripItem]()
        var list = [JSONValue]()
        for legacy in TripItemViews.legacyItems(root: root) {
            json[legacy.item.id] = legacy.json
            items.append(legacy.item)
            list.append(legacy.json)
        }
        var parsed = [String: Parsed](minimumCapacity: records.count + stops.count)
        func views(_ record: Store.EntityRecord, stop: Bool) -> Parsed {
            if let old = previous?.parsed[record.id], old.record == record { return old }
            let fields = Views.fields(record)
            return stop
                ? Parsed(
                    record: record, json: TripItemViews.stopJSON(record, fields: fields),
                    item: TripItemViews.tripItem(stop: record, fields: fields))
                : Parsed(
                    record: record, json: TripItemViews.json(record, fields: fields),
                    item: TripItemViews.tripItem(record, fields: fields))
        }
        for record in records {
            let p = views(record, stop: false)
            parsed[record.id] = p
            json[record.id] = p.json
            list.append(p.json)
            if let item = p.item { items.append(item) }
        }
        for stop in stops {
            let p = views(stop, stop: true)
            parsed[stop.id] = p
            json[stop.id] = p.json
            if let item = p.item { items.append(item) }
        }
        self.parsed = parsed
        if let previous {
            for (id, p) in parsed where previous.parsed[id]?.record == p.record {
                if let bytes = previous.encoded[id] { encoded[id] = bytes }
            }
        }
        self.json = json
        self.itemList = list
        let f = Views.fields(root)
        self.trip = Trip(
            startDate: f[ItineraryFields.startDate].flatMap { LocalDate($0) },
            endDate: f[ItineraryFields.endDate].flatMap { LocalDate($0) }, timeZone: f[ItineraryFields.timeZone],
            travelMode: f[ItineraryFields.travelMode].flatMap { TravelMode(rawValue: $0) } ?? .walking, items: items)
    }

    /// The day-by-day plan.
    var schedule: TripSchedule {
        if let cachedSchedule { return cachedSchedule }
        let s = TripDays.plan(trip)
        cachedSchedule = s
        return s
    }

    /// The trip's problems.
    var warnings: [TripWarning] {
        if let cachedWarnings { return cachedWarnings }
        let w = TripWarnings.check(trip)
        cachedWarnings = w
        return w
    }

    /// The item (not a place to go) with id `id`, if live.
    func itemRecord(_ id: String) -> Store.EntityRecord? { itemRecords.first { $0.id == id } }
}
