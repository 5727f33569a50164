import PlacesGazetteer

/// The gazetteer and its search index, loaded on the first search (never at start: the
/// daemon's idle memory stays where it was), and a grid of its cities to say where a
/// library place is.
final class DiscoverCatalog: Sendable {
    let gazetteer: Gazetteer
    let index: GazetteerIndex
    /// City entries by 1° cell (`cell(_:_:)`), for `nearestCity`.
    private let grid: [Int: [Int]]

    init(gazetteer: Gazetteer) {
        self.gazetteer = gazetteer
        self.index = GazetteerIndex(gazetteer)
        var grid = [Int: [Int]]()
        for i in 0..<gazetteer.count where gazetteer.kind(i) == .city {
            grid[Self.cell(gazetteer.latitude(i), gazetteer.longitude(i)), default: []].append(i)
        }
        self.grid = grid
    }

    /// The 1° cell of a point (latitude row × 360 + longitude column).
    private static func cell(_ latitude: Double, _ longitude: Double) -> Int {
        let row = Int(max(-90, min(89.999, latitude)).rounded(.down)) + 90
        let column = Int(max(-180, min(179.999, longitude)).rounded(.down)) + 180
        return row * 360 + column
    }

    /// The city nearest to a point within `meters` (searching the point's cell and its eight
    /// neighbours: 1° of latitude is ~111 km, enough for 25 km everywhere but near the poles).
    func nearestCity(latitude: Double, longitude: Double, within meters: Double) -> Int? {
        guard latitude.isFinite, longitude.isFinite else { return nil }
        let center = Self.cell(latitude, longitude)
        var best: (index: Int, meters: Double)?
        for dRow in -1...1 {
            for dColumn in -1...1 {
                let row = center / 360 + dRow
                let column = (center % 360 + dColumn + 360) % 360
                guard (0..<180).contains(row) else { continue }
                for i in grid[row * 360 + column] ?? [] {
                    let d = DiscoverPeople.meters(latitude, longitude, gazetteer.latitude(i), gazetteer.longitude(i))
                    if d <= meters, d < (best?.meters ?? .infinity) { best = (i, d) }
                }
            }
        }
        return best?.index
    }

    /// Where entry `i` is, by name: its region, country and continent (an entry's own level
    /// names itself: a country's `country` is its own name).
    func whereabouts(_ i: Int) -> (region: String?, country: String?, countryCode: String?, continent: String?) {
        let g = gazetteer
        let region: String? =
            switch g.kind(i) {
            case .region: g.name(i)
            case .city: g.region(i).map { g.name($0) }
            default: nil
            }
        return (region, g.country(i).map { g.name($0) }, g.countryCode(i), g.continent(i).map { g.name($0) })
    }
}
