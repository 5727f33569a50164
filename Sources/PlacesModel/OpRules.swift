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
    /// raw name (`itinerary`, `library`, `profile`).
    public static let kindsByDocument: [String: Set<EntityKind>] = [
        "itinerary": [.itinerary, .stop, .member, .link, .view],
        "library": [.place, .favorite],
        "profile": [.profile],
    ]

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

    /// Why one change is refused, nil when it passes (op-format §5):
    ///
    /// - its kind is one the document's kind holds;
    /// - its entity id has the shape of its kind: the root entity (id = the document id in
    ///   hex) is the `itinerary` or `profile` and nothing else; `member` and `view` ids are 64
    ///   lowercase hex (a public key), every other id 32 lowercase hex other than the root's;
    /// - a `set` names a field of that kind, and its `value` (and `old` unless null) is exactly
    ///   what a local write of that field stores (`FieldRule`).
    public static func refusal(of change: Change, rootID: String, documentKind: String) -> String? {
        let kind = change.kind, entity = change.entity
        guard kindsByDocument[documentKind]?.contains(kind) == true else {
            return "a \(documentKind) document holds no \(kind.rawValue) entities"
        }
        switch kind {
        case .itinerary, .profile:
            guard entity == rootID else { return "a \(kind.rawValue) entity must be the root (id = document id)" }
        case .member, .view:
            guard FieldRule.isLowerHex(entity, count: 64) else {
                return "a \(kind.rawValue) entity id must be a public key in lowercase hex"
            }
        case .stop, .place, .favorite, .link:
            guard FieldRule.isLowerHex(entity, count: 32), entity != rootID else {
                return "a \(kind.rawValue) entity id must be 32 lowercase hex characters other than the document id"
            }
        }
        guard case .set(_, _, let field, let value, let old) = change else { return nil }
        guard let rule = FieldRule.fields[kind]?[field] else {
            return "a \(kind.rawValue) has no field '\(field.prefix(64))'"
        }
        do throws(FieldError) {
            guard try rule.validate(field, value) == value else {
                return "'\(field)' is not written as a local write stores it"
            }
            if let old, !old.isNull, try rule.validate(field, old) != old {
                return "the old value of '\(field)' is not written as a local write stores it"
            }
        } catch {
            return error.message
        }
        return nil
    }
}
