import Foundation
import PlacesModel

extension GazetteerIndex {
    /// All matches of `q`, ranked (docs/discover.md, "Search and ranking"), sorted by
    /// popularity first when `q.sort` asks (over all matches, before the limit), cut to
    /// `q.limit` (clamped to 1...100). `candidates` are the library and contact places
    /// (kind `place`); `popular` maps an id (gazetteer or candidate) to its popularity
    /// (absent: 0). A query that folds to nothing ("!!!") finds nothing.
    public func search(_ q: DiscoverQuery, candidates: [DiscoverCandidate], popular: [String: Int]) -> [DiscoverHit] {
        var query: [UInt8] = []
        NameFolding.fold(q.text, into: &query)
        if query.count > Self.maxKeyBytes { query.removeSubrange(Self.maxKeyBytes...) }
        guard !query.isEmpty else { return [] }
        let limit = min(max(q.limit, 1), 100)
        var kindMask: UInt8 = 0x1F
        if let kinds = q.kinds {
            kindMask = 0
            for k in kinds {
                switch k {
                case .city: kindMask |= 1 << 0
                case .region: kindMask |= 1 << 1
                case .country: kindMask |= 1 << 2
                case .continent: kindMask |= 1 << 3
                case .place: kindMask |= 1 << 4
                }
            }
        }
        let point = q.near.map { Self.unitVector(latitude: $0.latitude, longitude: $0.longitude) }
        var entryPopularity: [Int: Int] = [:]
        if q.sort != .off {
            for (id, count) in popular where count != 0 {
                if let i = source.index(ofID: id) { entryPopularity[i] = count }
            }
        }
        let sortSign = q.sort == .descending ? -1 : (q.sort == .ascending ? 1 : 0)

        var top = TopHits(limit: limit) { [source] a, b in
            let idA = a >= 0 ? source.id(a) : candidates[-1 - a].id
            let idB = b >= 0 ? source.id(b) : candidates[-1 - b].id
            return idA != idB ? idA < idB : a < b
        }
        let rankRegions = point == nil && kindMask & 0b11 == 0b11
        bytes.withUnsafeBufferPointer { b in
            query.withUnsafeBufferPointer { qb in
                let range = prefixRange(qb, b)
                let fuzzy = fuzzyMatches(qb, bytes: b)
                let n = qb.count
                // Per region slot (only without `near`): its best quality among the hits
                // and the prominence of its best city hit of that quality.
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: rankRegions ? regionCount : 0) { quality in
                    withUnsafeTemporaryAllocation(of: Float.self, capacity: rankRegions ? regionCount : 0) { city in
                        if rankRegions {
                            containedCities(range, fuzzy, n, quality: quality, city: city)
                        }
                        func offer(_ e: Int, _ q: (UInt8, UInt8, UInt8)) {
                            guard kindMask & (1 << kind[e]) != 0 else { return }
                            var order: Float
                            if let p = point {
                                order = chord2(p, unitX[e], unitY[e], unitZ[e])
                            } else {
                                order = -prominence[e]
                                let slot = Int(regionSlot[e])
                                if rankRegions, kind[e] == 1, slot >= 0, city[slot] >= 0 {
                                    order = max(order, -city[slot].nextDown)
                                }
                            }
                            let popularity = sortSign == 0 ? 0 : sortSign &* (entryPopularity[e] ?? 0)
                            top.offer(
                                .init(
                                    popularity: popularity, quality: q.0, reported: q.2, detail: q.1, order: order,
                                    hit: e))
                        }
                        for k in range {
                            offer(Int(keyEntry[k]), Self.prefixQuality(keyLength[k], n))
                        }
                        for f in fuzzy { offer(f.entry, (2, UInt8(f.edits), 2)) }
                    }
                }
            }
        }
        if kindMask & (1 << 4) != 0 {
            offerCandidates(candidates, query, point, popular, sortSign, &top)
        }
        return top.keys.map { key in
            let quality = MatchQuality(rawValue: Int(key.reported)) ?? .fuzzy
            if key.hit >= 0 {
                return DiscoverHit(
                    gazetteerIndex: key.hit, candidateIndex: nil, quality: quality,
                    popularity: popular[source.id(key.hit)] ?? 0)
            }
            let c = -1 - key.hit
            return DiscoverHit(
                gazetteerIndex: nil, candidateIndex: c, quality: quality, popularity: popular[candidates[c].id] ?? 0)
        }
    }

    /// Entries whose folded name or alternate name equals `fold(name)` within `meters` of a
    /// point (great-circle): popularity's "same place" rule. In index order.
    public func entries(named name: String, within meters: Double, ofLatitude latitude: Double, longitude: Double)
        -> [Int]
    {
        var query: [UInt8] = []
        NameFolding.fold(name, into: &query)
        guard !query.isEmpty, query.count <= Self.maxKeyBytes, meters.isFinite, meters >= 0 else { return [] }
        var found: [Int] = []
        bytes.withUnsafeBufferPointer { b in
            query.withUnsafeBufferPointer { qb in
                for k in prefixRange(qb, b)
                where keyLength[k] & Self.wordFlag == 0 && Int(keyLength[k] & Self.lengthMask) == qb.count {
                    let e = Int(keyEntry[k])
                    let d = Self.greatCircleMeters(latitude, longitude, source.latitude(e), source.longitude(e))
                    if d <= meters { found.append(e) }
                }
            }
        }
        return Array(Set(found)).sorted()
    }

    /// (rank, detail, reported): exact (0, 0, 0) for a whole name of the query's length,
    /// else prefix (1, detail, 1): detail 0 for a whole name, 1 for a later word. A query of
    /// 1–3 bytes is still being typed: its exact matches rank as prefixes ("par" gives
    /// Paris, not Par in Cornwall) but are still reported exact, and an entry's own name
    /// or an exact alternate ranks before other alternates (detail 0, 1, then 2 for a
    /// word): "mad" gives Madrid before Chennai, once Madras; "usa" the United States.
    @inline(__always)
    static func prefixQuality(_ length: UInt16, _ queryLength: Int) -> (UInt8, UInt8, UInt8) {
        let short = queryLength <= shortQuery
        if length & wordFlag != 0 { return (1, short ? 2 : 1, 1) }
        let detail: UInt8 = short && length & alternateFlag != 0 ? 1 : 0
        guard Int(length & lengthMask) == queryLength else { return (1, detail, 1) }
        return short ? (1, 0, 0) : (0, 0, 0)  // "usa", "uk": an exact alternate counts as an own name
    }

    /// Queries of at most this many bytes rank exact matches among prefixes.
    static let shortQuery = 3

    /// The sorted keys that start with `qb`.
    func prefixRange(_ qb: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let n = qb.count
        var lo = 0
        var hi = keyStart.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let c = Self.compare(b, Int(keyStart[mid]), Int(keyLength[mid] & Self.lengthMask), qb, 0, n)
            if c < 0 { lo = mid + 1 } else { hi = mid }
        }
        let first = lo
        hi = keyStart.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let length = Int(keyLength[mid] & Self.lengthMask)
            let c = Self.compare(b, Int(keyStart[mid]), min(length, n), qb, 0, n)
            if c <= 0 { lo = mid + 1 } else { hi = mid }
        }
        return first..<lo
    }

    /// Without `near`, a city comes before a region of the same quality that contains it
    /// (São Paulo the city before the state): for each region slot, its best rank among
    /// the hits (`quality`, 255 for none) and the prominence of its best city hit of that
    /// rank (`city`, -1 for none); a region ranks just after that city at best.
    private func containedCities(
        _ range: Range<Int>, _ fuzzy: [(entry: Int, edits: Int)], _ n: Int, quality: UnsafeMutableBufferPointer<UInt8>,
        city: UnsafeMutableBufferPointer<Float>
    ) {
        quality.initialize(repeating: 255)
        city.initialize(repeating: -1)
        for k in range {
            let e = Int(keyEntry[k])
            if kind[e] == 1 {
                quality[Int(regionSlot[e])] = min(quality[Int(regionSlot[e])], Self.prefixQuality(keyLength[k], n).0)
            }
        }
        for f in fuzzy where kind[f.entry] == 1 {
            quality[Int(regionSlot[f.entry])] = min(quality[Int(regionSlot[f.entry])], 2)
        }
        func lower(_ e: Int, _ q: UInt8) {
            let slot = Int(regionSlot[e])
            if slot >= 0, quality[slot] == q, prominence[e] > city[slot] { city[slot] = prominence[e] }
        }
        for k in range where kind[Int(keyEntry[k])] == 0 {
            lower(Int(keyEntry[k]), Self.prefixQuality(keyLength[k], n).0)
        }
        for f in fuzzy where kind[f.entry] == 0 { lower(f.entry, 2) }
    }

    private func offerCandidates(
        _ candidates: [DiscoverCandidate], _ query: [UInt8], _ point: (Float, Float, Float)?, _ popular: [String: Int],
        _ sortSign: Int, _ top: inout TopHits
    ) {
        // By characters, as for the gazetteer's names (GazetteerIndex+Fuzzy).
        let allowed = Self.allowedEdits(queryLength: String(decoding: query, as: UTF8.self).count)
        var folded: [UInt8] = []
        for (c, candidate) in candidates.enumerated() {
            var best: (UInt8, UInt8, UInt8)?
            for (n, name) in candidate.names.prefix(16).enumerated() {
                NameFolding.fold(name, into: &folded)
                if folded.count > Self.maxKeyBytes { folded.removeSubrange(Self.maxKeyBytes...) }
                guard var m = Self.match(query, folded, allowedEdits: allowed) else { continue }
                if query.count <= Self.shortQuery, m.0 == 1 {
                    // As prefixQuality: own name or exact, alternate, word.
                    m.1 = m.1 == 1 ? 2 : (n > 0 && m.2 != 0 ? 1 : 0)
                }
                if best.map({ (m.0, m.1) < ($0.0, $0.1) }) ?? true { best = m }
            }
            guard let (quality, detail, reported) = best else { continue }
            var order: Float = 0
            if let p = point {
                let (x, y, z) = Self.unitVector(latitude: candidate.latitude, longitude: candidate.longitude)
                order = chord2(p, x, y, z)
            }
            let popularity = sortSign &* (popular[candidate.id] ?? 0)
            top.offer(
                .init(
                    popularity: popularity, quality: quality, reported: reported, detail: detail, order: order,
                    hit: -1 - c))
        }
    }

    /// How `name` (folded) matches `query` (folded), by the gazetteer's rules.
    static func match(_ query: [UInt8], _ name: [UInt8], allowedEdits: Int) -> (UInt8, UInt8, UInt8)? {
        if name == query { return query.count <= shortQuery ? (1, 0, 0) : (0, 0, 0) }
        if name.starts(with: query) { return (1, 0, 1) }
        for p in 1..<max(name.count, 1) where name[p - 1] == 0x20 && name[p...].starts(with: query) {
            return (1, 1, 1)
        }
        guard allowedEdits > 0 else { return nil }
        let edits = query.withUnsafeBufferPointer { qb in
            name.withUnsafeBufferPointer { nb in editDistance(qb, nb, 0, nb.count, atMost: allowedEdits) }
        }
        return edits <= allowedEdits ? (2, UInt8(edits), 2) : nil
    }

    @inline(__always)
    func chord2(_ p: (Float, Float, Float), _ x: Float, _ y: Float, _ z: Float) -> Float {
        let dx = p.0 - x
        let dy = p.1 - y
        let dz = p.2 - z
        return dx * dx + dy * dy + dz * dz
    }

    static func greatCircleMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_008.8
        let p1 = lat1 * .pi / 180
        let p2 = lat2 * .pi / 180
        let dp = p2 - p1
        let dl = (lon2 - lon1) * .pi / 180
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        let d = 2 * r * asin(min(1, sqrt(max(0, h))))
        return d.isFinite ? d : .infinity
    }
}
