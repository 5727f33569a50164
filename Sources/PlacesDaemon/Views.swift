import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesTrips

/// Turns materialized entities into the control API's resources.
enum Views {
    static func fields(_ record: Store.EntityRecord) -> [String: JSONValue] {
        if let flat = FlatJSONObject.parse(record.dataJSON) { return flat }
        if case .object(let object)? = JSONValue.parse(record.dataJSON) { return object }
        guard let data = record.dataJSON.data(using: .utf8),
            let object = try? JSONDecoder().decode([String: JSONValue].self, from: data)
        else { return [:] }
        return object
    }

    /// A library place, its fields read through `PlaceFields`.
    static func place(_ record: Store.EntityRecord, favorite: Bool) -> Place {
        let f = fields(record)
        typealias P = PlaceFields
        return Place(
            id: record.id, name: f[P.name] ?? "", latitude: f[P.latitude] ?? 0, longitude: f[P.longitude] ?? 0,
            address: f[P.address], categories: f[P.categories] ?? [], priceLevel: f[P.priceLevel].map(Int.init),
            rating: f[P.rating], notes: f[P.notes], url: f[P.url],
            favorite: favorite, createdAt: RFC3339.string(ms: record.createdMs ?? 0),
            updatedAt: record.updatedMs.map { RFC3339.string(ms: $0) }, gazetteerId: f[P.gazetteerID],
            origin: f[P.origin],
            photos: f[P.photos.name].map { Engine.photos(from: $0) }.flatMap { $0.isEmpty ? nil : $0 },
            openingHours: f[P.openingHours], visitMinutes: f[P.visitMinutes].map(Int.init), entryPrice: f[P.entryPrice])
    }

    /// A place to go, its fields read through `StopFields`.
    static func stop(_ record: Store.EntityRecord, position: Int) -> Stop {
        let f = fields(record)
        typealias S = StopFields
        return Stop(
            id: record.id, placeId: f[S.placeID], name: f[S.name] ?? "", latitude: f[S.latitude] ?? 0,
            longitude: f[S.longitude] ?? 0, address: f[S.address], position: position, day: f[S.day],
            gazetteerId: f[S.gazetteerID])
    }

    /// An itinerary, its fields read through `ItineraryFields` (`lodging.*` gathered into the
    /// API's `lodging` object, absent when all four are).
    static func itinerary(
        root: Store.EntityRecord, stops: [Store.EntityRecord], items: [Store.EntityRecord] = [], owner: [UInt8],
        role: String
    ) -> Itinerary {
        let f = fields(root)
        typealias I = ItineraryFields
        let lodgingFields = I.lodging.map { f[$0.field] }
        let lodging: Lodging? =
            lodgingFields.allSatisfy({ $0 == nil })
            ? nil
            : Lodging(
                name: lodgingFields[0], address: lodgingFields[1], checkIn: lodgingFields[2], checkOut: lodgingFields[3]
            )
        let travel = f[I.travelPrice]
        let lodgingPrice = f[I.lodgingPrice]
        // Prices per section (`TripCosts`): every item's, and the itinerary's own travel and
        // lodging prices as its legacy items'.
        let legacy = TripItemViews.legacyItems(root: root).map(\.item)
        let costs = TripCosts.of(Trip(items: legacy + items.compactMap { TripItemViews.tripItem($0) }))
        var view = Itinerary(
            id: root.id, name: f[I.name] ?? "", startDate: f[I.startDate], endDate: f[I.endDate],
            transportation: f[I.transportation], lodging: lodging, travelPrice: travel, lodgingPrice: lodgingPrice,
            notes: f[I.notes], places: stops.enumerated().map { stop($1, position: $0 + 1) },
            totalCost: costs.total,
            owner: ownerID(owner), role: role,
            createdAt: RFC3339.string(ms: root.createdMs ?? 0), updatedAt: root.updatedMs.map { RFC3339.string(ms: $0) }
        )
        view.timeZone = f[I.timeZone]
        view.travelMode = f[I.travelMode]
        view.origin = f[I.origin]
        view.settlementCurrency = f[I.settlementCurrency]
        if let table = f[I.rates]?.objectValue, !table.isEmpty { view.rates = table.compactMapValues(\.stringValue) }
        // The itinerary's own lodging and transportation show as items too (`TripItemViews`).
        view.itemCount = items.count + legacy.count
        let sections = costs.sections.filter { !$0.amounts.isEmpty }
        view.costs =
            sections.isEmpty ? nil : Dictionary(uniqueKeysWithValues: sections.map { ($0.type.rawValue, $0.amounts) })
        return view
    }

    static func ownerID(_ owner: [UInt8]) -> String {
        (try? PublicKey(bytes: owner))?.humanID ?? HexCoding.encode(owner)
    }
}

/// Reads the common shape of an entity's `data` (as SQLite's JSON functions write it: a flat
/// object of strings without escapes, integers, non-integral decimals, booleans, nulls and
/// flat objects of those, such as a price)
/// without `JSONDecoder`, which costs ~20 µs per entity. Returns nil for anything else
/// (nested values, escapes, exponents, integral decimals such as `5.0`), which the caller
/// then reads with `JSONDecoder`; when it returns a value, it is what `JSONDecoder` reads.
enum FlatJSONObject {
    static func parse(_ text: String) -> [String: JSONValue]? {
        var text = text
        return text.withUTF8 { bytes -> [String: JSONValue]? in
            var i = 0
            func byte() -> UInt8? { i < bytes.count ? bytes[i] : nil }
            func string() -> String? {
                guard byte() == UInt8(ascii: "\""), i + 1 <= bytes.count else { return nil }
                let start = i + 1
                var j = start
                while j < bytes.count {
                    let b = bytes[j]
                    if b == UInt8(ascii: "\"") {
                        i = j + 1
                        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<j]), as: UTF8.self)
                    }
                    if b == UInt8(ascii: "\\") || b < 0x20 { return nil }
                    j += 1
                }
                return nil
            }
            func number() -> JSONValue? {
                let start = i
                var hasDot = false
                while let b = byte(), b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || (48...57).contains(b) {
                    if b == UInt8(ascii: ".") { hasDot = true }
                    i += 1
                }
                let digits = UnsafeBufferPointer(rebasing: bytes[start..<i])
                // Byte checks, not String.contains/hasPrefix (Foundation's, ~1 µs each).
                let first = digits.first, second = digits.count > 1 ? digits[1] : nil
                let leadingZero =
                    (first == UInt8(ascii: "0") && digits.count > 1)
                    || (first == UInt8(ascii: "-") && second == UInt8(ascii: "0"))
                let text = String(decoding: digits, as: UTF8.self)
                if !hasDot {
                    guard !leadingZero, let int = Int64(text) else { return nil }
                    return .int(int)
                }
                guard let double = Double(text), double.isFinite, double != double.rounded() else { return nil }
                return .double(double)
            }
            func literal(_ word: String, _ value: JSONValue) -> JSONValue? {
                let utf8 = Array(word.utf8)
                guard i + utf8.count <= bytes.count, Array(bytes[i..<(i + utf8.count)]) == utf8 else { return nil }
                i += utf8.count
                return value
            }
            /// The object at `i` (a flat one when `nested` is false), `i` left after its `}`.
            func object(nested: Bool) -> [String: JSONValue]? {
                guard byte() == UInt8(ascii: "{") else { return nil }
                i += 1
                var out = [String: JSONValue]()
                if byte() == UInt8(ascii: "}") {
                    i += 1
                    return out
                }
                while true {
                    guard let key = string(), byte() == UInt8(ascii: ":") else { return nil }
                    i += 1
                    let value: JSONValue?
                    switch byte() ?? 0 {
                    case UInt8(ascii: "\""): value = string().map(JSONValue.string)
                    case UInt8(ascii: "t"): value = literal("true", .bool(true))
                    case UInt8(ascii: "f"): value = literal("false", .bool(false))
                    case UInt8(ascii: "n"): value = literal("null", .null)
                    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = number()
                    // One level of nesting: a price (`{"amountMinor":…,"currency":…}`).
                    case UInt8(ascii: "{") where nested: value = object(nested: false).map(JSONValue.object)
                    default: value = nil
                    }
                    guard let value, out.updateValue(value, forKey: key) == nil else { return nil }
                    switch byte() {
                    case UInt8(ascii: ","): i += 1
                    case UInt8(ascii: "}"):
                        i += 1
                        return out
                    default: return nil
                    }
                }
            }
            guard let out = object(nested: true), i == bytes.count else { return nil }
            return out
        }
    }
}
