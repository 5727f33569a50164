// Relays in documents (issue 30, `Protocol/relay.md` §5.1): the owner of an itinerary, an
// outbox or a card names the relays that keep it, so that every member reaches the document
// through them without having typed a relay's address. Only the owner (or one of the owner's
// devices) writes them; a `relay` entity is housekeeping, never activity.

extension EntityKind {
    /// A relay that keeps the document: id = the first 16 bytes of BLAKE2b-256 of
    /// "relay:<the relay key in hex>", in hex.
    public static let relay = EntityKind(declaring: "relay")
}

/// A relay keeping a document: its key and the address members dial; removed with the
/// tombstone when its owner stops using it.
public enum RelayFields: EntityDeclaration {
    public static let key = FieldKey<Self, String>("key", .key)
    public static let address = FieldKey<Self, String>("address", .hostPort)

    public static let schema = EntitySchema(.relay, id: .random, fields: [key, address])
}
