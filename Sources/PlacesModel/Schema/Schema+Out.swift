// "I'm out" (issue 32): a note telling an audience of friends where the author is, roughly,
// until when. It travels in the author's outbox to each reader (`Protocol/sync.md` §7.3,
// "Out notes"), so nobody outside the audience holds a byte of it, and every reader's daemon
// hides it at its own `until`, whether or not a delete ever arrives.

extension EntityKind {
    /// The author's current "I'm out" note to the outbox's reader (one per outbox).
    public static let out = EntityKind(declaring: "out")
}

/// An "I'm out" note. Its id is the same in every outbox (`entityID`): a new note replaces
/// the last one. The journal's copy (the author's outbox to themselves, which stays on their
/// devices) also keeps who it went to (`audience`, `readers`); readers' copies never do.
public enum OutFields: EntityDeclaration {
    /// The one id of an out note: the first 16 bytes of BLAKE2b-256(`places/out/1`), in hex.
    public static let entityID = "986be11c139ff0596d6bc32dceb40393"

    /// Where: the place's position, or a position rounded to about 200 m unless `exact`.
    public static let latitude = FieldKey<Self, Double>("latitude", .latitude, column: "latitude")
    public static let longitude = FieldKey<Self, Double>("longitude", .longitude, column: "longitude")
    /// The place's name when the author said where by place.
    public static let place = FieldKey<Self, String>("place", .text(maxLength: 200, required: false))
    public static let note = FieldKey<Self, String>("note", .text(maxLength: 280, required: false))
    /// Whether the position is as given (true) or rounded to the 200 m grid (false).
    public static let exact = FieldKey<Self, Bool>("exact", .bool)
    public static let since = FieldKey<Self, String>("since", .timestamp)
    /// Readers show the note only before this time, by their own clock.
    public static let until = FieldKey<Self, String>("until", .timestamp)
    /// Journal copy only: `friends`, `group:` and the group id, or `people`.
    public static let audience = FieldKey<Self, String>("audience", .text(maxLength: 100, required: false))
    /// Journal copy only: the readers whose outboxes hold the note.
    public static let readers = FieldKey<Self, [String]>("readers", .keys(max: 1_000))

    public static let schema = EntitySchema(
        .out, id: .fixed(entityID),
        fields: [latitude, longitude, place, note, exact, since, until, audience, readers])
}
