import Foundation

/// One result of `GET /v1/discover` (or `GET /v1/discover/{id}`), as the CLI reads it.
///
/// Kept in the CLI (not PlacesAPI) so that the CLI reads only the fields it shows; fields
/// the daemon adds later are ignored, and an absent optional field reads as unknown.
struct DiscoverResult: Decodable, Sendable, Equatable {
    /// `city:2267057`, `region:PT.14`, `country:PT`, `continent:EU`, `place:<32 hex>` (own
    /// library place) or `place:<owner 64 hex>.<32 hex>` (a contact's shared favorite).
    var id: String
    /// city, region, country, continent or place.
    var kind: String
    var name: String
    var region: String?
    var country: String?
    var countryCode: String?
    var continent: String?
    var latitude: Double
    var longitude: Double
    var population: Int64?
    /// People other than the user who saved this place.
    var popularity: Int?
    /// Whether the user's library holds it as a favorite.
    var favorite: Bool?

    /// "Lisbon, Portugal" (region, country) for a city or a place; the country for a region;
    /// the continent for a country; "" for a continent.
    var whereText: String {
        var parts: [String] = []
        switch kind {
        case "continent": break
        case "country": if let continent { parts.append(continent) }
        case "region": if let country { parts.append(country) }
        default:
            // A city keeps a region of the same name: "Lisbon, Lisbon, Portugal".
            if let region { parts.append(region) }
            if let country { parts.append(country) }
        }
        return parts.joined(separator: ", ")
    }

    /// "Lisbon, Lisbon, Portugal (city:2267057)": the name, where it is, and the id.
    var described: String {
        let place = whereText.isEmpty ? name : "\(name), \(whereText)"
        return "\(place) (\(id))"
    }

    /// Whether `id` is a gazetteer id (`city:`, `region:`, `country:`, `continent:`).
    static func isGazetteerID(_ id: String) -> Bool {
        ["city:", "region:", "country:", "continent:"].contains { id.hasPrefix($0) }
    }

    /// Whether `text` is a result id of any kind (a gazetteer id or `place:…`).
    static func isResultID(_ text: String) -> Bool {
        isGazetteerID(text) || text.hasPrefix("place:")
    }

    /// For `place:<32 hex>`, the library place id; nil for a contact's place or another kind.
    var ownPlaceID: String? {
        guard id.hasPrefix("place:") else { return nil }
        let rest = id.dropFirst(6)
        return rest.contains(".") ? nil : String(rest)
    }
}

/// `{"results": [...]}`.
struct DiscoverResults: Decodable, Sendable {
    var results: [DiscoverResult]
}

/// `GET|PUT /v1/preferences`.
struct Preferences: Codable, Sendable {
    /// descending, ascending or off.
    var discoverSort: String
}

extension Format {
    /// "2,956,000": digits grouped by thousands, the same on every locale.
    static func population(_ value: Int64?) -> String {
        guard let value, value > 0 else { return "" }
        var digits = Array(String(value))
        var out: [Character] = []
        while digits.count > 3 {
            out.insert(contentsOf: [","] + digits.suffix(3), at: 0)
            digits.removeLast(3)
        }
        return String(digits + out)
    }
}
