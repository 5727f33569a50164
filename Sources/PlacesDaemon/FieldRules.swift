import Foundation
import PlacesControl
import PlacesModel

/// Validation of the writable fields of places and itineraries. A request body is a JSON
/// object of field → value (null clears an optional field); each value is checked here and
/// turned into the register value stored in ops. Unknown fields are refused by name, so a
/// typo never silently does nothing.
enum FieldRule {
    case text(maxLength: Int, required: Bool)
    case latitude
    case longitude
    case priceLevel
    case rating
    case categories
    case url
    case date
    case money

    static let place: [String: FieldRule] = [
        "name": .text(maxLength: 200, required: true),
        "latitude": .latitude,
        "longitude": .longitude,
        "address": .text(maxLength: 500, required: false),
        "categories": .categories,
        "priceLevel": .priceLevel,
        "rating": .rating,
        "notes": .text(maxLength: 10_000, required: false),
        "url": .url,
    ]

    /// Itinerary fields as stored (lodging flattened to `lodging.*`).
    static let itinerary: [String: FieldRule] = [
        "name": .text(maxLength: 200, required: true),
        "startDate": .date,
        "endDate": .date,
        "transportation": .text(maxLength: 2_000, required: false),
        "lodging.name": .text(maxLength: 200, required: false),
        "lodging.address": .text(maxLength: 500, required: false),
        "lodging.checkIn": .date,
        "lodging.checkOut": .date,
        "travelPrice": .money,
        "lodgingPrice": .money,
        "notes": .text(maxLength: 10_000, required: false),
    ]

    var isRequired: Bool {
        switch self {
        case .text(_, let required): required
        case .latitude, .longitude: true
        default: false
        }
    }

    /// Checks one value; returns the value to store.
    func check(_ field: String, _ value: JSONValue) throws(Problem) -> JSONValue {
        if value.isNull {
            guard !isRequired else { throw Problem.invalid(field, "'\(field)' is required and cannot be cleared") }
            return .null
        }
        switch self {
        case .text(let maxLength, let required):
            guard let s = value.stringValue else { throw Problem.invalid(field, "'\(field)' must be a string") }
            let trimmed = s.trimmingCharacters(in: .whitespacesAndNewlines)
            if required && trimmed.isEmpty { throw Problem.invalid(field, "'\(field)' must not be empty") }
            guard s.count <= maxLength else {
                throw Problem.invalid(field, "'\(field)' is \(s.count) characters; at most \(maxLength) are allowed")
            }
            return .string(required ? trimmed : s)
        case .latitude, .longitude:
            let limit = self.isLatitude ? 90.0 : 180.0
            guard let d = value.doubleValue, d.isFinite else {
                throw Problem.invalid(field, "'\(field)' must be a number of decimal degrees")
            }
            guard abs(d) <= limit else {
                throw Problem.invalid(
                    field, "'\(field)' \(d) is out of range: it must be between -\(Int(limit)) and \(Int(limit))")
            }
            return .number(d)
        case .priceLevel:
            guard let i = value.intValue, (1...4).contains(i) else {
                throw Problem.invalid(field, "'priceLevel' must be a whole number from 1 to 4")
            }
            return .int(i)
        case .rating:
            guard let d = value.doubleValue, d.isFinite, (0...5).contains(d) else {
                throw Problem.invalid(field, "'rating' must be a number from 0 to 5")
            }
            return .number(d)
        case .categories:
            guard case .array(let items) = value else {
                throw Problem.invalid(field, "'categories' must be a list of strings")
            }
            guard items.count <= 20 else { throw Problem.invalid(field, "at most 20 categories are allowed") }
            var out = [JSONValue]()
            for item in items {
                guard let s = item.stringValue?.trimmingCharacters(in: .whitespaces), !s.isEmpty, s.count <= 50 else {
                    throw Problem.invalid(field, "each category must be a non-empty string of at most 50 characters")
                }
                if !out.contains(.string(s)) { out.append(.string(s)) }
            }
            return .array(out)
        case .url:
            guard let s = value.stringValue, s.count <= 2_000, let u = URL(string: s),
                let scheme = u.scheme?.lowercased(), scheme == "http" || scheme == "https", u.host != nil
            else { throw Problem.invalid(field, "'url' must be an http or https link of at most 2000 characters") }
            return .string(s)
        case .date:
            guard let s = value.stringValue, FieldRule.isDate(s) else {
                throw Problem.invalid(field, "'\(field)' must be a date written YYYY-MM-DD")
            }
            return .string(s)
        case .money:
            guard case .object(let o) = value, let amount = o["amountMinor"]?.intValue,
                let currency = o["currency"]?.stringValue, o.count == 2
            else {
                throw Problem.invalid(
                    field, "'\(field)' must be {\"amountMinor\": <whole number of cents>, \"currency\": \"EUR\"}")
            }
            guard amount >= 0, amount <= 1_000_000_000_000 else {
                throw Problem.invalid(field, "'\(field).amountMinor' must be between 0 and 10^12")
            }
            guard Money.isValidCurrency(currency) else {
                throw Problem.invalid(field, "'\(field).currency' must be an ISO 4217 code such as EUR or USD")
            }
            return Money(amountMinor: amount, currency: currency).jsonValue
        }
    }

    private var isLatitude: Bool { if case .latitude = self { true } else { false } }

    static func isDate(_ s: String) -> Bool {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard s.utf8.count == 10, parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            parts[0].count == 4, parts[1].count == 2, parts[2].count == 2, (1...12).contains(m), y >= 1
        else { return false }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
        return (1...days).contains(d)
    }

    /// Validates a request object against `rules`. `creating` demands every required field.
    /// Returns the stored fields in a stable order.
    static func validate(
        _ object: [String: JSONValue], rules: [String: FieldRule], creating: Bool, ignoring: Set<String> = []
    ) throws(Problem) -> [(String, JSONValue)] {
        var out = [(String, JSONValue)]()
        for key in object.keys.sorted() where !ignoring.contains(key) {
            guard let rule = rules[key] else {
                let known = rules.keys.sorted().joined(separator: ", ")
                throw Problem.invalid(key, "unknown field '\(key)'; the fields are: \(known)")
            }
            out.append((key, try rule.check(key, object[key]!)))
        }
        if creating {
            for (key, rule) in rules where rule.isRequired && object[key] == nil {
                throw Problem.invalid(key, "'\(key)' is required")
            }
        }
        return out
    }
}
