/// The best `limit` hits seen so far, best first, one per hit: what a search keeps instead
/// of sorting every match ("s" matches tens of thousands of names).
struct TopHits {
    let limit: Int
    private(set) var keys: [Ranking.Key] = []
    /// Whether hit `a` comes before hit `b` when their keys tie (by id).
    let tieBreak: (Int, Int) -> Bool

    init(limit: Int, tieBreak: @escaping (Int, Int) -> Bool) {
        self.limit = limit
        self.tieBreak = tieBreak
        keys.reserveCapacity(limit + 1)
    }

    @inline(__always)
    func before(_ a: Ranking.Key, _ b: Ranking.Key) -> Bool {
        if let p = a.precedes(b) { return p }
        return a.hit != b.hit && tieBreak(a.hit, b.hit)
    }

    /// Keeps `key` if it is among the best, replacing a worse key of the same hit.
    mutating func offer(_ key: Ranking.Key) {
        if keys.count == limit, let last = keys.last, !before(key, last) { return }
        if let j = keys.firstIndex(where: { $0.hit == key.hit }) {
            guard before(key, keys[j]) else { return }
            keys.remove(at: j)
        }
        var lo = 0
        var hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if before(keys[mid], key) { lo = mid + 1 } else { hi = mid }
        }
        keys.insert(key, at: lo)
        if keys.count > limit { keys.removeLast() }
    }
}
