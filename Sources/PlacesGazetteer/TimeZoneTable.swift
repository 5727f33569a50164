import Foundation

/// The IANA time zone of every city of the gazetteer (`timezones.tsv`, made from the same
/// GeoNames data by contrib/gazetteer/build-timezones.py; its docstring gives the format).
///
/// Kept as runs of ascending GeoNames ids: neighbouring ids mostly share a zone, so the
/// table is ~10,000 runs for ~69,000 cities. Any id may be asked (from a peer or a request);
/// an id of no city gets the zone of the run it falls in, which is why callers ask only for
/// ids the gazetteer holds.
public struct TimeZoneTable: Sendable {
    /// The zone names, by index.
    public let zones: [String]
    /// The first city id of each run, ascending.
    let runStarts: [UInt32]
    /// Each run's zone (an index into `zones`).
    let runZones: [UInt16]

    /// The first field of the file's first line.
    static let magic = "places-timezones"
    /// More zones or runs than this is not a table but an attack on memory.
    static let maxZones = 2_000
    static let maxRuns = 1_000_000

    /// An empty table: every lookup says nil.
    public init() {
        zones = []
        runStarts = []
        runZones = []
    }

    /// Reads a table from its bytes; throws `GazetteerError` (`.malformed`, naming the line)
    /// on anything but the format: a count out of bounds, ids not ascending, a zone index
    /// out of range, a zone name that is not `Area/Location`-like text.
    public init(bytes: some Collection<UInt8>, file: String = "timezones.tsv") throws {
        let text = String(decoding: Array(bytes), as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().filter {
            !$0.element.hasPrefix("#") && !$0.element.isEmpty
        }.makeIterator()
        func fail(_ line: Int, _ what: String) -> GazetteerError {
            GazetteerError(.malformed, "\(file), line \(line + 1): \(what)", line: line + 1)
        }
        guard let (n, header) = lines.next() else { throw fail(0, "empty file") }
        let fields = header.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0] == Self.magic, fields[1] == "1",
            let zoneCount = Int(fields[2]), (0...Self.maxZones).contains(zoneCount),
            let runCount = Int(fields[3]), (0...Self.maxRuns).contains(runCount)
        else { throw fail(n, "not a places-timezones file of version 1") }
        var zones = [String]()
        zones.reserveCapacity(zoneCount)
        for _ in 0..<zoneCount {
            guard let (i, line) = lines.next() else { throw fail(n, "fewer zones than the header says") }
            guard (1...64).contains(line.utf8.count),
                line.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: "\t") })
            else { throw fail(i, "a zone name is 1-64 printable ASCII characters") }
            zones.append(String(line))
        }
        var starts = [UInt32](), runZones = [UInt16]()
        starts.reserveCapacity(runCount)
        runZones.reserveCapacity(runCount)
        for _ in 0..<runCount {
            guard let (i, line) = lines.next() else { throw fail(n, "fewer runs than the header says") }
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count == 2, let start = UInt32(parts[0]), let zone = UInt16(parts[1]), Int(zone) < zoneCount
            else { throw fail(i, "a run is <first city id> TAB <zone index below \(zoneCount)>") }
            if let last = starts.last, start <= last { throw fail(i, "run ids must ascend") }
            starts.append(start)
            runZones.append(zone)
        }
        if let (i, _) = lines.next() { throw fail(i, "more lines than the header says") }
        self.zones = zones
        self.runStarts = starts
        self.runZones = runZones
    }

    /// The zone of the city with this GeoNames id; nil below the first run or for an empty
    /// table.
    public func zone(ofCityID id: UInt32) -> String? {
        // The last run starting at or below `id`.
        var low = 0, high = runStarts.count
        while low < high {
            let mid = (low + high) / 2
            if runStarts[mid] <= id { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        return zones[Int(runZones[low - 1])]
    }

    /// The number of runs (for tests and logs).
    public var runCount: Int { runStarts.count }

    /// The table shipped with this build: `timezones.tsv` beside the gazetteer in use
    /// (`Gazetteer.bundledURL()`), else where SwiftPM copies the bundled one, else this source
    /// tree's. An empty table when there is none (a test gazetteer of its own): callers then
    /// fall back on the position's nautical zone.
    public static func bundled(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executableURL: URL? = Bundle.main.executableURL
    ) -> TimeZoneTable {
        var candidates = [URL]()
        if let gazetteer = try? Gazetteer.bundledURL(environment: environment, executableURL: executableURL) {
            candidates.append(gazetteer.deletingLastPathComponent().appendingPathComponent("timezones.tsv"))
        }
        if let executableURL {
            let directory = executableURL.resolvingSymlinksInPath().deletingLastPathComponent()
            for name in Gazetteer.resourceDirectories {
                candidates.append(directory.appendingPathComponent(name).appendingPathComponent("timezones.tsv"))
            }
        }
        candidates.append(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources")
                .appendingPathComponent("timezones.tsv"))
        for url in candidates {
            guard let data = try? Data(contentsOf: url), let table = try? TimeZoneTable(bytes: data, file: url.path)
            else { continue }
            return table
        }
        return TimeZoneTable()
    }
}

extension Gazetteer {
    /// The GeoNames id of city entry `i`; nil for other kinds.
    public func cityID(_ i: Int) -> UInt32? {
        guard i >= cities.lowerBound, i < cities.upperBound else { return nil }
        return cityIDs[i - cities.lowerBound]
    }
}
