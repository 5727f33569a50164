/// How a result matched the query, best first.
public enum MatchQuality: Int, Sendable, Comparable {
    /// The folded query equals the folded name or an alternate name.
    case exact = 0
    /// A name or alternate name, or one of its words, starts with the folded query.
    case prefix = 1
    /// A name or alternate name is one edit away (two for queries of 9+ characters).
    case fuzzy = 2

    public static func < (a: MatchQuality, b: MatchQuality) -> Bool { a.rawValue < b.rawValue }
}

/// One search result: a gazetteer entry or one of the caller's candidates.
public struct DiscoverHit: Sendable, Equatable {
    /// The gazetteer entry's index, or nil for a candidate.
    public var gazetteerIndex: Int?
    /// The candidate's index in the `candidates` passed to the search, or nil.
    public var candidateIndex: Int?
    /// How it matched.
    public var quality: MatchQuality
    /// The caller's popularity count for its id (0 when absent).
    public var popularity: Int

    /// A hit.
    public init(gazetteerIndex: Int?, candidateIndex: Int?, quality: MatchQuality, popularity: Int) {
        self.gazetteerIndex = gazetteerIndex
        self.candidateIndex = candidateIndex
        self.quality = quality
        self.popularity = popularity
    }
}
