// Friends and the feed (issue 16): outbox documents — one per author and reader, written
// only by the author (`Protocol/sync.md` §7.3) — holding the author's posts to that reader
// and the reactions (likes, comments) on them, each signed by the person who reacted; and
// groups of friends, kept in the library document (never synced: a group's name and members
// are its owner's alone). `Protocol/op-format.md` §5 documents every field.

extension EntityKind {
    /// The root of an outbox document: whether its author ended the friendship.
    public static let outbox = EntityKind(declaring: "outbox")
    /// A post: text, an optional place and photos, to an audience fixed when posting.
    public static let post = EntityKind(declaring: "post")
    /// A like or a comment on a post, signed by the person who reacted (`by`).
    public static let reaction = EntityKind(declaring: "reaction")
    /// A named group of friends (library documents only).
    public static let group = EntityKind(declaring: "group")
}

/// The root of an outbox: `ended` is written when its author ends the friendship, so the
/// reader's daemon ends it too.
public enum OutboxFields: EntityDeclaration {
    public static let ended = FieldKey<Self, Bool>("ended", .bool)

    public static let schema = EntitySchema(.outbox, id: .root, fields: [ended])
}

/// A post, as every outbox it was written to holds it (the author's own outbox to
/// themselves holds every post, `only-me` ones included).
public enum PostFields: EntityDeclaration {
    /// At most 2,000 characters; a post has text, photos, or both.
    public static let text = FieldKey<Self, String>("text", .text(maxLength: 2_000, required: false))
    /// `friends`, a `group` (which one is the author's alone) or `only-me`.
    public static let audience = FieldKey<Self, String>("audience", .oneOf(["friends", "group", "only-me"]))
    public static let placeName = FieldKey<Self, String>(
        "placeName", .text(maxLength: 200, required: false), label: "place")
    public static let placeLatitude = FieldKey<Self, Double>("placeLatitude", .optional(.latitude))
    public static let placeLongitude = FieldKey<Self, Double>("placeLongitude", .optional(.longitude))
    public static let placeAddress = FieldKey<Self, String>(
        "placeAddress", .text(maxLength: 500, required: false))
    public static let gazetteerID = FieldKey<Self, String>(FieldSpec.gazetteerID)
    /// Up to 10 photos: `[{"id", "contentType", "bytes", "width", "height"}]`.
    public static let photos = FieldKey<Self, JSONValue>("photos", .photos)
    public static let postedAt = FieldKey<Self, String>("postedAt", .timestamp, label: "posted at")

    public static let schema = EntitySchema(
        .post, id: .random,
        fields: [text, audience, placeName, placeLatitude, placeLongitude, placeAddress, gazetteerID, photos, postedAt])
}

/// A reaction to a post. The reader writes it into their outbox to the post's author; the
/// author copies it, with its signature, into the outboxes the post went to. `signature` is
/// the reactor's Ed25519 signature (`Protocol/sync.md` §7.3) over the post's author, the
/// post, the reaction's id, type, text and time, so no one else — the author included — can
/// make one up.
public enum ReactionFields: EntityDeclaration {
    public static let post = FieldKey<Self, String>("post", .entityID, column: "ref")
    public static let by = FieldKey<Self, String>("by", .key)
    public static let type = FieldKey<Self, String>("type", .oneOf(["like", "comment"]))
    public static let text = FieldKey<Self, String>("text", .text(maxLength: 2_000, required: false))
    public static let at = FieldKey<Self, String>("at", .timestamp)
    public static let signature = FieldKey<Self, String>("signature", .signature)
    /// The post's author (their public key hex): with `post`, which post it is — an entity id
    /// alone names a post only within one author's outboxes. Absent only on reactions stored
    /// before it was written (`Protocol/sync.md` §7.3).
    public static let postAuthor = FieldKey<Self, String>("postAuthor", .key)
    /// When a device of `by` that does not hold the person key signed (`Protocol/sync.md`
    /// §7.3): the device's certificate by `by`, base64url; `signature` is then the device's.
    public static let cert = FieldKey<Self, String>("cert", .token, label: "certificate")

    public static let schema = EntitySchema(
        .reaction, id: .random, fields: [post, by, type, text, at, signature, postAuthor, cert])
}

/// A group of friends: its name and members (public keys in hex, sorted).
public enum GroupFields: EntityDeclaration {
    public static let name = FieldKey<Self, String>("name", .text(maxLength: 100, required: true), column: "name")
    public static let members = FieldKey<Self, [String]>("members", .keys(max: 1_000))

    public static let schema = EntitySchema(.group, id: .random, fields: [name, members])
}
