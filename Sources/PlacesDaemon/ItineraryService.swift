import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesTrips

/// Itineraries and their places to go: finding an itinerary by id or prefix, the caller's
/// role in it, its view, and requests turned into edits for the engine to commit (route
/// apply included). Holds no state of its own.
struct ItineraryService {
    let store: Store
    /// The logged-in identity.
    let me: PublicKey
    let lookup: EntityLookup

    // MARK: Finding and reading

    /// The caller's role in an itinerary (`owner`, `editor`, `viewer`, `left`, `removed`,
    /// `none`).
    func role(in doc: Store.DocumentRecord) -> String {
        (try? store.currentRole(of: me, in: doc.id)) ?? "none"
    }

    /// Refuses edits by viewers (and by anyone not a member any more).
    func requireEditor(_ doc: Store.DocumentRecord) throws {
        guard doc.kind == .itinerary else {
            throw ServiceError(
                .readOnly, "a published trip is read-only: make your own with `places itinerary create --from`")
        }
        let role = try ServiceError.storing { () throws(StoreError) in try store.currentRole(of: me, in: doc.id) }
        guard role == "owner" || role == "editor" else {
            throw ServiceError(
                .readOnly,
                "you are a \(role ?? "former member") of this itinerary: only its owner and editors can change it")
        }
    }

    /// Resolves an itinerary id or unique prefix to its (live) document.
    func document(_ reference: String) throws -> Store.DocumentRecord {
        let ref = reference.lowercased()
        guard ref.utf8.count >= 4 else {
            throw ServiceError.invalid("id", "'\(reference)' is not an itinerary id: give at least 4 hex characters")
        }
        // The explore routes read a published trip through the itinerary views (they checked
        // it may be seen and pass its whole id).
        // A whole id (32 hex characters) is looked up, not searched for among every itinerary.
        let id = DocumentID(hex: ref)
        var whole: Store.DocumentRecord?
        if let id { whole = try ServiceError.storing { () throws(StoreError) in try store.document(id) } }
        if TripReading.published {
            guard let whole, whole.kind == .published else {
                throw ServiceError.notFound("no published trip with id '\(reference)'")
            }
            return whole
        }
        let docs =
            id != nil
            ? [whole].compactMap { $0 }.filter { $0.kind == .itinerary }
            : try ServiceError.storing { () throws(StoreError) in try store.documents(kind: .itinerary) }.filter {
                $0.id.hex.hasPrefix(ref)
            }
        // Live itineraries this identity owns or is a member of (left or removed ones stay
        // on disk, out of sight).
        let live = docs.filter {
            (try? store.entity(in: $0.id, id: $0.id.hex))?.deleted == false
                && ($0.owner == me.bytes || Store.activeRoles.contains(role(in: $0)))
        }
        guard !live.isEmpty else { throw ServiceError.notFound("no itinerary with id '\(reference)'") }
        guard live.count == 1 else {
            throw ServiceError.invalid("id", "'\(reference)' matches \(live.count) itineraries: give more characters")
        }
        return live[0]
    }

    func itinerary(_ reference: String) throws -> Itinerary { try itinerary(try document(reference)) }

    /// The itinerary `doc`; without its places to go (`places` empty) when `places` is false,
    /// for an answer that writes them from `ItineraryPlaces`.
    func itinerary(_ doc: Store.DocumentRecord, places: Bool = true) throws -> Itinerary {
        guard
            let root = try ServiceError.storing({ () throws(StoreError) in
                try store.entity(in: doc.id, id: doc.id.hex)
            })
        else {
            throw ServiceError.notFound("no itinerary with id '\(doc.id.hex)'")
        }
        let stops =
            places
            ? try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc.id, kind: .stop) } : []
        var items = [Store.EntityRecord]()
        for kind in EntityKind.tripItems {
            items += try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc.id, kind: kind) }
        }
        return Views.itinerary(root: root, stops: stops, items: items, owner: doc.owner, role: role(in: doc))
    }

    func list(scope: String?) throws -> ItineraryList {
        let scope = scope ?? "all"
        guard ["mine", "shared", "all"].contains(scope) else {
            throw ServiceError.invalid("scope", "scope must be mine, shared or all")
        }
        var out = [ItinerarySummary]()
        for doc in try ServiceError.storing({ () throws(StoreError) in try store.documents(kind: .itinerary) }) {
            let mine = doc.owner == me.bytes
            guard scope == "all" || (scope == "mine") == mine else { continue }
            guard let it = try? itinerary(doc.id.hex) else { continue }
            out.append(
                ItinerarySummary(
                    id: it.id, name: it.name, startDate: it.startDate, endDate: it.endDate, placeCount: it.places.count,
                    totalCost: it.totalCost, owner: it.owner, role: it.role))
        }
        out.sort {
            ($0.startDate ?? "9999", $0.name.lowercased(), $0.id) < (
                $1.startDate ?? "9999", $1.name.lowercased(), $1.id
            )
        }
        return ItineraryList(itineraries: out, count: out.count)
    }

    // MARK: Edits

    /// A new itinerary's validated fields and places to go (checked before the document
    /// is created).
    func creation(_ body: [String: JSONValue], library: DocumentID) throws -> (
        fields: [(String, JSONValue)], places: [Store.EntityRecord]
    ) {
        var object = body
        let placeRefs = try placeReferences(object.removeValue(forKey: "places"))
        let fields = try itineraryFields(object, creating: true, current: [:])
        let places = try placeRefs.map { ref throws in
            try lookup.resolve(ref, in: library, kind: .place, what: "place")
        }
        return (fields, places)
    }

    /// The first op of a new itinerary `id`.
    func created(_ id: DocumentID, fields: [(String, JSONValue)], places: [Store.EntityRecord]) -> Edit {
        var changes: [Change] = [.create(entity: id.hex, kind: .itinerary)]
        for (field, value) in fields where !value.isNull {
            changes.append(.set(entity: id.hex, kind: .itinerary, field: field, value: value, old: nil))
        }
        for (place, key) in zip(places, FractionalIndex.spread(places.count)) {
            changes += stopChanges(for: place, position: key)
        }
        return Edit(
            doc: id, changes: changes,
            summary: "itinerary \(fields.first { $0.0 == "name" }?.1.description ?? "") created")
    }

    /// The fields that change, nil when none does.
    func update(_ doc: Store.DocumentRecord, reference: String, _ body: [String: JSONValue]) throws -> Edit? {
        try requireEditor(doc)
        guard
            let root = try ServiceError.storing({ () throws(StoreError) in
                try store.entity(in: doc.id, id: doc.id.hex)
            })
        else {
            throw ServiceError.notFound("no itinerary with id '\(reference)'")
        }
        guard body["places"] == nil else {
            throw ServiceError.invalid("places", "change places to go with the /places routes (add, remove, move)")
        }
        let current = Views.fields(root)
        var fields = try itineraryFields(body, creating: false, current: current)
        let currencyKey = ItineraryFields.settlementCurrency.name, ratesKey = ItineraryFields.rates.name
        if let new = fields.first(where: { $0.0 == currencyKey })?.1, new != current[currencyKey] ?? .null {
            try checkSettlementChange(doc, to: new)
            // The table's rates were to the old currency: it goes unless the request gives a new one.
            if body[ratesKey] == nil { fields.append((ratesKey, .null)) }
        }
        var after = current
        for (k, v) in fields { after[k] = v }
        if let table = after[ratesKey]?.objectValue, !table.isEmpty {
            guard let settlement = after[currencyKey]?.stringValue else {
                throw ServiceError.invalid(ratesKey, "set the trip's settlementCurrency first: the rates are to it")
            }
            _ = try ExpenseService.checkedRates(table, settlement: settlement)
        }
        let changes: [Change] = fields.compactMap { field, value in
            let old = current[field] ?? .null
            guard old != value else { return nil }
            return .set(entity: root.id, kind: .itinerary, field: field, value: value, old: old)
        }
        guard !changes.isEmpty else { return nil }
        return Edit(doc: doc.id, changes: changes, summary: "itinerary \(current["name"]?.description ?? "") edited")
    }

    /// The settlement currency is fixed once expenses are entered in it: their frozen rates
    /// convert to it, and converting them again would change what everyone owes.
    private func checkSettlementChange(_ doc: Store.DocumentRecord, to new: JSONValue) throws {
        let expenses = try ServiceError.storing { () throws(StoreError) in
            try store.entities(in: doc.id, kind: .expense)
        }
        let settled = expenses.compactMap { Views.fields($0)[ExpenseFields.terms]?.settlement }
        guard let other = settled.first(where: { .string($0) != new }) else { return }
        let count = settled.filter { $0 == other }.count
        throw ServiceError.conflict(
            "expenses-exist",
            "\(count) expense\(count == 1 ? " is" : "s are") settled in \(other): the settlement currency cannot change "
                + "while expenses use it (remove them, or keep \(other))")
    }

    /// The owner's delete (a member's is a leave).
    func delete(_ doc: Store.DocumentRecord) -> Edit {
        Edit(
            doc: doc.id,
            changes: [
                .tombstone(entity: doc.id.hex, kind: .itinerary)
            ],
            summary: "itinerary deleted")
    }

    func addStop(_ doc: Store.DocumentRecord, _ request: AddStopRequest, library: DocumentID) throws -> Edit {
        try requireEditor(doc)
        let place = try lookup.resolve(request.placeId, in: library, kind: .place, what: "place")
        let stops = try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc.id, kind: .stop) }
        let key = try EntityLookup.positionKey(at: request.position, among: stops)
        return Edit(doc: doc.id, changes: stopChanges(for: place, position: key), summary: "place to go added")
    }

    func removeStop(_ doc: Store.DocumentRecord, stop: String) throws -> Edit {
        try requireEditor(doc)
        let record = try lookup.resolve(stop, in: doc.id, kind: .stop, alsoBy: "placeId", what: "place to go")
        return Edit(
            doc: doc.id,
            changes: [.tombstone(entity: record.id, kind: .stop)],
            summary: "place to go removed")
    }

    func moveStop(_ doc: Store.DocumentRecord, stop: String, to position: Int) throws -> Edit {
        try requireEditor(doc)
        let record = try lookup.resolve(stop, in: doc.id, kind: .stop, alsoBy: "placeId", what: "place to go")
        let others = try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc.id, kind: .stop) }
            .filter { $0.id != record.id }
        let key = try EntityLookup.positionKey(at: position, among: others)
        return Edit(
            doc: doc.id,
            changes: [
                .set(StopFields.position, of: record.id, to: key, old: record.position)
            ],
            summary: "place to go moved")
    }

    /// Plans a place to go for `date` (`Stop.day`), or takes it off its day (`nil`); nil
    /// when it already is.
    func scheduleStop(_ doc: Store.DocumentRecord, stop: String, date: LocalDate?) throws -> Edit? {
        try requireEditor(doc)
        let record = try lookup.resolve(stop, in: doc.id, kind: .stop, alsoBy: "placeId", what: "place to go")
        let old = Views.fields(record)[StopFields.day]
        guard old != date?.description else { return nil }
        return Edit(
            doc: doc.id, changes: [.set(StopFields.day, of: record.id, to: date?.description, old: old)],
            summary: date == nil ? "place to go taken off its day" : "place to go planned")
    }

    /// Reorders every place to go at once (route apply): one op, one move per stop whose
    /// key changes; nil when none does.
    func reorder(_ doc: DocumentID, order stopIDs: [String]) throws -> Edit? {
        let stops = try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc, kind: .stop) }
        guard Set(stopIDs) == Set(stops.map(\.id)), stopIDs.count == stops.count else {
            throw ServiceError.invalid("order", "the order must list every place to go once")
        }
        let byID = Dictionary(uniqueKeysWithValues: stops.map { ($0.id, $0) })
        let changes: [Change] = zip(stopIDs, FractionalIndex.spread(stopIDs.count)).compactMap { id, key in
            let old = byID[id]?.position
            guard old != key else { return nil }
            return .set(StopFields.position, of: id, to: key, old: old)
        }
        guard !changes.isEmpty else { return nil }
        return Edit(doc: doc, changes: changes, summary: "places to go reordered by route")
    }

    // MARK: Helpers

    private func stopChanges(for place: Store.EntityRecord, position: String) -> [Change] {
        let f = Views.fields(place)
        var stop = EntityWrite<StopFields>.create(EntityLookup.newID())
        stop.set(StopFields.placeID, to: place.id)
        stop.set(StopFields.position, to: position)
        // The stop keeps its own copy of the place's name, position on the map and address.
        for spec in StopFields.copiedFromPlace {
            if let v = f[spec.name], !v.isNull { stop.set(spec.name, to: v) }
        }
        return stop.changes
    }

    private func placeReferences(_ value: JSONValue?) throws -> [String] {
        guard let value, !value.isNull else { return [] }
        guard case .array(let items) = value, items.count <= 500 else {
            throw ServiceError.invalid("places", "'places' must be a list of at most 500 place ids")
        }
        var out = [String]()
        for item in items {
            guard let s = item.stringValue else {
                throw ServiceError.invalid("places", "'places' must be a list of place ids")
            }
            out.append(s)
        }
        return out
    }

    /// Flattens `lodging` into `lodging.*`, validates, and checks date order against the
    /// values the itinerary will have after the change.
    private func itineraryFields(
        _ body: [String: JSONValue], creating: Bool, current: [String: JSONValue]
    ) throws -> [(String, JSONValue)] {
        var flat = body
        if let lodging = flat.removeValue(forKey: "lodging") {
            switch lodging {
            case .null:
                for k in ["name", "address", "checkIn", "checkOut"] { flat["lodging.\(k)"] = .null }
            case .object(let o):
                for (k, v) in o {
                    guard ["name", "address", "checkIn", "checkOut"].contains(k) else {
                        throw ServiceError.invalid(
                            "lodging.\(k)",
                            "unknown lodging field '\(k)'; the fields are: name, address, checkIn, checkOut")
                    }
                    flat["lodging.\(k)"] = v
                }
            default:
                throw ServiceError.invalid("lodging", "'lodging' must be an object {name, address, checkIn, checkOut}")
            }
        }
        let fields = try FieldRule.validate(flat, rules: FieldRule.itinerary, creating: creating)
        var after = current
        for (k, v) in fields { after[k] = v }
        for (start, end) in [("startDate", "endDate"), ("lodging.checkIn", "lodging.checkOut")] {
            if let s = after[start]?.stringValue, let e = after[end]?.stringValue, e < s {
                throw ServiceError.invalid(end, "'\(end)' \(e) is before '\(start)' \(s)")
            }
        }
        return fields
    }
}
