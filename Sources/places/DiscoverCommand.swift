import ArgumentParser
import Foundation

/// `places discover`: search cities, regions, countries, continents, your places and your
/// contacts' shared favorites, offline.
struct DiscoverCommand: ParsableCommand {
    /// The `--sort` values a user types and the preference each sets.
    enum Sort: String, ExpressibleByArgument, CaseIterable {
        case desc, asc, off, descending, ascending

        /// The API's value.
        var preference: String {
            switch self {
            case .desc, .descending: "descending"
            case .asc, .ascending: "ascending"
            case .off: "off"
            }
        }

        static var allValueStrings: [String] { ["desc", "asc", "off"] }
    }

    static let configuration = CommandConfiguration(
        commandName: "discover",
        abstract: "Find a city, region, country or continent (or one of your or your contacts' places).",
        discussion: """
            Matching ignores case and accents and knows other names (Lisboa, München, Wien); \
            a prefix completes ("par" finds Paris first) and a typo in a longer word is forgiven. \
            Results: exact name before prefix before fuzzy; a city before the region of the same \
            name; then the bigger; with --near, the nearer first.

            --sort desc|asc orders by POPULAR (people you know who saved the place) and is \
            kept for later searches until `places discover --sort off`. Without QUERY, \
            --sort only sets it; `places discover` alone shows it.

            Use a result's ID (or its name) in `places place add`, `places favorite add` and \
            `places itinerary add-place`.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "What to look for (1 to 200 characters).")
    var query: String?

    @Option(help: ArgumentHelp("Only this kind: city, region, country, continent or place.", valueName: "kind"))
    var kind: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Nearer first among equal matches, e.g. --near 39.8,-89.6.", valueName: "lat,lon"))
    var near: String?

    @Option(help: ArgumentHelp("At most this many results, 1 to 100 (default 20).", valueName: "n"))
    var limit: Int?

    @Option(help: ArgumentHelp("Sort by popularity from now on: desc, asc or off (kept).", valueName: "order"))
    var sort: Sort?

    static let kinds = ["city", "region", "country", "continent", "place"]

    func validate() throws {
        if let query {
            let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { throw ValidationError("the query is empty: say what to look for") }
            if query.count > 200 { throw ValidationError("the query is \(query.count) characters; 200 at most") }
        }
        if let kind, !Self.kinds.contains(kind) {
            throw ValidationError("--kind must be one of \(Self.kinds.joined(separator: ", ")), not “\(kind)”")
        }
        if let limit, !(1...100).contains(limit) { throw ValidationError("--limit must be 1 to 100, not \(limit)") }
        if let near { _ = try Self.coordinates(near) }
        if query == nil && (kind != nil || near != nil || limit != nil) {
            throw ValidationError("--kind, --near and --limit need a QUERY")
        }
    }

    /// Parses `LAT,LON` (decimal degrees, on the globe).
    static func coordinates(_ text: String) throws -> (latitude: Double, longitude: Double) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
            latitude.isFinite, longitude.isFinite
        else { throw ValidationError("--near '\(text)' is not LAT,LON like 39.8,-89.6") }
        try validateCoordinates(latitude: latitude, longitude: longitude)
        return (latitude, longitude)
    }

    func run() throws {
        let api = global.api
        if let sort {
            let reply = try api.send("PUT", Target.v1("preferences"), body: Preferences(discoverSort: sort.preference))
            let saved = (try? reply.decode(Preferences.self).discoverSort) ?? sort.preference
            let line = "discover sort: \(Self.describe(sort: saved)) (kept for later searches)"
            guard query != nil else {
                if global.json { return printRaw(reply) }
                return print(line)
            }
            printError(line)
        }
        guard let query else {
            let reply = try api.get(Target.v1("preferences"))
            if global.json { return printRaw(reply) }
            let current = try reply.decode(Preferences.self).discoverSort
            return print("discover sort: \(Self.describe(sort: current)); search with `places discover QUERY`")
        }
        let reply = try api.get(
            Target.v1(
                "discover",
                query: [("q", query), ("kind", kind), ("near", near), ("limit", limit.map(String.init))]))
        if global.json { return printRaw(reply) }
        let results = try reply.decode(DiscoverResults.self).results
        guard !results.isEmpty else {
            return print("nothing found for “\(query)”\(kind.map { " among \($0) results" } ?? "")")
        }
        Self.printResults(results)
    }

    /// "off (best match first)", "descending (most popular first)"…
    static func describe(sort: String) -> String {
        switch sort {
        case "descending": "descending (most saved by people you know first)"
        case "ascending": "ascending (least saved by people you know first)"
        case "off": "off (best match first)"
        default: sort
        }
    }

    /// The results table: rank, name, kind, where, population, popularity, ♥, id.
    static func printResults(_ results: [DiscoverResult]) {
        var table = Table(
            "#", "NAME", "KIND", "WHERE", "POPULATION", "POPULAR", "♥", "ID",
            alignments: [.right, .left, .left, .left, .right, .right])
        for (rank, result) in results.enumerated() {
            table.append(
                String(rank + 1), result.name, result.kind, result.whereText, Format.population(result.population),
                String(result.popularity ?? 0), result.favorite == true ? "♥" : "", result.id)
        }
        table.print()
    }
}
