// A person's own state kept outside documents (issue 29, `Protocol/devices.md` §4.4): friends
// and requests, contacts, saved trips and settings. Each daemon keeps them in its tables
// (`friend`, `contact`, `trip_saved`, `preference`); every change is also written into the
// person's library document, which only the person's devices can read, so that it follows
// the person to every device. A device applies its siblings' writes to its own tables.

extension EntityKind {
    // Each entity's id is the first 16 bytes of BLAKE2b-256 of "<kind>:<row key>" (UTF-8), in
    // hex: one entity per row and kind, found again from the row alone.

    /// A friendship or request (`person`: the friend's person key).
    public static let friend = EntityKind(declaring: "friend")
    /// A contact: someone this person accepts shares and invitations from (`person`: their key).
    public static let contact = EntityKind(declaring: "contact")
    /// A trip of explore this person saved (`trip`: the published document's id).
    public static let saved = EntityKind(declaring: "saved")
    /// One setting (`key`: its name).
    public static let setting = EntityKind(declaring: "setting")

    /// The kinds that mirror a person's tables.
    public static let personState: [EntityKind] = [.friend, .contact, .saved, .setting]

    /// Devices, relays and the person's mirrored tables: kept in documents, never shown as
    /// activity. Messages neither: a conversation is not a change to a trip (and its text is
    /// not copied into the activity table).
    public var isHousekeeping: Bool {
        self == .device || self == .relay || self == .friend || self == .contact || self == .saved
            || self == .setting || self == .message
    }
}

/// A friendship's state as this person's devices record it.
public enum FriendFields: EntityDeclaration {
    public static let person = FieldKey<Self, String>("person", .key)
    /// `requested` (this person asked), `friend` (both agreed), `ended`.
    public static let state = FieldKey<Self, String>("state", .oneOf(["requested", "friend", "ended"]))
    /// The name they gave when the friendship started (may be empty).
    public static let name = FieldKey<Self, String>(
        "name", .text(maxLength: 200, required: false), column: "name")
    public static let since = FieldKey<Self, String>("since", .timestamp)

    public static let schema = EntitySchema(.friend, id: .random, fields: [person, state, name, since])
}

/// A contact; removed with the tombstone.
public enum ContactFields: EntityDeclaration {
    public static let person = FieldKey<Self, String>("person", .key)
    public static let name = FieldKey<Self, String>(
        "name", .text(maxLength: 200, required: false), column: "name")
    public static let addedAt = FieldKey<Self, String>("addedAt", .timestamp, label: "added at")

    public static let schema = EntitySchema(.contact, id: .random, fields: [person, name, addedAt])
}

/// A saved trip; unsaved with the tombstone.
public enum SavedFields: EntityDeclaration {
    public static let trip = FieldKey<Self, String>("trip", .entityID)
    public static let savedAt = FieldKey<Self, String>("savedAt", .timestamp, label: "saved at")

    public static let schema = EntitySchema(.saved, id: .random, fields: [trip, savedAt])
}

/// A setting: its key and value (both text); removed with the tombstone.
public enum SettingFields: EntityDeclaration {
    public static let key = FieldKey<Self, String>("key", .text(maxLength: 200, required: true))
    public static let value = FieldKey<Self, String>("value", .text(maxLength: 10_000, required: false))

    public static let schema = EntitySchema(.setting, id: .random, fields: [key, value])
}
