import Foundation

/// Places bucketed by latitude band and longitude cell, each cell about `cellMeters` wide:
/// the places within that distance of a point are in the 3 × few cells around it.
struct SpatialGrid {
    struct Entry {
        var latitude: Double
        var longitude: Double
        var key: String
    }

    private struct Cell: Hashable {
        var band: Int32
        var column: Int32
    }

    private static let metersPerDegree = 111_194.93  // on a sphere of radius 6,371,008.8 m
    private let bandDegrees: Double
    private var cells: [Cell: [Entry]] = [:]

    init(cellMeters: Double) {
        bandDegrees = cellMeters / SpatialGrid.metersPerDegree
    }

    private func band(_ latitude: Double) -> Int32 { Int32(((latitude + 90) / bandDegrees).rounded(.down)) }

    /// How many cells a band has around the globe: each at least `cellMeters` wide at the
    /// band's poleward edge, and at the edge of the next band too (a neighbour within reach
    /// can be one band nearer the pole); one cell for the whole band near the poles.
    private func columns(_ band: Int32) -> Int32 {
        let edges = [Double(band - 1), Double(band + 2)].map { abs($0 * bandDegrees - 90) }
        let cosine = cos(min(edges.max() ?? 90, 90) * .pi / 180)
        guard cosine > 0.001 else { return 1 }
        return Int32(max(1, min(Double(Int32.max / 4), (360 * cosine / bandDegrees).rounded(.down))))
    }

    private func column(_ longitude: Double, band: Int32) -> Int32 {
        let n = columns(band)
        let c = Int32(max(0, ((longitude + 180) / 360 * Double(n)).rounded(.down)))
        return c % n
    }

    /// Whether the grid can hold the place: a library place always can; anything else
    /// handed to `ImportPlan` is compared with nothing rather than trapping.
    private static func isOnGlobe(_ place: ImportedPlace) -> Bool {
        abs(place.latitude) <= 90 && abs(place.longitude) <= 180
    }

    mutating func insert(_ place: ImportedPlace, key: String? = nil) {
        guard SpatialGrid.isOnGlobe(place) else { return }
        let b = band(place.latitude)
        let cell = Cell(band: b, column: column(place.longitude, band: b))
        cells[cell, default: []].append(
            Entry(latitude: place.latitude, longitude: place.longitude, key: key ?? NameKey.of(place.name)))
    }

    /// Whether an entry within `meters` of `place` (at most the cell size) satisfies `match`,
    /// which gets the entry and its distance.
    func contains(near place: ImportedPlace, within meters: Double, where match: (Entry, Double) -> Bool) -> Bool {
        guard SpatialGrid.isOnGlobe(place) else { return false }
        let b = band(place.latitude)
        for neighbour in (b - 1)...(b + 1) {
            let n = columns(neighbour)
            let center = column(place.longitude, band: neighbour)
            // The cell and its two neighbours, wrapping around the antimeridian.
            let nearby: [Int32] = n < 3 ? Array(0..<n) : [(center + n - 1) % n, center, (center + 1) % n]
            for c in nearby {
                guard let entries = cells[Cell(band: neighbour, column: c)] else { continue }
                for entry in entries {
                    let d = SpatialGrid.distanceMeters(place.latitude, place.longitude, entry.latitude, entry.longitude)
                    if d <= meters && match(entry, d) { return true }
                }
            }
        }
        return false
    }

    /// Great-circle distance (haversine) on a sphere of the Earth's mean radius.
    static func distanceMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_008.8
        let p1 = lat1 * .pi / 180
        let p2 = lat2 * .pi / 180
        let dp = p2 - p1
        let dl = (lon2 - lon1) * .pi / 180
        let a = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * r * asin(min(1, a.squareRoot()))
    }
}
