/// The bounds and shape rules every op from a peer must meet before anything in it is stored
/// (`Protocol/op-format.md` §1, §4, §5 and §9). They keep every later computation on peer
/// values in range: a Lamport time or seq stays far below `Int64.max` (stored as SQLite
/// integers, incremented by local appends), and a time fits a four-digit year.
public enum OpRules {
    /// The largest `seq` an op may carry: 2^32 − 1.
    public static let maxSeq: UInt64 = 0xFFFF_FFFF
    /// The largest `lamport` an op may carry: 2^53 − 1 (exact as a double, for JSON readers).
    public static let maxLamport: UInt64 = (1 << 53) - 1
    /// The largest body `timeMs`: 9999-12-31T23:59:59.999Z.
    public static let maxTimeMs: Int64 = 253_402_300_799_999

    /// The entity kinds a document of each kind holds (op-format §5), by the document kind's
    /// raw name (`itinerary`, `library`, `profile`), from `Schema.shipped`.
    public static var kindsByDocument: [String: Set<EntityKind>] { Schema.shipped.kindsByDocument }

    /// Why an op body from a peer is refused, nil when it passes: `timeMs` in 0…`maxTimeMs`,
    /// and every change `refusal(of:in:documentKind:)` accepts.
    public static func refusal(of body: OpBody, in doc: DocumentID, documentKind: String) -> String? {
        guard body.timeMs >= 0, body.timeMs <= maxTimeMs else { return "timeMs \(body.timeMs) is out of range" }
        let rootID = doc.hex
        for (index, change) in body.changes.enumerated() {
            if let why = refusal(of: change, rootID: rootID, documentKind: documentKind) {
                return "change \(index): \(why)"
            }
        }
        return nil
    }

    /// Why one change is refused, nil when it passes (op-format §5, `Schema.refusal`):
    ///
    /// - its kind is one the document's kind holds;
    /// - its entity id has the shape of its kind (`EntitySchema.IDShape`): the root entity
    ///   (id = the document id in hex) is the `itinerary` or `profile` and nothing else;
    ///   `member` and `view` ids are 64 lowercase hex (a public key), a trip `message`'s 48
    ///   (made of its author and nonce: no change of another kind can name it), every other
    ///   id 32 lowercase hex other than the root's;
    /// - a `set` names a field of that kind, and its `value` (and `old` unless null) is exactly
    ///   what a local write of that field stores (`FieldRule`).
    public static func refusal(of change: Change, rootID: String, documentKind: String) -> String? {
        Schema.shipped.refusal(of: change, rootID: rootID, documentKind: documentKind)
    }
}
