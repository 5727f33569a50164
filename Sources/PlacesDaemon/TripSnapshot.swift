import PlacesModel
import PlacesRoutes
import PlacesStore
import PlacesTrips

/// Everything the trip folder's views read from one itinerary: its root, its live items and
/// places to go, their API objects and the planning code's `Trip`. The engine keeps the last
/// few (`TripSnapshots`) and brings one up to date after a write by reading only the entities
/// the write's ops name (`apply`), so a write to a 1,000-item trip costs what it costs in a
/// 10-item one, and the day view of a 500-item trip parses nothing twice.
///
/// The lists (`itemRecords`, `stops`, `itemList`, `json`, `trip`) are made from the entities'
/// views on first use after a change; the write path reads the entities by id instead
/// (`record`, `object`, `records(idPrefix:)`).
final class TripSnapshot: @unchecked Sendable {
    let doc: DocumentID
    private(set) var root: Store.EntityRecord
    /// Each live item's and place to go's views, by id, with the record they were made from.
    private(set) var parsed: [String: Parsed]

    struct Parsed {
        var record: Store.EntityRecord
        var json: JSONValue
        var item: PlacesTrips.TripItem?
    }

    /// The ids of each list (the four item kinds, places to go) in the store's list order:
    /// position (none first), then id, both compared byte by byte as SQLite does.
    private var lists: [EntityKind: [ListKey]]
    /// Every live item's and place to go's id, byte-wise sorted (lookups by id prefix).
    private var sortedIDs: [String]
    /// How many item positions are not plain ASCII, where String order is not byte order.
    private var unusualPositions = 0
    /// The itinerary's own lodging and transport fields shown as items (`TripItemViews`).
    private var legacy: [(json: JSONValue, item: PlacesTrips.TripItem)]
    /// The trip's dates, zone and travel mode (no items).
    private var frame: Trip

    struct ListKey {
        var position: String?
        var id: String

        init(_ record: Store.EntityRecord) {
            position = record.position
            id = record.id
        }

        /// The store's `ORDER BY position, id`: NULL first, then bytes.
        static func precedes(_ a: ListKey, _ b: ListKey) -> Bool {
            switch (a.position, b.position) {
            case (nil, _?): return true
            case (_?, nil): return false
            case (let x?, let y?) where !x.utf8.elementsEqual(y.utf8):
                return x.utf8.lexicographicallyPrecedes(y.utf8)
            default: return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
            }
        }
    }

    /// The kinds of the lists, in section order: the four item kinds, then places to go.
    static let listKinds = EntityKind.tripItems + [.stop]

    // Made on first use after a change; a snapshot is only read inside the engine actor.
    private var cachedItemRecords: [Store.EntityRecord]?
    private var cachedStops: [Store.EntityRecord]?
    private var cachedJSON: [String: JSONValue]?
    private var cachedItemList: [JSONValue]?
    private var cachedTrip: Trip?
    private var cachedSchedule: TripSchedule?
    private var cachedWarnings: [TripWarning]?
    /// Encoded answers of `GET …/days` and `…/warnings`, by route.
    private var cachedBodies: [String: [UInt8]] = [:]
    /// Each item's encoded API object, made on first use (kept for the entities that do not
    /// change, and lent on to the next snapshot).
    private var encoded: [String: [UInt8]] = [:]

    // MARK: Reading

    /// Live items of the four item kinds, in list order per kind.
    var itemRecords: [Store.EntityRecord] {
        if let cachedItemRecords { return cachedItemRecords }
        let out = EntityKind.tripItems.flatMap(records(of:))
        cachedItemRecords = out
        return out
    }

    /// Live places to go, in list order.
    var stops: [Store.EntityRecord] {
        if let cachedStops { return cachedStops }
        let out = records(of: .stop)
        cachedStops = out
        return out
    }

    /// The API object of every item, legacy item and place to go, by id.
    var json: [String: JSONValue] {
        if let cachedJSON { return cachedJSON }
        var out = [String: JSONValue](minimumCapacity: parsed.count + legacy.count)
        for l in legacy { out[l.item.id] = l.json }
        for (id, p) in parsed { out[id] = p.json }
        cachedJSON = out
        return out
    }

    /// The API objects of the items (not places to go), legacy ones first.
    var itemList: [JSONValue] {
        if let cachedItemList { return cachedItemList }
        var out = legacy.map(\.json)
        for kind in EntityKind.tripItems {
            for key in lists[kind] ?? [] { if let p = parsed[key.id] { out.append(p.json) } }
        }
        cachedItemList = out
        return out
    }

    /// The items the planning code reads (legacy ones and places to go included).
    var trip: Trip {
        if let cachedTrip { return cachedTrip }
        var t = frame
        t.items = legacy.map(\.item)
        for kind in Self.listKinds {
            for key in lists[kind] ?? [] { if let item = parsed[key.id]?.item { t.items.append(item) } }
        }
        cachedTrip = t
        return t
    }

    /// The itinerary's time zone (no item is read).
    var timeZone: String? { frame.timeZone }

    private func records(of kind: EntityKind) -> [Store.EntityRecord] {
        (lists[kind] ?? []).compactMap { parsed[$0.id]?.record }
    }

    /// The API object of an item, legacy item or place to go.
    func object(_ id: String) -> JSONValue? {
        if let p = parsed[id] { return p.json }
        return legacy.first { $0.item.id == id }?.json
    }

    /// A live item or place to go by id.
    func record(_ id: String) -> Store.EntityRecord? { parsed[id]?.record }

    /// The item (not a place to go) with id `id`, if live.
    func itemRecord(_ id: String) -> Store.EntityRecord? {
        guard let record = parsed[id]?.record, record.kind != .stop else { return nil }
        return record
    }

    /// Live items (and places to go, with `stops`) whose id starts with `prefix` (a short
    /// lowercase hex reference), in id order.
    func records(idPrefix prefix: String, stops: Bool) -> [Store.EntityRecord] {
        var i = Self.lowerBound(sortedIDs, prefix) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var out = [Store.EntityRecord]()
        while i < sortedIDs.count, sortedIDs[i].utf8.starts(with: prefix.utf8) {
            // Byte prefixes are a superset of `hasPrefix`'s matches (an ASCII reference).
            if sortedIDs[i].hasPrefix(prefix), let record = parsed[sortedIDs[i]]?.record,
                stops || record.kind != .stop
            {
                out.append(record)
            }
            i += 1
        }
        return out
    }

    /// The last item position (not places to go'), in String order: the last of each kind's
    /// list, unless a position is not plain ASCII (then all are read).
    var lastItemPosition: String? {
        guard unusualPositions == 0 else { return itemRecords.compactMap(\.position).max() }
        return EntityKind.tripItems.compactMap { lists[$0]?.last?.position }.max()
    }

    /// The encoded API object of an item, legacy item or place to go.
    func encodedItem(_ id: String) -> [UInt8]? {
        if let bytes = encoded[id] { return bytes }
        guard let object = object(id) else { return nil }
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

    /// The encoded answer of a read route, made once per change of the trip. `make` reads
    /// the items and the trip's dates only: a change of the root's other fields (its name, its
    /// notes) keeps the answer.
    func body(_ route: String, _ make: (TripSnapshot) -> JSONValue) -> [UInt8] {
        if let cached = cachedBodies[route] { return cached }
        var out = [UInt8]()
        make(self).write(to: &out)
        cachedBodies[route] = out
        return out
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

    // MARK: Making

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
    /// `--dry-run` shows it through the same views as the published trip). `records` and
    /// `stops` are live and in the store's list order.
    init(
        doc: DocumentID, root: Store.EntityRecord, items records: [Store.EntityRecord], stops: [Store.EntityRecord],
        previous: TripSnapshot? = nil
    ) {
        self.doc = doc
        self.root = root
        let views = Self.rootViews(root)
        legacy = views.legacy
        frame = views.frame
        var parsed = [String: Parsed](minimumCapacity: records.count + stops.count)
        var lists = [EntityKind: [ListKey]]()
        var unusual = 0
        for record in records + stops {
            let old = previous?.parsed[record.id]
            parsed[record.id] = old?.record == record ? old : Self.views(record)
            lists[record.kind, default: []].append(ListKey(record))
            if record.kind != .stop, let position = record.position, !Self.isPlain(position) { unusual += 1 }
        }
        self.parsed = parsed
        self.lists = lists
        self.unusualPositions = unusual
        self.sortedIDs = parsed.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        if let previous {
            for (id, p) in parsed where previous.parsed[id]?.record == p.record {
                if let bytes = previous.encoded[id] { encoded[id] = bytes }
            }
        }
    }

    /// A copy to change while this one is still read elsewhere (its storage is shared until
    /// then).
    private init(copying other: TripSnapshot) {
        doc = other.doc
        root = other.root
        parsed = other.parsed
        lists = other.lists
        sortedIDs = other.sortedIDs
        unusualPositions = other.unusualPositions
        legacy = other.legacy
        frame = other.frame
        cachedItemRecords = other.cachedItemRecords
        cachedStops = other.cachedStops
        cachedJSON = other.cachedJSON
        cachedItemList = other.cachedItemList
        cachedTrip = other.cachedTrip
        cachedSchedule = other.cachedSchedule
        cachedWarnings = other.cachedWarnings
        cachedBodies = other.cachedBodies
        encoded = other.encoded
    }

    func copy() -> TripSnapshot { TripSnapshot(copying: self) }

    // MARK: Changing

    /// Brings the snapshot up to date with `records`, the current state (live or deleted) of
    /// every entity of `doc` a write touched: O(records), whatever the trip's size. False when
    /// the itinerary itself is gone.
    func apply(_ records: [Store.EntityRecord]) -> Bool {
        var itemsChanged = false
        for record in records where record.doc == doc {
            if record.id == doc.hex {
                guard !record.deleted else { return false }
                guard record != root else { continue }
                root = record
                let (legacy, frame) = Self.rootViews(record)
                if frame != self.frame
                    || !legacy.elementsEqual(self.legacy, by: { $0.json == $1.json && $0.item == $1.item })
                {
                    self.legacy = legacy
                    self.frame = frame
                    for id in [TripItemViews.legacyLodgingID, TripItemViews.legacyTransportID] { encoded[id] = nil }
                    itemsChanged = true
                }
                continue
            }
            let old = parsed[record.id]
            if let old, old.record == record { continue }
            let listed = !record.deleted && Self.listKinds.contains(record.kind)
            guard old != nil || listed else { continue }
            if let old { remove(old.record) }
            if listed { insert(record) }
            itemsChanged = true
        }
        // A change of the root's other fields (its name, its notes) keeps the lists and answers.
        if itemsChanged {
            cachedItemRecords = nil
            cachedStops = nil
            cachedJSON = nil
            cachedItemList = nil
            cachedTrip = nil
            cachedSchedule = nil
            cachedWarnings = nil
            cachedBodies = [:]
        }
        return true
    }

    private func remove(_ record: Store.EntityRecord) {
        parsed[record.id] = nil
        encoded[record.id] = nil
        let key = ListKey(record)
        if var list = lists.removeValue(forKey: record.kind) {
            let i = Self.lowerBound(list, key, by: ListKey.precedes)
            if i < list.count, list[i].id.utf8.elementsEqual(record.id.utf8) { list.remove(at: i) }
            lists[record.kind] = list
        }
        let j = Self.lowerBound(sortedIDs, record.id) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        if j < sortedIDs.count, sortedIDs[j].utf8.elementsEqual(record.id.utf8) { sortedIDs.remove(at: j) }
        if record.kind != .stop, let position = record.position, !Self.isPlain(position) { unusualPositions -= 1 }
    }

    private func insert(_ record: Store.EntityRecord) {
        parsed[record.id] = Self.views(record)
        let key = ListKey(record)
        // Taken out of the dictionary while it changes, so that the list is not copied.
        var list = lists.removeValue(forKey: record.kind) ?? []
        list.insert(key, at: Self.lowerBound(list, key, by: ListKey.precedes))
        lists[record.kind] = list
        let j = Self.lowerBound(sortedIDs, record.id) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        sortedIDs.insert(record.id, at: j)
        if record.kind != .stop, let position = record.position, !Self.isPlain(position) { unusualPositions += 1 }
    }

    // MARK: Views

    private static func views(_ record: Store.EntityRecord) -> Parsed {
        let fields = Views.fields(record)
        return record.kind == .stop
            ? Parsed(
                record: record, json: TripItemViews.stopJSON(record, fields: fields),
                item: TripItemViews.tripItem(stop: record, fields: fields))
            : Parsed(
                record: record, json: TripItemViews.json(record, fields: fields),
                item: TripItemViews.tripItem(record, fields: fields))
    }

    private static func rootViews(_ root: Store.EntityRecord) -> (
        legacy: [(json: JSONValue, item: PlacesTrips.TripItem)], frame: Trip
    ) {
        let f = Views.fields(root)
        let frame = Trip(
            startDate: f[ItineraryFields.startDate].flatMap { LocalDate($0) },
            endDate: f[ItineraryFields.endDate].flatMap { LocalDate($0) }, timeZone: f[ItineraryFields.timeZone],
            travelMode: f[ItineraryFields.travelMode].flatMap { TravelMode(rawValue: $0) } ?? .walking, items: [])
        return (TripItemViews.legacyItems(root: root), frame)
    }

    /// Whether String order and byte order agree for `position` (ASCII, as valid keys are).
    private static func isPlain(_ position: String) -> Bool { position.utf8.allSatisfy { $0 < 0x80 } }

    /// The first index of `sorted` whose element does not precede `key`.
    private static func lowerBound<T>(_ sorted: [T], _ key: T, by precedes: (T, T) -> Bool) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let mid = low + (high - low) / 2
            if precedes(sorted[mid], key) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
