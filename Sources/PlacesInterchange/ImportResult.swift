/// What a file holds once read: the places to import, each already within the library's
/// bounds, and the features that are not places (with why), which are not errors.
public struct ImportResult: Sendable, Hashable {
    /// The places, in file order.
    public var places: [ImportedPlace]
    /// The features passed over, in file order.
    public var ignored: [ImportIgnored]

    /// A result of `places` and `ignored` features.
    public init(places: [ImportedPlace], ignored: [ImportIgnored]) {
        self.places = places
        self.ignored = ignored
    }
}

/// A feature of the file that is not imported, and why (a track, a place with no
/// coordinates). Not an error: the rest of the file is imported.
public struct ImportIgnored: Sendable, Hashable {
    /// The feature's position in the file, from 0: `features[index]` in GeoJSON, the
    /// index-th `<Placemark>` of a KML file, the index-th `<wpt>`, `<rte>` or `<trk>` of a
    /// GPX file.
    public var index: Int
    /// Why it is not imported, naming the feature when it has a name.
    public var reason: String

    /// The feature at `index` passed over for `reason`.
    public init(index: Int, reason: String) {
        self.index = index
        self.reason = reason
    }
}
