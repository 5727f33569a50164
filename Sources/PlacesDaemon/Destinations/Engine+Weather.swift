import Foundation
import PlacesDestinations
import PlacesModel
import PlacesStore

/// The weather of the dashboard (docs/destinations.md, "Weather"): off until the person
/// names a source; then fetched by a loop off the engine, at most once an hour per
/// destination, only while the dashboard is looked at or a trip starts within 7 days; kept
/// (on this device, across restarts) and shown with its age. A request never waits for it.
extension Engine {
    static let weatherSetting = "weather.source"
    /// The prefix of the keys of the device's cache (`Store.localCache`, written without
    /// moving the store's generation) the last forecast of each destination is kept under.
    static let weatherCachePrefix = "weather."

    /// The configured source; nil when none (or the kept text no longer parses).
    func weatherSource() -> WeatherSource? {
        guard let text = try? store.preference(Self.weatherSetting) else { return nil }
        return try? WeatherSource(text)
    }

    /// `weatherSource` of a `PUT /v1/preferences` body: nil when not named, `.some(nil)` to
    /// turn the weather off, else the checked URL.
    func checkedWeatherSource(_ body: [String: JSONValue]) throws -> String?? {
        guard let value = body["weatherSource"] else { return nil }
        if value.isNull { return .some(nil) }
        guard let text = value.stringValue else {
            throw ServiceError.invalid("weatherSource", "'weatherSource' must be an http(s) URL or null")
        }
        do { return .some(try WeatherSource(text).url) } catch {
            throw ServiceError.invalid("weatherSource", "'weatherSource': \(error.description)")
        }
    }

    /// Keeps the source (nil: off). A new source forgets the schedule: its first fetch may
    /// come at once.
    func setWeatherSource(_ url: String?) throws {
        try storeCall { () throws(StoreError) in try store.setPreference(Self.weatherSetting, url) }
        for id in destinationsComponent.weather.keys { destinationsComponent.weather[id]?.lastAttempt = nil }
        nudgeWeather()
    }

    /// The card's `weather`, `weatherStatus` and `weatherError`; `due` when a fetch for it
    /// is due (`weatherDue` would start one) and none is under way.
    func weatherCard(_ d: Destination, source: WeatherSource?, now: Date) -> (
        weather: JSONValue, status: String, error: String?, due: Bool
    ) {
        guard let source else { return (.null, "off", nil, false) }
        let key = DestinationsComponent.weatherKey(source, latitude: d.latitude, longitude: d.longitude)
        let entry = weatherEntry(d.id, key: key)
        let due = entry?.isDue(at: now) ?? true
        guard let entry, let report = entry.report, let fetchedAt = entry.fetchedAt else {
            return (.null, "unavailable", entry?.lastError ?? "not fetched yet", due)
        }
        let age = max(0, now.timeIntervalSince(fetchedAt))
        let status = entry.lastError == nil && age <= DestinationsComponent.staleSeconds ? "ok" : "stale"
        let weather: JSONValue = .object([
            "source": .string(source.url),
            "fetchedAt": .string(RFC3339.string(ms: Int64(fetchedAt.timeIntervalSince1970 * 1_000))),
            "ageMinutes": .int(Int64(min(age, 1e9) / 60)),
            "current": .object([
                "temperatureC": .number(report.current.temperatureC), "condition": .string(report.current.condition),
                "windKmh": .number(report.current.windKmh), "code": .int(Int64(report.current.code)),
            ]),
            "daily": .array(
                report.daily.map { day in
                    .object([
                        "date": .string(day.date), "minC": .number(day.minC), "maxC": .number(day.maxC),
                        "condition": .string(day.condition), "precipitationMm": .number(day.precipitationMm),
                        "code": .int(Int64(day.code)),
                    ])
                }),
        ])
        return (weather, status, entry.lastError, due)
    }

    /// The kept entry for a destination and key: memory first, else the device's cache (a
    /// forecast fetched before a restart). Nil for another key (source or position).
    func weatherEntry(_ id: String, key: String) -> DestinationsComponent.WeatherEntry? {
        if let entry = destinationsComponent.weather[id] { return entry.key == key ? entry : nil }
        guard let text = try? store.localCache(Self.weatherCachePrefix + id),
            let kept = try? JSONDecoder().decode(KeptWeather.self, from: Data(text.utf8)), kept.key == key,
            destinationsComponent.now().timeIntervalSince(kept.fetchedAt) <= DestinationsComponent.maxAgeSeconds
        else { return nil }
        let entry = DestinationsComponent.WeatherEntry(
            key: key, report: kept.report, fetchedAt: kept.fetchedAt, lastAttempt: nil, lastError: nil)
        destinationsComponent.weather[id] = entry
        return entry
    }

    /// A forecast as the device keeps it.
    struct KeptWeather: Codable {
        var key: String
        var fetchedAt: Date
        var report: WeatherReport
    }

    /// One fetch the loop is to make.
    struct WeatherJob: Sendable {
        var id: String
        var key: String
        var source: WeatherSource
        var latitude: Double
        var longitude: Double
    }

    /// The fetches due now (each marked under way): a source is set, and the destination's
    /// dashboard was looked at in the last 15 minutes or one of her trips there starts within
    /// 7 days; its last attempt is an hour old or more.
    func weatherDue() -> [WeatherJob] {
        guard identity != nil, let source = weatherSource(), let geography = try? destinationGeography(),
            let inputs = try? dashboardInputs(geography)
        else { return [] }
        let now = destinationsComponent.now()
        let watched =
            destinationsComponent.lastViewed.map {
                now.timeIntervalSince($0) <= DestinationsComponent.watchSeconds
            } ?? false
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        let c = calendar.dateComponents([.year, .month, .day], from: now)
        let today = Self.dateText(c.year ?? 1970, c.month ?? 1, c.day ?? 1)
        var all = keptDestinations()
        for (d, _) in tripDestinations(inputs, geography) where !all.contains(where: { $0.id == d.id }) {
            all.append(d)
        }
        if let here = keptHere() {
            all.append(
                Destination(
                    id: "here", name: here.name, kind: "here", latitude: here.latitude, longitude: here.longitude,
                    timeZone: here.timeZone))
        }
        var jobs = [WeatherJob]()
        for d in all {
            let soon = tripsIn(d, inputs, geography, today: today).contains { trip in
                guard case .int(let days)? = trip.objectValue?["daysUntil"] else { return false }
                // Under way (negative) or starting within 7 days: the upcoming trips have not ended.
                return days <= 7
            }
            guard watched || soon else { continue }
            let key = DestinationsComponent.weatherKey(source, latitude: d.latitude, longitude: d.longitude)
            var entry = weatherEntry(d.id, key: key) ?? .init(key: key)
            guard entry.isDue(at: now) else { continue }
            entry.inFlight = true
            entry.lastAttempt = now
            destinationsComponent.weather[d.id] = entry
            jobs.append(WeatherJob(id: d.id, key: key, source: source, latitude: d.latitude, longitude: d.longitude))
        }
        return jobs
    }

    /// A fetch's outcome, kept (a failure keeps the previous forecast, now `stale`).
    func weatherFetched(_ job: WeatherJob, _ result: Result<WeatherReport, WeatherError>) {
        guard var entry = destinationsComponent.weather[job.id], entry.key == job.key else { return }
        entry.inFlight = false
        switch result {
        case .success(let report):
            let now = destinationsComponent.now()
            entry.report = report
            entry.fetchedAt = now
            entry.lastError = nil
            if let data = try? JSONEncoder().encode(KeptWeather(key: job.key, fetchedAt: now, report: report)) {
                // Quiet: the read caches keyed on the store's generation stay (the dashboard
                // reads the weather from memory, not through them).
                try? store.setLocalCache(Self.weatherCachePrefix + job.id, String(decoding: data, as: UTF8.self))
            }
        case .failure(let error):
            entry.lastError = error.description
            logger.info("weather unavailable", metadata: ["error": "\(error)"])
        }
        destinationsComponent.weather[job.id] = entry
    }

    /// Starts the weather loop if it is not running, and wakes it.
    func nudgeWeather() {
        if destinationsComponent.wake == nil {
            let (stream, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            destinationsComponent.wake = wake
            // The loop bridges the engine to the network: it never holds the engine while a
            // fetch is under way, and ends with the engine (its stream finishes then).
            let weak = WeakEngine(self)
            Task { await Self.weatherLoop(weak, stream: stream) }
            Task { [weak self] in
                while !Task.isCancelled, let engine = self, await engine.wakeWeather() {
                    try? await Task.sleep(for: .seconds(60))
                }
            }
        }
        destinationsComponent.wake?.yield()
    }

    /// The fetches due now and the client to make them with (read each round: a test may
    /// set its deadline or trust roots after the loop started).
    func weatherRound() -> ([WeatherJob], WeatherClient) { (weatherDue(), destinationsComponent.client) }

    /// Wakes the weather loop; false once it has none.
    func wakeWeather() -> Bool {
        guard let wake = destinationsComponent.wake else { return false }
        wake.yield()
        return true
    }

    /// Each wake: the due fetches, made side by side off the engine, their outcomes kept.
    private static func weatherLoop(_ engine: WeakEngine, stream: AsyncStream<Void>) async {
        for await _ in stream {
            guard let (jobs, client) = await engine.engine?.weatherRound(), !jobs.isEmpty else { continue }
            await withTaskGroup(of: Void.self) { group in
                for job in jobs {
                    group.addTask {
                        let result: Result<WeatherReport, WeatherError>
                        do throws(WeatherError) {
                            result = .success(
                                try await client.fetch(job.source, latitude: job.latitude, longitude: job.longitude))
                        } catch {
                            result = .failure(error)
                        }
                        await engine.engine?.weatherFetched(job, result)
                    }
                }
            }
        }
    }
}

/// The engine, not kept alive by the weather loop that holds this.
final class WeakEngine: @unchecked Sendable {
    // Written once, in `init`; read from the loop's tasks.
    weak var engine: Engine?

    init(_ engine: Engine) { self.engine = engine }
}
