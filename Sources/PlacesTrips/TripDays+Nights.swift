/// Which lodging covers which night.
///
/// A lodging covers the nights from its check-in date up to the night before its check-out
/// date; one without a check-out (or whose check-out was before its check-in) covers its
/// check-in night only; one that checks out on its check-in date covers none. When several
/// cover a night, the one checked in latest is that night's bed (on a tie, the smaller id).
extension TripDays {
    /// The day numbers of the nights `entry` covers; empty for a non-lodging.
    static func nights(of entry: TripTimeline.Entry) -> Range<Int> {
        guard entry.item.type == .lodging, let start = entry.item.start else { return 0..<0 }
        let first = start.date.dayNumber
        guard let end = entry.item.end else { return first..<(first + 1) }
        return first..<max(first, end.date.dayNumber)
    }

    /// Whether lodging `a` wins a night over lodging `b`: the later check-in, then the smaller id.
    static func bedPrecedes(_ a: TripTimeline.Entry, _ b: TripTimeline.Entry) -> Bool {
        guard let x = a.item.start, let y = b.item.start, x != y else {
            return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
        return y < x
    }

    /// The entry index of each night's lodging over the span's days. Winners first, each
    /// filling only the nights still free, skipping filled ones with path-compressed
    /// pointers: O(lodgings × log + days), however long and numerous the stays.
    static func nightLodging(_ timeline: TripTimeline, _ span: TripSpan) -> [Int?] {
        var beds = [Int?](repeating: nil, count: span.count)
        let lodgings = timeline.entries.indices.filter { !nights(of: timeline.entries[$0]).isEmpty }
            .sorted { bedPrecedes(timeline.entries[$0], timeline.entries[$1]) }
        // next[i]: the first night at or after i that may be free (count = none).
        var next = Array(0...span.count)
        func free(_ i: Int) -> Int {
            var root = i
            while next[root] != root { root = next[root] }
            var node = i
            while next[node] != root { (node, next[node]) = (next[node], root) }
            return root
        }
        for index in lodgings {
            let covered = nights(of: timeline.entries[index])
            let low = max(0, covered.lowerBound - span.first)
            let high = min(span.count, covered.upperBound - span.first)
            guard low < high else { continue }
            var night = free(low)
            while night < high {
                beds[night] = index
                next[night] = night + 1
                night = free(night + 1)
            }
        }
        return beds
    }

    /// The lodging of the night after day number `night`, by the same rule, scanning every
    /// lodging (for one night's question).
    static func lodging(forNight night: Int, _ timeline: TripTimeline) -> String? {
        var best: TripTimeline.Entry?
        for entry in timeline.entries where nights(of: entry).contains(night) {
            if let current = best, !bedPrecedes(entry, current) { continue }
            best = entry
        }
        return best?.id
    }
}
