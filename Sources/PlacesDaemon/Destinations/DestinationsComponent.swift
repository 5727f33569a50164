import Foundation
import PlacesDestinations
import PlacesGazetteer
import PlacesModel
import PlacesRoutes

/// Destinations (issue 33): the places the person is going, "here", and the weather kept
/// for each.
///
/// A component of the engine (docs/devices-design.md §1). It owns the gazetteer's time
/// zones once loaded, what the dashboard reads of the store for one store generation (the
/// saved places and upcoming trips, with the city each point lies in), and the weather
/// cache with its schedule. The destinations themselves are settings (`Destination.swift`).
struct DestinationsComponent: EngineComponent {
    /// The clock the dashboard and the weather schedule read: tests move it.
    var now: @Sendable () -> Date = { Date() }
    /// The weather client: tests shorten its deadline.
    var client = WeatherClient()
    /// The gazetteer's geography once the first destination request loaded it.
    var geography: DestinationGeography?
    /// What the dashboard reads of the store, for one store generation.
    var inputs: DashboardInputs?
    /// What each destination's card lists of `inputs` (by `CardContent.key`), for the same
    /// generation: a dashboard reads the 10,000 places once per destination and generation,
    /// not once per request.
    var cardContents: [String: CardContent] = [:]
    /// The weather kept per destination id (`here` included).
    var weather: [String: WeatherEntry] = [:]
    /// When something last showed the dashboard: the weather is fetched only while it is
    /// looked at (`watchSeconds`) or a trip starts within 7 days.
    var lastViewed: Date?
    /// Wakes the weather loop before its next round; nil until the loop runs.
    var wake: AsyncStream<Void>.Continuation?

    /// How long after a dashboard view the weather is still kept fresh.
    static let watchSeconds: TimeInterval = 15 * 60
    /// At most one fetch per destination in this time.
    static let fetchIntervalSeconds: TimeInterval = 3_600
    /// A kept forecast older than this is `stale`.
    static let staleSeconds: TimeInterval = 3 * 3_600
    /// A kept forecast older than this is dropped (its days are past).
    static let maxAgeSeconds: TimeInterval = 8 * 86_400

    /// The weather kept for one destination and the last attempt to fetch it.
    struct WeatherEntry: Sendable {
        /// The source and coordinates (0.01°) it was fetched for: another source or a moved
        /// "here" is fetched anew.
        var key: String
        var report: WeatherReport?
        var fetchedAt: Date?
        var lastAttempt: Date?
        /// Why the last attempt failed; nil after a success.
        var lastError: String?
        /// A fetch is under way.
        var inFlight = false

        /// Whether a fetch may start now: none under way, and no attempt in the last hour.
        func isDue(at now: Date) -> Bool {
            !inFlight
                && (lastAttempt.map { now.timeIntervalSince($0) >= DestinationsComponent.fetchIntervalSeconds } ?? true)
        }
    }

    /// What the dashboard reads of the store, with the city of each point.
    struct DashboardInputs {
        var generation: UInt64
        var places: [Engine.SavedPlace]
        /// The city each of `places` lies in (nil when none within 30 km).
        var placeCities: [Int?]
        var trips: [UpcomingTrip]
    }

    /// The places that lie in one destination, as its card orders them (hers first, then by
    /// name and id), and the published trips explore ranks for it, for one store generation.
    struct CardContent {
        var generation: UInt64
        var places: [(place: Engine.SavedPlace, mine: Bool)]
        var explore: [JSONValue]
        /// The spot of the day last picked: for that local date and those visited places.
        var spot: (date: String, visited: Set<String>, index: Int?)?

        /// What the content depends on of a destination: its id, kind, position and name.
        static func key(_ d: Destination) -> String { "\(d.id) \(d.kind) \(d.latitude),\(d.longitude) \(d.name)" }
    }

    /// A trip of hers that has not ended, with its points.
    struct UpcomingTrip {
        var id: String
        var name: String
        var startDate: String?
        var endDate: String?
        var points: [(point: GeoPoint, city: Int?)]
    }

    /// A store write makes the dashboard read again (checked by generation); nothing else
    /// to drop.
    mutating func didStore(_ change: StoreChange) {}

    /// Another identity: nothing of the previous one's weather or places is kept.
    mutating func didChangeIdentity() {
        inputs = nil
        cardContents = [:]
        weather = [:]
        lastViewed = nil
    }

    /// The cache key of a destination's weather: the source and the coordinates sent.
    static func weatherKey(_ source: WeatherSource, latitude: Double, longitude: Double) -> String {
        "\(source.url) \(WeatherSource.hundredths(latitude)),\(WeatherSource.hundredths(longitude))"
    }
}
