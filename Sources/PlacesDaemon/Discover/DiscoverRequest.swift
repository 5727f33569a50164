import PlacesGazetteer

/// `GET /v1/discover`'s query string, checked against the bounds in
/// `Protocol/control-api.yaml` (each refusal is a 400 `bad-query` naming its parameter).
struct DiscoverRequest {
    static let maxQueryCharacters = 200
    static let maxLimit = 100
    static let defaultLimit = 20
    static let parameters: Set<String> = ["q", "kind", "near", "limit", "sort"]

    var text: String
    var kinds: Set<DiscoverKind>?
    var near: (latitude: Double, longitude: Double)?
    var limit: Int
    /// Nil when the request gives none (the kept preference applies).
    var sort: PopularitySort?

    init(_ query: [String: String]) throws {
        if let unknown = query.keys.sorted().first(where: { !Self.parameters.contains($0) }) {
            throw ServiceError(
                .badQuery, "unknown parameter '\(unknown.prefix(40))': discover takes q, kind, near, limit and sort",
                field: String(unknown.prefix(40)))
        }
        let text = (query["q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw ServiceError(.badQuery, "'q' must not be empty", field: "q") }
        guard text.count <= Self.maxQueryCharacters else {
            throw ServiceError(
                .badQuery, "'q' has \(text.count) characters; at most \(Self.maxQueryCharacters) are allowed",
                field: "q")
        }
        self.text = text
        if let raw = query["kind"] {
            var kinds = Set<DiscoverKind>()
            for name in raw.split(separator: ",", omittingEmptySubsequences: false) {
                guard let kind = DiscoverKind(rawValue: String(name)) else {
                    throw ServiceError(
                        .badQuery,
                        "kind '\(name.prefix(40))' is not one of city, region, country, continent, place", field: "kind"
                    )
                }
                kinds.insert(kind)
            }
            self.kinds = kinds
        }
        if let raw = query["near"] { near = try Self.coordinate(raw) }
        if let raw = query["limit"] {
            guard let limit = Int(raw), (1...Self.maxLimit).contains(limit) else {
                throw ServiceError(
                    .badQuery, "'limit' must be a whole number from 1 to \(Self.maxLimit), not '\(raw.prefix(40))'",
                    field: "limit")
            }
            self.limit = limit
        } else {
            limit = Self.defaultLimit
        }
        if let raw = query["sort"] { sort = try Self.sort(raw, field: "sort") }
    }

    /// `LAT,LON` in degrees, within the globe.
    static func coordinate(_ raw: String) throws -> (latitude: Double, longitude: Double) {
        let parts = raw.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
            let lon = Double(parts[1].trimmingCharacters(in: .whitespaces)), lat.isFinite, lon.isFinite
        else {
            throw ServiceError(
                .badQuery, "'near' must be LATITUDE,LONGITUDE in degrees, such as 38.72,-9.14, not '\(raw.prefix(60))'",
                field: "near")
        }
        guard (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw ServiceError(
                .badQuery, "'near' is outside the globe: latitude must be within ±90 and longitude within ±180",
                field: "near")
        }
        return (lat, lon)
    }

    /// `descending`, `ascending` or `off` (also `desc`, `asc`).
    static func sort(_ raw: String, field: String) throws -> PopularitySort {
        switch raw {
        case "descending", "desc": .descending
        case "ascending", "asc": .ascending
        case "off": .off
        default:
            throw ServiceError(
                field == "sort" ? .badQuery : .invalidField,
                "'\(field)' must be descending, ascending or off, not '\(raw.prefix(40))'", field: field)
        }
    }

    /// A sort's name in the API.
    static func name(_ sort: PopularitySort) -> String {
        switch sort {
        case .descending: "descending"
        case .ascending: "ascending"
        case .off: "off"
        }
    }
}
