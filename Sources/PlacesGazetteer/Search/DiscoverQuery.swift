/// What a discover search may return: the gazetteer's four kinds, and `place` for a
/// library or contact place (a ``DiscoverCandidate``).
public enum DiscoverKind: String, Sendable, CaseIterable, Hashable {
    case city, region, country, continent, place
}

/// How results are sorted by popularity before the usual ranking: most popular first,
/// least popular first, or not at all (the default).
public enum PopularitySort: String, Sendable, CaseIterable {
    case descending, ascending, off
}

/// One discover search, as the daemon has checked it.
public struct DiscoverQuery: Sendable {
    /// What was typed (1...200 characters, checked by the caller); folded before matching.
    public var text: String
    /// The kinds wanted; nil for all.
    public var kinds: Set<DiscoverKind>?
    /// A point: among matches of the same quality the nearer comes first.
    public var near: (latitude: Double, longitude: Double)?
    /// How many results at most (1...100; other values are clamped).
    public var limit: Int
    /// Popularity first (over all matches, before `limit`), or off.
    public var sort: PopularitySort

    /// A query; by default all kinds, no point, 20 results, no popularity sort.
    public init(
        text: String, kinds: Set<DiscoverKind>? = nil, near: (latitude: Double, longitude: Double)? = nil,
        limit: Int = 20, sort: PopularitySort = .off
    ) {
        self.text = text
        self.kinds = kinds
        self.near = near
        self.limit = limit
        self.sort = sort
    }
}
