/// The ranking's constants and order (docs/discover.md, "Search and ranking").
enum Ranking {
    /// Population × this is an entry's prominence among matches of the same quality: a
    /// region, country or continent must be much bigger than a city to come before it,
    /// because people search cities far more often ("par": Paris before Paraná and
    /// Paraguay). Tuned on Tests/PlacesGazetteerTests/DiscoverTableTests.swift.
    static func weight(_ kind: GazetteerKind) -> Float {
        switch kind {
        case .city: 1
        case .region: 1.0 / 6
        case .country: 1.0 / 4
        case .continent: 1.0 / 10
        }
    }

    /// The sort key of one hit: smaller first, field by field; equal keys fall back to the
    /// id (a stable order, the same on every device).
    struct Key {
        /// Popularity as sorted (negated for descending), 0 when the sort is off.
        var popularity: Int
        var quality: UInt8
        /// Within a quality: 0 a whole name, 1 a later word ("york" in "new york"), or the
        /// number of edits for a fuzzy match.
        var detail: UInt8
        /// Squared chord distance to `near`, or minus the prominence.
        var order: Float
        /// Gazetteer entry (≥ 0) or `-1 - candidate index`.
        var hit: Int

        @inline(__always)
        func precedes(_ other: Key) -> Bool? {
            if popularity != other.popularity { return popularity < other.popularity }
            if quality != other.quality { return quality < other.quality }
            if detail != other.detail { return detail < other.detail }
            if order != other.order { return order < other.order }
            return nil
        }
    }
}
