import PlacesModel
import PlacesPlanner
import PlacesRoutes
import PlacesTrips

/// `POST /v1/plans`'s body, checked field by field (every refusal a 400 naming the field;
/// nothing is written before the whole body is read). References (places, the itinerary,
/// `near`) are resolved by the engine.
struct PlanRequest {
    static let fields: Set<String> = [
        "near", "radiusKm", "startDate", "endDate", "dayStart", "dayEnd", "stay", "mode", "budget", "interests",
        "pace", "must", "avoid", "itinerary", "apply", "create", "timeBudgetMs",
    ]
    /// The longest trip a plan covers.
    static let maxDays = 14
    static let maxRadiusKm = 200.0
    static let maxReferences = 50
    static let maxTimeBudgetMs = 10_000

    var near: String?
    var radiusKm: Double?
    var startDate: LocalDate?
    var endDate: LocalDate?
    var dayStart: Int?
    var dayEnd: Int?
    /// A place reference, or a position.
    var stay: Stay?
    var mode: TravelMode?
    var budget: Money?
    /// As given (each one must be a category the user has: checked by the engine).
    var interests: [String] = []
    var pace: PlanPace = .normal
    var must: [String] = []
    var avoid: [String] = []
    var itinerary: String?
    /// Write the plan into `itinerary`.
    var apply = false
    var create: String?
    var timeBudgetMs: Int?

    enum Stay {
        case place(String)
        case point(GeoPoint)
    }

    init(_ body: [String: JSONValue]) throws {
        for key in body.keys.sorted() where !Self.fields.contains(key) {
            throw ServiceError.invalid(
                key,
                "unknown field '\(key.prefix(64))'; the fields are: \(Self.fields.sorted().joined(separator: ", "))")
        }
        func string(_ key: String, max: Int = 200) throws -> String? {
            guard let value = body[key], !value.isNull else { return nil }
            guard let s = value.stringValue, !s.isEmpty, s.count <= max else {
                throw ServiceError.invalid(key, "'\(key)' must be a non-empty string of at most \(max) characters")
            }
            return s
        }
        func strings(_ key: String) throws -> [String] {
            guard let value = body[key], !value.isNull else { return [] }
            guard case .array(let items) = value, items.count <= Self.maxReferences else {
                throw ServiceError.invalid(key, "'\(key)' must be a list of at most \(Self.maxReferences) strings")
            }
            return try items.enumerated().map { i, item in
                guard let s = item.stringValue, !s.isEmpty, s.count <= 200 else {
                    throw ServiceError.invalid("\(key)[\(i)]", "each of '\(key)' must be a non-empty string")
                }
                return s
            }
        }
        func date(_ key: String) throws -> LocalDate? {
            guard let text = try string(key, max: 10) else { return nil }
            guard FieldRule.isDate(text), let day = LocalDate(text) else {
                throw ServiceError.invalid(key, "'\(key)' must be a date written YYYY-MM-DD")
            }
            return day
        }
        func clock(_ key: String) throws -> Int? {
            guard let text = try string(key, max: 5) else { return nil }
            let parts = text.split(separator: ":")
            guard text.count == 5, parts.count == 2, text.utf8.allSatisfy({ $0 == 0x3A || (0x30...0x39).contains($0) }),
                let h = Int(parts[0]), let m = Int(parts[1]), (0...24).contains(h), (0...59).contains(m),
                h * 60 + m <= 1_440
            else { throw ServiceError.invalid(key, "'\(key)' must be a time written HH:MM, 00:00 to 24:00") }
            return h * 60 + m
        }

        near = try string("near")
        if let value = body["radiusKm"], !value.isNull {
            guard let km = value.doubleValue, km.isFinite, km > 0, km <= Self.maxRadiusKm else {
                throw ServiceError.invalid("radiusKm", "'radiusKm' must be a number above 0 and at most 200")
            }
            radiusKm = km
        }
        startDate = try date("startDate")
        endDate = try date("endDate")
        if let startDate, let endDate {
            guard endDate >= startDate else {
                throw ServiceError.invalid("endDate", "'endDate' \(endDate) is before 'startDate' \(startDate)")
            }
            guard endDate.dayNumber - startDate.dayNumber < Self.maxDays else {
                throw ServiceError.invalid("endDate", "a plan covers at most \(Self.maxDays) days")
            }
        }
        dayStart = try clock("dayStart")
        dayEnd = try clock("dayEnd")
        if let dayStart, let dayEnd, dayEnd <= dayStart {
            throw ServiceError.invalid("dayEnd", "'dayEnd' must be after 'dayStart'")
        }
        if let value = body["stay"], !value.isNull {
            if value.stringValue != nil, let s = try string("stay") {
                stay = .place(s)
            } else if case .object(let o) = value, o.count == 2, let lat = o["latitude"]?.doubleValue,
                let lon = o["longitude"]?.doubleValue, lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180
            {
                stay = .point(GeoPoint(latitude: lat, longitude: lon))
            } else {
                throw ServiceError.invalid(
                    "stay", "'stay' must be a place (its id or name) or {\"latitude\", \"longitude\"} in range")
            }
        }
        if let text = try string("mode", max: 10) {
            guard let m = TravelMode(rawValue: text) else {
                throw ServiceError.invalid("mode", "'mode' must be walking, cycling or driving")
            }
            mode = m
        }
        if let value = body["budget"], !value.isNull {
            do {
                guard case .object(let money) = try FieldRule.money.validate("budget", value),
                    let minor = money["amountMinor"]?.intValue, let currency = money["currency"]?.stringValue
                else { throw ServiceError.invalid("budget", "'budget' must be {\"amountMinor\", \"currency\"}") }
                // A code no price can be converted to would leave every priced place out.
                guard CurrencyTable.minorDigits(currency) != nil else {
                    throw ServiceError.invalid(
                        "budget", "'budget.currency' \(currency) is not a currency money is kept in")
                }
                budget = Money(amountMinor: minor, currency: currency)
            } catch let error as FieldError {
                throw ServiceError.invalid("budget", error.message)
            }
        }
        interests = try strings("interests")
        if let text = try string("pace", max: 10) {
            guard let p = PlanPace(rawValue: text) else {
                throw ServiceError.invalid("pace", "'pace' must be relaxed, normal or packed")
            }
            pace = p
        }
        must = try strings("must")
        avoid = try strings("avoid")
        itinerary = try string("itinerary")
        create = try string("create")
        if let name = create, name.allSatisfy(\.isWhitespace) {
            throw ServiceError.invalid("create", "'create' must name the new trip: it is only spaces")
        }
        if let value = body["timeBudgetMs"], !value.isNull {
            guard let ms = value.intValue, ms >= 1, ms <= Int64(Self.maxTimeBudgetMs) else {
                throw ServiceError.invalid("timeBudgetMs", "'timeBudgetMs' must be from 1 to \(Self.maxTimeBudgetMs)")
            }
            // Cannot trap: `ms` is checked to 1…10,000 above, and Int is 64 bits.
            timeBudgetMs = Int(ms)
        }
        if let value = body["apply"], !value.isNull {
            guard case .bool(let b) = value else {
                throw ServiceError.invalid("apply", "'apply' must be true or false")
            }
            apply = b
        }
        if apply, itinerary == nil {
            throw ServiceError.invalid("apply", "'apply' writes the plan into 'itinerary': name the itinerary")
        }
        if apply, create != nil {
            throw ServiceError.invalid("create", "give 'create' (a new trip) or 'apply' (into 'itinerary'), not both")
        }
    }
}
