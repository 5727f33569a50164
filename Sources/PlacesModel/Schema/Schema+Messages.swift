// Direct messages between friends (issue 32): `message` entities in the author's outbox to
// the reader (`Protocol/sync.md` §7.3) — or, for a trip's conversation, in the itinerary
// document itself (`sync.md` §8.1, "Trip messages") — and `receipt` entities — delivered and read marks —
// in the reader's outbox to the author, so a mark travels the way messages do and only the
// reader can write it. `Protocol/op-format.md` §5 documents every field.

extension EntityKind {
    /// A message of a conversation: text and photos, written by its author alone.
    public static let message = EntityKind(declaring: "message")
    /// The reader's delivered and read marks of one message of the person they write to.
    public static let receipt = EntityKind(declaring: "receipt")
}

/// A message, in its author's outbox to the person it is for (its id random), or in a
/// trip's itinerary (its id made of its author and nonce: `EntitySchema.IDShape.message`). The author
/// deletes it for everyone by clearing `text` and `photos` and tombstoning it.
public enum MessageFields: EntityDeclaration {
    /// At most 4,000 characters; a message has text, photos, or both.
    public static let text = FieldKey<Self, String>("text", .text(maxLength: 4_000, required: false))
    /// Photos as a post's (`POST /v1/photos`, stripped the same way): at most 10.
    public static let photos = FieldKey<Self, JSONValue>("photos", .photos)
    /// When its author sent it, by the author's clock.
    public static let sentAt = FieldKey<Self, String>("sentAt", .timestamp, label: "sent at")
    /// In a trip's conversation only: the author's person key (64 lowercase hex). Every op
    /// that writes a trip message restates it with `nonce`, and the message's id must be
    /// `Store.tripMessageID(author:nonce:)` of the two (`Protocol/sync.md` §8.1), so no one
    /// but the author can write it.
    public static let author = FieldKey<Self, String>("author", .key)
    /// In a trip's conversation only: the 16 random bytes (32 lowercase hex) the id is made of.
    public static let nonce = FieldKey<Self, String>("nonce", .entityID)

    public static let schema = EntitySchema(
        .message, id: .message, fields: [text, photos, sentAt, author, nonce])
}

/// The marks a reader gives one message of the person whose outbox the message is in. Its
/// id is fixed by the message (`Protocol/sync.md` §7.3), one per message.
public enum ReceiptFields: EntityDeclaration {
    /// The message's entity id, in the other person's outbox to the receipt's author.
    public static let message = FieldKey<Self, String>("message", .entityID, column: "ref")
    /// When the reader's daemon stored the message.
    public static let deliveredAt = FieldKey<Self, String>("deliveredAt", .timestamp, label: "delivered at")
    /// When the reader's app or CLI showed it.
    public static let readAt = FieldKey<Self, String>("readAt", .timestamp, label: "read at")

    public static let schema = EntitySchema(.receipt, id: .random, fields: [message, deliveredAt, readAt])
}
