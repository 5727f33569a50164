import Foundation
import PlacesControl
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Turns materialized entities into the control API's resources.
enum Views {
    static func fields(_ record: Store.EntityRecord) -> [String: JSONValue] {
        guard let data = record.dataJSON.data(using: .utf8),
            let object = try? JSONDecoder().decode([String: JSONValue].self, from: data)
        else { return [:] }
        return object
    }

    static func place(_ record: Store.EntityRecord, favorite: Bool) -> Place {
        let f = fields(record)
        return Place(
            id: record.id, name: f["name"]?.stringValue ?? "", latitude: f["latitude"]?.doubleValue ?? 0,
            longitude: f["longitude"]?.doubleValue ?? 0, address: f["address"]?.stringValue,
            categories: categories(f["categories"]),
            priceLevel: f["priceLevel"]?.intValue.map(Int.init), rating: f["rating"]?.doubleValue,
            notes: f["notes"]?.stringValue, url: f["url"]?.stringValue,
            favorite: favorite, createdAt: RFC3339.string(ms: record.createdMs ?? 0),
            updatedAt: record.updatedMs.map { RFC3339.string(ms: $0) })
    }

    static func categories(_ value: JSONValue?) -> [String] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap(\.stringValue)
    }

    static func stop(_ record: Store.EntityRecord, position: Int) -> Stop {
        let f = fields(record)
        return Stop(
            id: record.id, placeId: f["placeId"]?.stringValue, name: f["name"]?.stringValue ?? "",
            latitude: f["latitude"]?.doubleValue ?? 0, longitude: f["longitude"]?.doubleValue ?? 0,
            address: f["address"]?.stringValue, position: position)
    }

    static func itinerary(root: Store.EntityRecord, stops: [Store.EntityRecord], owner: [UInt8], role: String)
        -> Itinerary
    {
        let f = fields(root)
        let lodgingFields = ["name", "address", "checkIn", "checkOut"].map { f["lodging.\($0)"]?.stringValue }
        let lodging: Lodging? =
            lodgingFields.allSatisfy({ $0 == nil })
            ? nil
            : Lodging(
                name: lodgingFields[0], address: lodgingFields[1], checkIn: lodgingFields[2], checkOut: lodgingFields[3]
            )
        let travel = f["travelPrice"].flatMap(Money.init)
        let lodgingPrice = f["lodgingPrice"].flatMap(Money.init)
        return Itinerary(
            id: root.id, name: f["name"]?.stringValue ?? "", startDate: f["startDate"]?.stringValue,
            endDate: f["endDate"]?.stringValue, transportation: f["transportation"]?.stringValue, lodging: lodging,
            travelPrice: travel, lodgingPrice: lodgingPrice, notes: f["notes"]?.stringValue,
            places: stops.enumerated().map { stop($1, position: $0 + 1) },
            totalCost: totalCost([travel, lodgingPrice].compactMap { $0 }),
            owner: ownerID(owner), role: role,
            createdAt: RFC3339.string(ms: root.createdMs ?? 0), updatedAt: root.updatedMs.map { RFC3339.string(ms: $0) }
        )
    }

    /// Sums amounts per currency (never converting), in currency order.
    static func totalCost(_ amounts: [Money]) -> [Money] {
        var sums = [String: Int64]()
        for m in amounts { sums[m.currency, default: 0] += m.amountMinor }
        return sums.keys.sorted().map { Money(amountMinor: sums[$0]!, currency: $0) }
    }

    static func ownerID(_ owner: [UInt8]) -> String {
        (try? PublicKey(bytes: owner))?.humanID ?? HexCoding.encode(owner)
    }
}
