// Published trips (issue 17): a read-only copy of an itinerary its owner publishes to friends,
// a group or everyone on the network (`Protocol/sync.md` §7.5). A `published` document holds
// one `publishedTrip` root (the itinerary's own registers that describe the trip, and who
// published it to whom), the trip's items and places to go under the itinerary's own kinds
// (so day views and routes read it as they read an itinerary), and the likes: `tripLike`
// entities whose id is the liker's key, each signed by its liker and copied in by the author.
// `Protocol/op-format.md` §5 documents every field.

extension EntityKind {
    public static let publishedTrip = EntityKind(declaring: "publishedTrip")
    public static let tripLike = EntityKind(declaring: "tripLike")
}

/// The root of a published trip: the itinerary's describing registers (under their names,
/// with their rules) and the publication's own.
public enum PublishedTripFields: EntityDeclaration {
    public static let name = FieldKey<Self, String>(ItineraryFields.name.spec)
    public static let startDate = FieldKey<Self, String>(ItineraryFields.startDate.spec)
    public static let endDate = FieldKey<Self, String>(ItineraryFields.endDate.spec)
    public static let timeZone = FieldKey<Self, String>(ItineraryFields.timeZone.spec)
    public static let travelMode = FieldKey<Self, String>(ItineraryFields.travelMode.spec)
    public static let travelPrice = FieldKey<Self, Money>(ItineraryFields.travelPrice.spec)
    public static let lodgingPrice = FieldKey<Self, Money>(ItineraryFields.lodgingPrice.spec)
    public static let lodgingName = FieldKey<Self, String>(ItineraryFields.lodgingName.spec)
    public static let lodgingAddress = FieldKey<Self, String>(ItineraryFields.lodgingAddress.spec)
    public static let lodgingCheckIn = FieldKey<Self, String>(ItineraryFields.lodgingCheckIn.spec)
    public static let lodgingCheckOut = FieldKey<Self, String>(ItineraryFields.lodgingCheckOut.spec)
    /// The author's profile name when they last published it.
    public static let authorName = FieldKey<Self, String>(
        "authorName", .text(maxLength: 100, required: false), label: "author's name")
    /// Who it is published to (a group's name and members stay the author's: readers see `group`).
    public static let audience = FieldKey<Self, String>("audience", .oneOf(["friends", "group", "network"]))
    /// When it was first published.
    public static let publishedAt = FieldKey<Self, String>("publishedAt", .timestamp, label: "published at")
    /// When the author last published it (or withdrew it).
    public static let updatedAt = FieldKey<Self, String>("updatedAt", .timestamp, label: "updated at")
    /// Unpublished: the trip's items and places to go are tombstoned with it.
    public static let withdrawn = FieldKey<Self, Bool>("withdrawn", .bool)

    /// The itinerary registers a publication copies, in this order.
    public static let copied: [FieldSpec] = [
        name.spec, startDate.spec, endDate.spec, timeZone.spec, travelMode.spec, travelPrice.spec, lodgingPrice.spec,
        lodgingName.spec, lodgingAddress.spec, lodgingCheckIn.spec, lodgingCheckOut.spec,
    ]

    public static let schema = EntitySchema(
        .publishedTrip, id: .root,
        fields: copied + [authorName.spec, audience.spec, publishedAt.spec, updatedAt.spec, withdrawn.spec])
}

/// A like of a published trip: its id is the liker's key; `signature` is the liker's over
/// the trip, the liker, whether it is a like or an unlike, and `at` (`Protocol/sync.md` §7.5).
public enum TripLikeFields: EntityDeclaration {
    public static let liked = FieldKey<Self, Bool>("liked", .bool)
    public static let at = FieldKey<Self, String>("at", .timestamp)
    public static let signature = FieldKey<Self, String>("signature", .signature)

    public static let schema = EntitySchema(.tripLike, id: .publicKey, fields: [liked, at, signature])
}
