import Foundation

/// The gazetteer's cities in cells of one degree, to name the city nearest a point (which
/// cities and countries a published trip goes to) without scanning every city.
public struct CityGrid: Sendable {
    private let gazetteer: Gazetteer
    private var cells: [Int32: [Int32]] = [:]

    public init(_ gazetteer: Gazetteer) {
        self.gazetteer = gazetteer
        for i in gazetteer.cities {
            cells[Self.cell(gazetteer.latitude(i), gazetteer.longitude(i)), default: []].append(
                Int32(truncatingIfNeeded: i))
        }
    }

    /// The cell of a point: 1° of latitude by 1° of longitude (coordinates are within ±90/±180).
    private static func cell(_ latitude: Double, _ longitude: Double) -> Int32 {
        let row = Int32(max(-90, min(90, latitude.rounded(.down))))
        let column = Int32(max(-180, min(180, longitude.rounded(.down))))
        return (row + 90) * 400 + (column + 180)
    }

    /// Calls `body` with each city within `kilometres` (at most about 100 km: the point's cell
    /// and its eight neighbours are searched) of the point, and its distance.
    private func forEachCity(
        latitude: Double, longitude: Double, within kilometres: Double, _ body: (Int, Double) -> Void
    ) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return }
        let row = latitude.rounded(.down), column = longitude.rounded(.down)
        for dr in -1...1 {
            for dc in -1...1 {
                let r = row + Double(dr), c = column + Double(dc)
                guard abs(r) <= 90, abs(c) <= 180 else { continue }
                for i in cells[Self.cell(r, c)] ?? [] {
                    // Int32 to Int widens: it cannot trap.
                    let j = Int(i)
                    let d = Self.kilometres(latitude, longitude, gazetteer.latitude(j), gazetteer.longitude(j))
                    if d <= kilometres { body(j, d) }
                }
            }
        }
    }

    /// The entry index of the city nearest the point, within `kilometres` (at most about
    /// 100 km); nil when none is.
    public func nearest(latitude: Double, longitude: Double, within kilometres: Double) -> Int? {
        var best: (index: Int, distance: Double)?
        forEachCity(latitude: latitude, longitude: longitude, within: kilometres) { j, d in
            if best.map({ d < $0.distance }) ?? true { best = (j, d) }
        }
        return best?.index
    }

    /// The entry index of the most populous city within `kilometres` (at most about 100 km)
    /// of the point: the city a point in one of its districts belongs to.
    public func largest(latitude: Double, longitude: Double, within kilometres: Double) -> Int? {
        var best: Int?
        forEachCity(latitude: latitude, longitude: longitude, within: kilometres) { j, _ in
            if best.map({ gazetteer.population(j) > gazetteer.population($0) }) ?? true { best = j }
        }
        return best
    }

    /// Great-circle distance (haversine) in kilometres.
    static func kilometres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (lat2 - lat1) * radians, dLon = (lon2 - lon1) * radians
        let a =
            sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 6_371 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }
}
