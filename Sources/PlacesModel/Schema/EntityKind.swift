/// The kind of an entity, as ops name it (`"kind"` in a change). A kind is declared by an
/// `EntitySchema` in `Schema.shipped`; the static members below are the shipped kinds' names,
/// so that code reads `.stop` as it did when this was an enum.
///
/// It is a struct, not an enum, so that a kind is added by declaring it (one `static let`
/// and its `EntitySchema`) and tests can declare kinds the shipped schema does not hold.
/// Parsing (`init(rawValue:)`, `Decodable`) accepts only the shipped kinds: an op naming
/// another kind is refused as before.
public struct EntityKind: RawRepresentable, Hashable, Sendable, Codable, CaseIterable, Comparable,
    CustomStringConvertible
{
    /// The kind's name in ops and in the store (`entity.kind`).
    public let rawValue: String

    /// A shipped kind by name; nil for any other string.
    public init?(rawValue: String) {
        // A scan of a few short strings: cheaper than hashing, and ops parse it per change.
        for kind in EntityKind.shipped where kind.rawValue == rawValue {
            self = kind
            return
        }
        return nil
    }

    /// The shipped kinds, in `Schema.shipped` order.
    private static let shipped: [EntityKind] = Schema.shipped.entities.map(\.kind)

    /// Declares a kind by name. Only schema declarations (and tests) call this: parsing goes
    /// through `init(rawValue:)`.
    public init(declaring name: String) { self.rawValue = name }

    /// The itinerary itself (root entity of an itinerary document; id = document id).
    public static let itinerary = EntityKind(declaring: "itinerary")
    /// A place to go in an itinerary (ordered by `position`).
    public static let stop = EntityKind(declaring: "stop")
    /// A place in a person's library.
    public static let place = EntityKind(declaring: "place")
    /// A heart on a place (ordered by `position`).
    public static let favorite = EntityKind(declaring: "favorite")
    /// A person's public profile (root entity of a profile document).
    public static let profile = EntityKind(declaring: "profile")
    /// A member of a shared itinerary (entity id = the member's public key in hex); its
    /// `role` field is `editor`, `viewer`, `removed` (by the owner) or `left` (by the
    /// member). The owner writes these, and a member its own join and leave.
    public static let member = EntityKind(declaring: "member")
    /// A share link of an itinerary (entity id = the token id in hex): `role`, `issuer`,
    /// `expiresAt`, `uses`, `audience`, and `revoked` once the owner revokes it.
    public static let link = EntityKind(declaring: "link")
    /// A member's record of having viewed an itinerary (entity id = the member's key in
    /// hex; field `viewedAt`). Written by that member only.
    public static let view = EntityKind(declaring: "view")

    /// Every shipped kind, in the order of `Schema.shipped`.
    public static var allCases: [EntityKind] { shipped }

    /// The shipped declaration of this kind; nil for a kind only a test declares.
    public var schema: EntitySchema? { Schema.shipped.entity(self) }

    public var description: String { rawValue }

    public static func < (a: EntityKind, b: EntityKind) -> Bool { a.rawValue < b.rawValue }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let kind = EntityKind(rawValue: name) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "unknown entity kind '\(name.prefix(64))'"))
        }
        self = kind
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}
