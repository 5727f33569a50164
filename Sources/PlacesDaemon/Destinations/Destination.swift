import Foundation
import PlacesGazetteer
import PlacesModel

/// A place the person is going: a city, region or country of the gazetteer, or one of her
/// places. Kept in the `destinations` setting (a JSON array), which follows the person to
/// her other devices like every setting (`Protocol/devices.md` §4.4), so read back as
/// untrusted: `DestinationList.decode` keeps only entries within bounds.
struct Destination: Codable, Equatable, Sendable {
    /// `city:2267057`, `region:PT.14`, `country:PT` (gazetteer ids) or `place:<32 hex>`.
    var id: String
    var name: String
    /// `city`, `region`, `country` or `place`.
    var kind: String
    var latitude: Double
    var longitude: Double
    /// IANA zone (`TimeZoneTable`, else the nearest city's; docs/destinations.md).
    var timeZone: String
    /// The country's name and ISO code; nil when unknown.
    var country: String?
    var countryCode: String?
    var region: String?
    /// GeoNames population; nil for a place.
    var population: Int64?

    /// Whether every field is within the bounds the API promises.
    var isValid: Bool {
        (1...120).contains(id.utf8.count) && (1...200).contains(name.count)
            && ["city", "region", "country", "place"].contains(kind) && latitude.isFinite && longitude.isFinite
            && abs(latitude) <= 90 && abs(longitude) <= 180 && (1...64).contains(timeZone.utf8.count)
            && (country?.count ?? 0) <= 200 && (countryCode?.utf8.count ?? 2) == 2 && (region?.count ?? 0) <= 200
            && (population ?? 0) >= 0
    }
}

/// The `destinations` setting: at most `maxCount` destinations, in the order added.
enum DestinationList {
    static let setting = "destinations"
    /// Enough for a year of trips, and small enough for the 10,000-character setting.
    static let maxCount = 20

    /// The kept destinations; entries out of bounds (a sibling device's bad write) are dropped.
    static func decode(_ text: String?) -> [Destination] {
        guard let text, let list = try? JSONDecoder().decode([Destination].self, from: Data(text.utf8)) else {
            return []
        }
        var seen = Set<String>()
        return list.filter { $0.isValid && seen.insert($0.id).inserted }.prefix(maxCount).map { $0 }
    }

    static func encode(_ list: [Destination]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(list)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }
}

/// Where "here" is (`PUT /v1/here`): a device's own position, kept in the device-local
/// setting `local.here` (it never leaves the device).
struct Here: Codable, Equatable, Sendable {
    static let setting = "local.here"

    var latitude: Double
    var longitude: Double
    var timeZone: String
    /// The place it was set from, or the nearest city's name.
    var name: String
    var placeId: String?

    static func decode(_ text: String?) -> Here? {
        guard let text, let here = try? JSONDecoder().decode(Here.self, from: Data(text.utf8)),
            here.latitude.isFinite, here.longitude.isFinite, abs(here.latitude) <= 90, abs(here.longitude) <= 180,
            (1...64).contains(here.timeZone.utf8.count), here.name.count <= 200
        else { return nil }
        return here
    }
}

/// Places marked visited (`POST /v1/visited`): a setting holding their ids, following the
/// person to her devices; the spot of the day never picks one.
enum VisitedList {
    static let setting = "visited"
    /// Ids are at most 34 characters in a JSON array: 250 fit the 10,000-character setting.
    static let maxCount = 250

    static func decode(_ text: String?) -> [String] {
        guard let text, let list = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else { return [] }
        return Array(list.filter { (1...200).contains($0.utf8.count) }.prefix(maxCount))
    }

    static func encode(_ list: [String]) -> String {
        (try? JSONEncoder().encode(list)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }
}
