/// The bounds every import file is held to (docs/import.md). The daemon uses `maxFileBytes`
/// as the request body limit of `POST /v1/places/import`, and Protocol/control-api.yaml
/// states them.
public enum ImportLimits {
    /// The largest file accepted: 32 MiB.
    public static let maxFileBytes = 32 * 1024 * 1024
    /// The deepest nesting of JSON arrays and objects, or of XML elements.
    public static let maxDepth = 64
    /// The most features (GeoJSON features, KML placemarks, GPX waypoints, routes and
    /// tracks) in one file, places and ignored ones together.
    public static let maxFeatures = 20_000
    /// The most JSON values (numbers, strings, arrays, objects…) in one file: bounds the
    /// memory a file of tiny values could take (a real 20,000-place Takeout file has ~400,000).
    public static let maxJSONValues = 2_000_000
    /// The most XML elements in one KML placemark or GPX waypoint (each is read whole; a
    /// real one has a few dozen): bounds the memory a placemark of 8 million `<a/>` could take.
    public static let maxXMLElementsPerFeature = 10_000
    /// The longest XML element or attribute name, in bytes.
    public static let maxXMLNameBytes = 256
    /// The most attributes on one XML element.
    public static let maxXMLAttributes = 64
    /// The longest XML attribute value, in bytes.
    public static let maxXMLAttributeBytes = 65_536

    // The library's bounds on a place (Protocol/op-format.md §5), which imported places
    // are brought within (characters are grapheme clusters, as the library counts them).

    /// A name's length; longer ones are cut with "…".
    public static let maxNameCharacters = 200
    /// An address's length; longer ones are cut with "…".
    public static let maxAddressCharacters = 500
    /// The notes' length; longer ones are cut with "…".
    public static let maxNotesCharacters = 10_000
    /// A url's length; longer ones are dropped.
    public static let maxURLCharacters = 2_000
    /// How many categories a place keeps (the first ones).
    public static let maxCategories = 20
    /// A category's length; longer ones are cut with "…".
    public static let maxCategoryCharacters = 50
    /// A place's `openingHours` (op-format §5 for `place`).
    public static let maxOpeningHoursCharacters = 255
}
