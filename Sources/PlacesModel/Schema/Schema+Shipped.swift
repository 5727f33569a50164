// The shipped schema: every document kind, entity kind and field placesd writes and accepts
// from peers, declared once (`Protocol/op-format.md` §5 documents it; a test checks that
// table against these declarations). Adding a kind: declare its `EntityKind` name, a
// `…Fields` namespace like the ones below, and list its schema in a document.

extension Schema {
    /// What this build writes and accepts.
    public static let shipped = Schema([
        DocumentSchema(
            "itinerary",
            entities: [
                ItineraryFields.schema, StopFields.schema, MemberFields.schema, LinkFields.schema, ViewFields.schema,
                LodgingFields.schema, TransportFields.schema, FoodFields.schema, ActivityFields.schema,
                ChecklistItemFields.schema, TravellerFields.schema, ExpenseFields.schema, DeviceFields.schema,
                RelayFields.schema, MessageFields.schema,
            ]),
        DocumentSchema(
            "library",
            entities: [
                PlaceFields.schema, FavoriteFields.schema, GroupFields.schema, DeviceFields.schema,
                FriendFields.schema, ContactFields.schema, SavedFields.schema, SettingFields.schema,
            ]),
        DocumentSchema("profile", entities: [ProfileFields.schema, DeviceFields.schema]),
        DocumentSchema(
            "card", entities: [CardFields.schema, SharedPlaceFields.schema, DeviceFields.schema, RelayFields.schema]),
        DocumentSchema(
            "outbox",
            entities: [
                OutboxFields.schema, PostFields.schema, ReactionFields.schema, OutFields.schema, DeviceFields.schema,
                RelayFields.schema, MessageFields.schema, ReceiptFields.schema,
            ]),
        DocumentSchema(
            "published",
            entities: [
                PublishedTripFields.schema, StopFields.schema, LodgingFields.schema, TransportFields.schema,
                FoodFields.schema, ActivityFields.schema, TripLikeFields.schema, DeviceFields.schema,
            ]),
    ])
}

/// A place in a person's library.
public enum PlaceFields: EntityDeclaration {
    public static let name = FieldKey<Self, String>("name", .text(maxLength: 200, required: true), column: "name")
    public static let latitude = FieldKey<Self, Double>("latitude", .latitude, column: "latitude")
    public static let longitude = FieldKey<Self, Double>("longitude", .longitude, column: "longitude")
    public static let address = FieldKey<Self, String>("address", .text(maxLength: 500, required: false))
    public static let categories = FieldKey<Self, [String]>("categories", .categories)
    public static let priceLevel = FieldKey<Self, Int64>("priceLevel", .priceLevel)
    public static let rating = FieldKey<Self, Double>("rating", .rating)
    public static let notes = FieldKey<Self, String>("notes", .text(maxLength: 10_000, required: false))
    public static let url = FieldKey<Self, String>("url", .url)
    /// The discover result the place was made from (popularity counts it by this id).
    public static let gazetteerID = FieldKey<Self, String>(FieldSpec.gazetteerID)
    /// Where the place was copied from: `post:` and a post id, or `friend:` and a public id.
    public static let origin = FieldKey<Self, String>("origin", .text(maxLength: 200, required: false))
    /// The pin's photos (`POST /v1/places/{id}/photos`), as a post's.
    public static let photos = FieldKey<Self, JSONValue>("photos", .photos)
    /// When it is open, in OpenStreetMap's `opening_hours` syntax, kept as written
    /// (`docs/opening-hours.md` says which forms the planner understands).
    public static let openingHours = FieldKey<Self, String>(
        "openingHours", .text(maxLength: 255, required: false), label: "opening hours")
    /// How long a visit takes, in minutes (5–720): the planner's visit length.
    public static let visitMinutes = FieldKey<Self, Int64>(
        "visitMinutes", .wholeNumber(min: 5, max: 720), label: "visit length")
    /// What a visit costs one person (a ticket): the planner's budget counts it.
    public static let entryPrice = FieldKey<Self, Money>("entryPrice", .money, label: "entry price")

    public static let schema = EntitySchema(
        .place, id: .random,
        fields: [
            name, latitude, longitude, address, categories, priceLevel, rating, notes, url, gazetteerID, origin, photos,
            openingHours, visitMinutes, entryPrice,
        ])
}

/// A heart on a library place, ordered by `position`.
public enum FavoriteFields: EntityDeclaration {
    public static let placeID = FieldKey<Self, String>(FieldSpec.placeID)
    public static let position = FieldKey<Self, String>(FieldSpec.position)

    public static let schema = EntitySchema(.favorite, id: .random, fields: [placeID, position])
}

/// An itinerary: the root entity of an itinerary document. The API's `lodging` object is
/// stored flattened into the `lodging.*` registers.
public enum ItineraryFields: EntityDeclaration {
    public static let name = FieldKey<Self, String>("name", .text(maxLength: 200, required: true), column: "name")
    public static let startDate = FieldKey<Self, String>("startDate", .date)
    public static let endDate = FieldKey<Self, String>("endDate", .date)
    public static let transportation = FieldKey<Self, String>(
        "transportation", .text(maxLength: 2_000, required: false))
    public static let lodgingName = FieldKey<Self, String>("lodging.name", .text(maxLength: 200, required: false))
    public static let lodgingAddress = FieldKey<Self, String>(
        "lodging.address", .text(maxLength: 500, required: false))
    public static let lodgingCheckIn = FieldKey<Self, String>("lodging.checkIn", .date)
    public static let lodgingCheckOut = FieldKey<Self, String>("lodging.checkOut", .date)
    public static let travelPrice = FieldKey<Self, Money>("travelPrice", .money)
    public static let lodgingPrice = FieldKey<Self, Money>("lodgingPrice", .money)
    public static let notes = FieldKey<Self, String>("notes", .text(maxLength: 10_000, required: false))
    /// The zone of the trip's items that name none.
    public static let timeZone = FieldKey<Self, String>("timeZone", .timeZone, label: "time zone")
    /// How the travellers get between the day's items (warnings, day routes).
    public static let travelMode = FieldKey<Self, String>(
        "travelMode", .optional(.oneOf(["walking", "cycling", "driving"])), label: "travel mode")

    /// The currency balances and settle-up are in (an ISO 4217 code with a minor unit).
    public static let settlementCurrency = FieldKey<Self, String>(
        "settlementCurrency", .currency, label: "settlement currency")
    /// The trip's exchange rates to the settlement currency (`{"USD": "0.92"}`), kept by its
    /// editors; an expense freezes the rate it was entered with.
    public static let rates = FieldKey<Self, JSONValue>("rates", .rateTable, label: "exchange rates")
    /// The trip it was made from (`POST /v1/itineraries` with `from`): its name, author and id.
    public static let origin = FieldKey<Self, String>(
        "origin", .text(maxLength: 400, required: false), label: "made from")

    /// The fields of the API's `lodging` object, by their name inside it.
    public static let lodging: [(key: String, field: FieldKey<Self, String>)] = [
        ("name", lodgingName), ("address", lodgingAddress), ("checkIn", lodgingCheckIn), ("checkOut", lodgingCheckOut),
    ]

    public static let schema = EntitySchema(
        .itinerary, id: .root,
        fields: [
            name, startDate, endDate, transportation, lodgingName, lodgingAddress, lodgingCheckIn, lodgingCheckOut,
            travelPrice, lodgingPrice, notes, timeZone, travelMode, settlementCurrency, rates, origin,
        ])
}

/// A place to go in an itinerary: a copy of a library place (with the place's rules), so
/// every member can see and route it, ordered by `position`.
public enum StopFields: EntityDeclaration {
    public static let placeID = FieldKey<Self, String>(FieldSpec.placeID)
    public static let name = FieldKey<Self, String>(PlaceFields.name.spec)
    public static let latitude = FieldKey<Self, Double>(PlaceFields.latitude.spec)
    public static let longitude = FieldKey<Self, Double>(PlaceFields.longitude.spec)
    public static let address = FieldKey<Self, String>(PlaceFields.address.spec)
    public static let position = FieldKey<Self, String>(FieldSpec.position)
    /// The day of the trip it is planned for.
    public static let day = FieldKey<Self, String>("day", .date)
    public static let gazetteerID = FieldKey<Self, String>(FieldSpec.gazetteerID)

    /// The place fields a stop copies when it is added.
    public static let copiedFromPlace: [FieldSpec] = [
        name.spec, latitude.spec, longitude.spec, address.spec, gazetteerID.spec,
    ]

    public static let schema = EntitySchema(
        .stop, id: .random, fields: [placeID, name, latitude, longitude, address, position, day, gazetteerID])
}

/// A member of a shared itinerary (id = its public key). `token` and `name` are written
/// for a join through a link.
public enum MemberFields: EntityDeclaration {
    public static let role = FieldKey<Self, Role>("role", .oneOf(Role.memberValues))
    public static let token = FieldKey<Self, String>("token", .token)
    public static let name = FieldKey<Self, String>("name", .text(maxLength: 100, required: false), column: "name")

    public static let schema = EntitySchema(.member, id: .publicKey, fields: [role, token, name])
}

/// A share link of an itinerary (id = the token id).
public enum LinkFields: EntityDeclaration {
    public static let role = FieldKey<Self, Role>("role", .oneOf(Role.linkValues))
    public static let issuer = FieldKey<Self, String>("issuer", .key)
    public static let expiresAt = FieldKey<Self, String>("expiresAt", .timestamp)
    public static let uses = FieldKey<Self, Int64>("uses", .count)
    public static let audience = FieldKey<Self, String>("audience", .key)
    public static let revoked = FieldKey<Self, Bool>("revoked", .bool)

    public static let schema = EntitySchema(
        .link, id: .random, fields: [role, issuer, expiresAt, uses, audience, revoked])
}

/// A member's record of having viewed an itinerary (id = the member's key).
public enum ViewFields: EntityDeclaration {
    public static let viewedAt = FieldKey<Self, String>("viewedAt", .timestamp)

    public static let schema = EntitySchema(.view, id: .publicKey, fields: [viewedAt])
}

/// A person's public profile: the root entity of a profile document.
public enum ProfileFields: EntityDeclaration {
    public static let name = FieldKey<Self, String>("name", .text(maxLength: 100, required: true), column: "name")
    public static let username = FieldKey<Self, String>("username", .username)
    public static let bio = FieldKey<Self, String>("bio", .text(maxLength: 1_000, required: false))
    /// A photo id (`POST /v1/photos`): BLAKE2b-256 of the photo's bytes in lowercase hex.
    public static let picture = FieldKey<Self, String>("picture", .optional(.key))

    public static let schema = EntitySchema(.profile, id: .root, fields: [name, username, bio, picture])
}
