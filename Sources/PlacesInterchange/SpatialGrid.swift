import Foundation

/// Points bucketed by a key, latitude band and longitude cell, each cell at least
/// `cellMeters` wide: the points with a key within that distance of a point are in the
/// 3 × 3 cells around it with that key.
struct SpatialGrid {
    private struct Entry {
        var latitude: Double
        var longitude: Double
        var key: String
    }

    private struct Cell: Hashable {
        var band: Int32
        var column: Int32
        /// FNV-1a of the key's UTF-8 (an integer hashes much faster than a String).
        var keyHash: UInt64
    }

    private static let metersPerDegree = 111_194.93  // on a sphere of radius 6,371,008.8 m
    /// The cosine of the poleward edge of each 0.1° strip of latitude from -90°, taken
    /// 0.01° further towards the pole: a band's cells are sized with it, so that they are at
    /// least `cellMeters` wide across the band and the next one polewards.
    private static let stripCosines: [Double] = (0..<1800).map { i in
        let south = Double(i) * 0.1 - 90
        let poleward = max(abs(south), abs(south + 0.1)) + 0.01
        return cos(min(poleward, 90) * .pi / 180)
    }
    private let bandDegrees: Double
    private var cells: [Cell: [Entry]] = [:]

    init(cellMeters: Double, capacity: Int = 0) {
        bandDegrees = cellMeters / SpatialGrid.metersPerDegree
        cells.reserveCapacity(capacity)
    }

    private func band(_ latitude: Double) -> Int32 { Int32(((latitude + 90) / bandDegrees).rounded(.down)) }

    /// How many cells a band has around the globe; one near the poles.
    private func columns(_ band: Int32) -> Int32 {
        let strip = Int((Double(band) * bandDegrees / 0.1).rounded(.down))
        let cosine = SpatialGrid.stripCosines[min(max(strip, 0), 1799)]
        guard cosine > 0.001 else { return 1 }
        return Int32(max(1, min(Double(Int32.max / 4), (360 * cosine / bandDegrees).rounded(.down))))
    }

    private func column(_ longitude: Double, columns n: Int32) -> Int32 {
        Int32(max(0, ((longitude + 180) / 360 * Double(n)).rounded(.down))) % n
    }

    private static func hash(_ key: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in key.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    /// Whether the grid can hold the point: a library place's always can; anything else
    /// handed to `ImportPlan` is compared with nothing rather than trapping.
    private static func isOnGlobe(_ latitude: Double, _ longitude: Double) -> Bool {
        abs(latitude) <= 90 && abs(longitude) <= 180
    }

    mutating func insert(latitude: Double, longitude: Double, key: String) {
        guard SpatialGrid.isOnGlobe(latitude, longitude) else { return }
        let b = band(latitude)
        let cell = Cell(band: b, column: column(longitude, columns: columns(b)), keyHash: SpatialGrid.hash(key))
        cells[cell, default: []].append(Entry(latitude: latitude, longitude: longitude, key: key))
    }

    /// Whether a point with `key` is within `meters` (at most the cell size) of this one.
    func contains(latitude: Double, longitude: Double, key: String, within meters: Double) -> Bool {
        guard SpatialGrid.isOnGlobe(latitude, longitude) else { return false }
        let b = band(latitude)
        let keyHash = SpatialGrid.hash(key)
        for neighbour in (b - 1)...(b + 1) {
            let n = columns(neighbour)
            let center = column(longitude, columns: n)
            // The cell and its two neighbours, wrapping around the antimeridian (every cell
            // when the band has fewer than three).
            for k in 0..<min(n, 3) {
                let c = n < 3 ? k : (center + n - 1 + k) % n
                guard let entries = cells[Cell(band: neighbour, column: c, keyHash: keyHash)] else { continue }
                for entry in entries
                where SpatialGrid.distanceMeters(latitude, longitude, entry.latitude, entry.longitude) <= meters
                    && entry.key == key
                {
                    return true
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
