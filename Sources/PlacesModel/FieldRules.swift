import Foundation

/// A value that a field rule refuses: which field, and a message that says what is allowed.
public struct FieldError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field (register name) whose value was refused.
    public var field: String
    /// What is wrong and what is allowed.
    public var message: String

    public init(_ field: String, _ message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { message }
}

/// Validation of field values: the rules of `Protocol/op-format.md` §5, applied by the control
/// API to local writes (`check`, which also normalizes: trims a required name, dedups
/// categories, writes numbers in their canonical form) and by the store to every `set` in an op
/// from a peer (`FieldRule.peerRefusal`, which demands the value a local write would store).
public enum FieldRule: Sendable, Hashable {
    case text(maxLength: Int, required: Bool)
    case latitude
    case longitude
    case priceLevel
    case rating
    case categories
    case url
    case date
    case money
    /// `true` or `false` (`deleted`, `revoked`).
    case bool
    /// A fractional index (op-format §6.4).
    case position
    /// An entity id: 32 lowercase hex characters (a stop's or favorite's `placeId`).
    case entityID
    /// A public key: 64 lowercase hex characters (a link's `issuer`, `audience`).
    case key
    /// One of a fixed set of strings (roles).
    case oneOf(Set<String>)
    /// An RFC 3339 time (`expiresAt`, `viewedAt`, `postedAt`, a reaction's `at`): a real instant
    /// from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z (`timestampMs`).
    case timestamp
    /// A whole number 1…2^32−1 (a link's `uses`).
    case count
    /// A whole number within `min…max` (a place's `visitMinutes`, 5…720).
    case wholeNumber(min: Int64, max: Int64)
    /// A capability token in base64url: 1–4,096 characters of `A-Z a-z 0-9 - _`.
    case token
    /// A profile username: 1–32 characters, each a letter, digit, `.`, `_` or `-`.
    case username
    /// A local date (`YYYY-MM-DD`) or local date and time to the minute
    /// (`YYYY-MM-DDTHH:MM`), in no zone: an item's `start` and `end`.
    case localDateTime
    /// An IANA time zone name (`Europe/Lisbon`, `UTC`): 1–64 characters of letters, digits,
    /// `/ _ + -`, starting with a letter. Ops are checked for the shape only (tz databases
    /// differ between devices, and every device must accept the same ops); a local write
    /// must also name a zone this daemon knows (`ItemService`).
    case timeZone
    /// An ISO 4217 code in `CurrencyTable` with a minor unit (`EUR`, `JPY`; not `XAU`): an
    /// itinerary's `settlementCurrency` (`Protocol/expenses.md`).
    case currency
    /// A rate table: a JSON object of at most 200 entries, each a currency as `.currency` →
    /// an `ExchangeRate` in canonical text (`{"USD": "0.92"}`): an itinerary's `rates`.
    case rateTable
    /// An expense's money as one value: `ExpenseTerms` in its canonical JSON (its `json`).
    case expenseTerms
    /// A gazetteer result id (`Protocol/op-format.md` §5): `city:` and a GeoNames id of 1–10
    /// digits, `region:` and a country code, `.` and a GeoNames first-level code of 1–20
    /// uppercase letters or digits, `country:` and an ISO 3166 alpha-2 code, or `continent:`
    /// and one of AF AN AS EU NA OC SA. A peer's id need not be in this build's gazetteer.
    case gazetteerID
    /// A list of at most `max` distinct public keys (64 lowercase hex characters each), sorted:
    /// a group's members.
    case keys(max: Int)
    /// An Ed25519 signature: 128 lowercase hex characters (a reaction's `signature`).
    case signature
    /// A peer address `host:port` of 1–64 bytes (`HostPort`): a relay's address in a document.
    case hostPort
    /// A post's photos: a list of at most 10 objects, each exactly `{"id": 64 lowercase hex,
    /// "contentType": "image/jpeg"|"image/png"|"image/webp"|"image/heic", "bytes": 1…20 MiB,
    /// "width": 1…65535, "height": 1…65535}` (`Protocol/op-format.md` §5).
    case photos
    /// The inner rule, or null (a coordinate, flag or reference that may be absent).
    indirect case optional(FieldRule)

    /// The largest amount in minor units a price may hold.
    public static let maxAmountMinor: Int64 = 1_000_000_000_000

    /// The fields a request may write to a place (`PlaceFields`).
    public static var place: [String: FieldRule] { PlaceFields.schema.requestRules }

    /// Itinerary fields as stored (lodging flattened to `lodging.*`; `ItineraryFields`).
    public static var itinerary: [String: FieldRule] { ItineraryFields.schema.requestRules }

    /// The fields of each entity kind an op may write (op-format §5), `deleted` included,
    /// from `Schema.shipped`.
    public static let fields: [EntityKind: [String: FieldRule]] = Schema.shipped.fieldRules

    public var isRequired: Bool {
        switch self {
        case .text(_, let required): required
        case .latitude, .longitude, .bool, .position, .entityID, .key, .oneOf, .token, .username, .expenseTerms,
            .signature, .hostPort:
            true
        case .optional: false
        default: false
        }
    }

    /// Checks one value; returns the value to store.
    public func validate(_ field: String, _ value: JSONValue) throws(FieldError) -> JSONValue {
        if value.isNull {
            guard !isRequired else { throw FieldError(field, "'\(field)' is required and cannot be cleared") }
            return .null
        }
        switch self {
        case .text(let maxLength, let required):
            guard let s = value.stringValue else { throw FieldError(field, "'\(field)' must be a string") }
            // Counting characters costs as much as the string: refuse a string of more than 64
            // bytes per allowed character before counting (no real character is that long).
            guard s.utf8.count <= 64 * maxLength else {
                throw FieldError(field, "'\(field)' is longer than the \(maxLength) characters allowed")
            }
            // Only a required field is trimmed (Foundation's trimming is slow: it runs per op).
            let trimmed = required ? s.trimmingCharacters(in: .whitespacesAndNewlines) : s
            if required && trimmed.isEmpty { throw FieldError(field, "'\(field)' must not be empty") }
            guard s.count <= maxLength else {
                throw FieldError(field, "'\(field)' is \(s.count) characters; at most \(maxLength) are allowed")
            }
            return .string(required ? trimmed : s)
        case .latitude, .longitude:
            let limit = self.isLatitude ? 90.0 : 180.0
            guard let d = value.doubleValue, d.isFinite else {
                throw FieldError(field, "'\(field)' must be a number of decimal degrees")
            }
            guard abs(d) <= limit else {
                throw FieldError(
                    field, "'\(field)' \(d) is out of range: it must be between -\(Int(limit)) and \(Int(limit))")
            }
            return .number(d)
        case .priceLevel:
            guard let i = value.intValue, (1...4).contains(i) else {
                throw FieldError(field, "'priceLevel' must be a whole number from 1 to 4")
            }
            return .int(i)
        case .rating:
            guard let d = value.doubleValue, d.isFinite, (0...5).contains(d) else {
                throw FieldError(field, "'rating' must be a number from 0 to 5")
            }
            return .number(d)
        case .categories:
            guard case .array(let items) = value else {
                throw FieldError(field, "'categories' must be a list of strings")
            }
            guard items.count <= 20 else { throw FieldError(field, "at most 20 categories are allowed") }
            var out = [JSONValue]()
            for item in items {
                guard let raw = item.stringValue, raw.utf8.count <= 64 * 50,
                    case let s = raw.trimmingCharacters(in: .whitespaces), !s.isEmpty, s.count <= 50
                else {
                    throw FieldError(field, "each category must be a non-empty string of at most 50 characters")
                }
                if !out.contains(.string(s)) { out.append(.string(s)) }
            }
            return .array(out)
        case .url:
            guard let s = value.stringValue, s.utf8.count <= 64 * 2_000, s.count <= 2_000, let u = URL(string: s),
                let scheme = u.scheme?.lowercased(), scheme == "http" || scheme == "https", u.host != nil
            else { throw FieldError(field, "'url' must be an http or https link of at most 2000 characters") }
            return .string(s)
        case .date:
            guard let s = value.stringValue, FieldRule.isDate(s) else {
                throw FieldError(field, "'\(field)' must be a date written YYYY-MM-DD")
            }
            return .string(s)
        case .money:
            guard case .object(let o) = value, let amount = o["amountMinor"]?.intValue,
                let currency = o["currency"]?.stringValue, o.count == 2
            else {
                throw FieldError(
                    field, "'\(field)' must be {\"amountMinor\": <whole number of cents>, \"currency\": \"EUR\"}")
            }
            guard amount >= 0, amount <= FieldRule.maxAmountMinor else {
                throw FieldError(field, "'\(field).amountMinor' must be between 0 and 10^12")
            }
            guard Money.isValidCurrency(currency) else {
                throw FieldError(field, "'\(field).currency' must be an ISO 4217 code such as EUR or USD")
            }
            return Money(amountMinor: amount, currency: currency).jsonValue
        case .bool:
            guard case .bool = value else { throw FieldError(field, "'\(field)' must be true or false") }
            return value
        case .position:
            guard let s = value.stringValue, FractionalIndex.isValid(s) else {
                throw FieldError(field, "'\(field)' must be a fractional index")
            }
            return value
        case .entityID:
            guard let s = value.stringValue, FieldRule.isLowerHex(s, count: 32) else {
                throw FieldError(field, "'\(field)' must be an entity id (32 lowercase hex characters)")
            }
            return value
        case .key:
            guard let s = value.stringValue, FieldRule.isLowerHex(s, count: 64) else {
                throw FieldError(field, "'\(field)' must be a public key (64 lowercase hex characters)")
            }
            return value
        case .oneOf(let allowed):
            guard let s = value.stringValue, allowed.contains(s) else {
                throw FieldError(field, "'\(field)' must be one of \(allowed.sorted().joined(separator: ", "))")
            }
            return value
        case .timestamp:
            guard let s = value.stringValue, FieldRule.isTimestamp(s) else {
                throw FieldError(field, "'\(field)' must be an RFC 3339 time")
            }
            return value
        case .count:
            guard let i = value.intValue, i >= 1, i <= Int64(UInt32.max) else {
                throw FieldError(field, "'\(field)' must be a whole number from 1 to 4294967295")
            }
            return value
        case .wholeNumber(let min, let max):
            guard let i = value.intValue, i >= min, i <= max else {
                throw FieldError(field, "'\(field)' must be a whole number from \(min) to \(max)")
            }
            return .int(i)
        case .token:
            guard let s = value.stringValue, (1...4_096).contains(s.utf8.count),
                s.utf8.allSatisfy({ FieldRule.isBase64URL($0) })
            else { throw FieldError(field, "'\(field)' must be a capability token in base64url") }
            return value
        case .localDateTime:
            guard let s = value.stringValue, FieldRule.isLocalDateTime(s) else {
                throw FieldError(
                    field, "'\(field)' must be a date (YYYY-MM-DD) or a local date and time (YYYY-MM-DDTHH:MM)")
            }
            return value
        case .timeZone:
            guard let s = value.stringValue, FieldRule.isTimeZoneName(s) else {
                throw FieldError(field, "'\(field)' must be an IANA time zone name such as Europe/Lisbon")
            }
            return value
        case .currency:
            return try FieldRule.validateCurrency(field, value)
        case .rateTable:
            return try FieldRule.validateRateTable(field, value)
        case .expenseTerms:
            return try ExpenseTerms(json: value).json
        case .gazetteerID:
            guard let s = value.stringValue, FieldRule.isGazetteerID(s) else {
                throw FieldError(
                    field, "'\(field)' must be a discover result id such as city:2267057, region:PT.14 or country:PT")
            }
            return value
        case .optional(let inner):
            return try inner.validate(field, value)
        case .keys(let max):
            guard case .array(let items) = value, items.count <= max else {
                throw FieldError(field, "'\(field)' must be a list of at most \(max) public ids")
            }
            var keys = [String]()
            for item in items {
                guard let s = item.stringValue, FieldRule.isLowerHex(s, count: 64) else {
                    throw FieldError(field, "'\(field)' must hold public keys (64 lowercase hex characters)")
                }
                keys.append(s)
            }
            return .array(Array(Set(keys)).sorted().map(JSONValue.string))
        case .signature:
            guard let s = value.stringValue, FieldRule.isLowerHex(s, count: 128) else {
                throw FieldError(field, "'\(field)' must be a signature (128 lowercase hex characters)")
            }
            return value
        case .photos:
            return try FieldRule.validatePhotos(field, value)
        case .hostPort:
            guard let s = value.stringValue, HostPort.isValid(s) else {
                throw FieldError(field, "'\(field)' must be an address host:port of at most 64 bytes")
            }
            return value
        case .username:
            guard let s = value.stringValue, s.utf8.count <= 64 * 32, (1...32).contains(s.count),
                s.unicodeScalars.allSatisfy({
                    CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)
                })
            else { throw FieldError(field, "a username is 1–32 letters, digits, '.', '_' or '-'") }
            return value
        }
    }

    /// Whether `s` has the shape of a gazetteer result id (`.gazetteerID`).
    public static func isGazetteerID(_ s: String) -> Bool {
        let u = Array(s.utf8)
        func upper(_ b: UInt8) -> Bool { b >= 65 && b <= 90 }
        func digit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
        func rest(after prefix: String) -> ArraySlice<UInt8>? {
            let p = Array(prefix.utf8)
            return u.starts(with: p) ? u[p.count...] : nil
        }
        if let id = rest(after: "city:") {
            return (1...10).contains(id.count) && id.allSatisfy(digit) && id.first != 48
        }
        if let code = rest(after: "country:") { return code.count == 2 && code.allSatisfy(upper) }
        if let code = rest(after: "continent:") {
            return ["AF", "AN", "AS", "EU", "NA", "OC", "SA"].contains(String(decoding: code, as: UTF8.self))
        }
        if let code = rest(after: "region:") {
            let parts = code.split(separator: 46, omittingEmptySubsequences: false)
            return parts.count == 2 && parts[0].count == 2 && parts[0].allSatisfy(upper)
                && (1...20).contains(parts[1].count) && parts[1].allSatisfy { upper($0) || digit($0) }
        }
        return false
    }

    private var isLatitude: Bool { if case .latitude = self { true } else { false } }

    /// A real calendar date `YYYY-MM-DD` of the years 0001–9999 (`Protocol/op-format.md` §5
    /// "Dates and times"): digits only, no month 13, no February 30.
    public static func isDate(_ s: String) -> Bool { calendarDay(Array(s.utf8)) != nil }

    /// The days from 1970-01-01 to the date `YYYY-MM-DD` that `u` starts with (exactly 10
    /// bytes), or nil when it is not a real date of the years 0001–9999.
    static func calendarDay(_ u: [UInt8]) -> Int64? {
        guard u.count == 10, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"),
            let y = digits(u, 0, 4), let m = digits(u, 5, 2), let d = digits(u, 8, 2), y >= 1, (1...12).contains(m)
        else { return nil }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
        guard (1...days).contains(d) else { return nil }
        // Days from the civil date (H. Hinnant's algorithm); y ≤ 9999 keeps every product small.
        let yy = Int64(m <= 2 ? y - 1 : y)
        let era = yy / 400
        let yoe = yy - era * 400
        let mp = Int64(m > 2 ? m - 3 : m + 9)
        let doy = (153 * mp + 2) / 5 + Int64(d) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The number written by the `count` ASCII digits of `u` at `offset`, or nil when one is not
    /// a digit (no sign, no space). `count` ≤ 9, so it never overflows.
    static func digits(_ u: [UInt8], _ offset: Int, _ count: Int) -> Int? {
        guard offset >= 0, count <= 9, offset + count <= u.count else { return nil }
        var value = 0
        for b in u[offset..<(offset + count)] {
            guard (48...57).contains(b) else { return nil }
            // `b` is 48...57 (checked above): `b - 48` cannot wrap, and 9 digits fit an Int.
            value = value * 10 + Int(b - 48)
        }
        return value
    }

    /// `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM` (hours 00–23, minutes 00–59).
    public static func isLocalDateTime(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard u.count == 10 || u.count == 16, isDate(String(decoding: u[0..<10], as: UTF8.self)) else { return false }
        if u.count == 10 { return true }
        func digit(_ i: Int) -> Int? { (48...57).contains(u[i]) ? Int(u[i] - 48) : nil }
        guard u[10] == UInt8(ascii: "T"), u[13] == UInt8(ascii: ":"), let h1 = digit(11), let h2 = digit(12),
            let m1 = digit(14), let m2 = digit(15)
        else { return false }
        return h1 * 10 + h2 < 24 && m1 * 10 + m2 < 60
    }

    /// 1–64 characters of `A-Z a-z 0-9 / _ + -`, starting with a letter (the shape of every
    /// IANA zone name, `Etc/GMT+5` included).
    public static func isTimeZoneName(_ s: String) -> Bool {
        let u = s.utf8
        guard (1...64).contains(u.count), let first = u.first, (65...90).contains(first) || (97...122).contains(first)
        else { return false }
        return u.allSatisfy { b in
            (65...90).contains(b) || (97...122).contains(b) || (48...57).contains(b) || b == UInt8(ascii: "/")
                || b == UInt8(ascii: "_") || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
        }
    }

    /// Whether `s` is exactly `count` lowercase hex digits.
    public static func isLowerHex(_ s: String, count: Int) -> Bool {
        s.utf8.count == count && s.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Whether `s` is a timestamp a peer may give (`Protocol/op-format.md` §5 "Dates and times").
    public static func isTimestamp(_ s: String) -> Bool { timestampMs(s) != nil }

    /// The instant an RFC 3339 time names, in milliseconds since 1970-01-01T00:00:00Z, or nil
    /// unless it is `YYYY-MM-DDTHH:MM:SS`, optionally `.` and 1–9 digits, then `Z` or `±HH:MM`,
    /// with a real date, hours 00–23, minutes and seconds 00–59 (no leap second), an offset
    /// under 24 hours, and the instant within 1970-01-01T00:00:00Z … 9999-12-31T23:59:59.999Z
    /// (the range of an op's `timeMs`, `OpRules.maxTimeMs`).
    public static func timestampMs(_ s: String) -> Int64? {
        let u = Array(s.utf8)
        guard (20...64).contains(u.count), u[10] == UInt8(ascii: "T"), u[13] == UInt8(ascii: ":"),
            u[16] == UInt8(ascii: ":"), let day = calendarDay(Array(u[0..<10])), let hour = digits(u, 11, 2),
            let minute = digits(u, 14, 2), let second = digits(u, 17, 2), hour < 24, minute < 60, second < 60
        else { return nil }
        var i = 19
        var millis = 0
        if u[i] == UInt8(ascii: ".") {
            var count = 0
            i += 1
            while i < u.count, (48...57).contains(u[i]) {
                // `u[i]` is 48...57 (the loop's condition) and at most 3 digits count: no trap.
                if count < 3 { millis = millis * 10 + Int(u[i] - 48) }
                count += 1
                i += 1
            }
            guard (1...9).contains(count) else { return nil }
            if count == 1 { millis *= 100 } else if count == 2 { millis *= 10 }
        }
        var offsetMinutes = 0
        guard i < u.count else { return nil }
        if u[i] == UInt8(ascii: "Z") {
            i += 1
        } else {
            guard u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-"), i + 6 == u.count,
                u[i + 3] == UInt8(ascii: ":"), let oh = digits(u, i + 1, 2), let om = digits(u, i + 4, 2), oh < 24,
                om < 60
            else { return nil }
            offsetMinutes = (oh * 60 + om) * (u[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        }
        guard i == u.count else { return nil }
        // |day| < 3 million and every other part is bounded above: no product comes near Int64's range.
        let seconds = day * 86_400 + Int64(hour * 3_600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        let ms = seconds * 1_000 + Int64(millis)
        guard (0...OpRules.maxTimeMs).contains(ms) else { return nil }
        return ms
    }

    static func isBase64URL(_ b: UInt8) -> Bool {
        (65...90).contains(b) || (97...122).contains(b) || (48...57).contains(b) || b == UInt8(ascii: "-")
            || b == UInt8(ascii: "_")
    }

    /// Validates a request object against `rules`. `creating` demands every required field.
    /// Returns the stored fields in a stable order. Unknown fields are refused by name.
    public static func validatedFields(
        _ object: [String: JSONValue], rules: [String: FieldRule], creating: Bool, ignoring: Set<String> = []
    ) throws(FieldError) -> [(String, JSONValue)] {
        var out = [(String, JSONValue)]()
        for key in object.keys.sorted() where !ignoring.contains(key) {
            guard let rule = rules[key], let value = object[key] else {
                let known = rules.keys.sorted().joined(separator: ", ")
                throw FieldError(key, "unknown field '\(key)'; the fields are: \(known)")
            }
            out.append((key, try rule.validate(key, value)))
        }
        if creating {
            for (key, rule) in rules where rule.isRequired && object[key] == nil {
                throw FieldError(key, "'\(key)' is required")
            }
        }
        return out
    }
}
