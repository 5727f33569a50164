// Discover (issue 15): a place's gazetteer id, and the contact card — a person's profile and
// the favorites they share with their contacts, a document of its own that only its owner
// writes (`Protocol/sync.md` §7 "Document kinds", `Protocol/op-format.md` §5).

extension EntityKind {
    /// The root entity of a contact card: the owner's name, username and bio.
    public static let card = EntityKind(declaring: "card")
    /// A favorite the card's owner shares (entity id = the owner's library place id).
    public static let sharedPlace = EntityKind(declaring: "sharedPlace")
}

extension FieldSpec {
    /// A place's gazetteer result id (`city:2267057`, `region:PT.14`, `country:PT`,
    /// `continent:EU`): set when the place was made from a discover result.
    public static let gazetteerID = FieldSpec("gazetteerId", .optional(.gazetteerID), label: "gazetteer id")
}

/// The root of a contact card: a copy of the owner's profile.
public enum CardFields: EntityDeclaration {
    public static let name = FieldKey<Self, String>(ProfileFields.name.spec)
    public static let username = FieldKey<Self, String>("username", .optional(.username))
    public static let bio = FieldKey<Self, String>(ProfileFields.bio.spec)
    /// The profile picture: a photo id (BLAKE2b-256 of its bytes, 64 lowercase hex).
    public static let picture = FieldKey<Self, String>(ProfileFields.picture.spec)

    public static let schema = EntitySchema(.card, id: .root, fields: [name, username, bio, picture])
}

/// A favorite on a contact card: a copy of the library place it hearts, ordered as the
/// owner's favorites are.
public enum SharedPlaceFields: EntityDeclaration {
    public static let name = FieldKey<Self, String>(PlaceFields.name.spec)
    public static let latitude = FieldKey<Self, Double>(PlaceFields.latitude.spec)
    public static let longitude = FieldKey<Self, Double>(PlaceFields.longitude.spec)
    public static let address = FieldKey<Self, String>(PlaceFields.address.spec)
    public static let categories = FieldKey<Self, [String]>(PlaceFields.categories.spec)
    public static let gazetteerID = FieldKey<Self, String>(FieldSpec.gazetteerID)
    public static let position = FieldKey<Self, String>(FieldSpec.position)
    /// The pin's notes and photos, copied from the place (issue 16: friends' maps).
    public static let notes = FieldKey<Self, String>(PlaceFields.notes.spec)
    public static let photos = FieldKey<Self, JSONValue>(PlaceFields.photos.spec)

    public static let schema = EntitySchema(
        .sharedPlace, id: .random,
        fields: [name, latitude, longitude, address, categories, gazetteerID, position, notes, photos])
}
