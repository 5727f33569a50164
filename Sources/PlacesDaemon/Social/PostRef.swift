import PlacesCrypto
import PlacesModel

/// A post as this daemon names it: its author and its entity id (`Protocol/sync.md` §7.3). An
/// entity id is random, but only unique within its author's outboxes: any friend may write a
/// post with the id of someone else's, so a post is never looked up, counted, reacted to or
/// notified about by its entity id alone.
struct PostRef: Hashable, Sendable {
    /// Who wrote it: the owner of the outboxes it is in.
    var author: PublicKey
    /// Its entity id (32 lowercase hex), the same in every outbox of its author.
    var id: EntityID

    /// Characters of a route id: the entity id (32) then the author's key (64), lowercase hex.
    static let routeIDLength = 96

    /// The id the control API shows and takes (`Post.id`, `/v1/posts/{postId}`, a notification's
    /// `subject`): the entity id followed by the author's key, both in lowercase hex. The
    /// entity id comes first, so the start of a route id is the start of the post's own id.
    var routeID: String { id + author.hex }

    init(author: PublicKey, id: EntityID) {
        self.author = author
        self.id = id
    }

    /// Reads a route id: exactly 96 lowercase hex characters; nil otherwise.
    init?(routeID text: String) {
        guard FieldRule.isLowerHex(text, count: Self.routeIDLength) else { return nil }
        let id = String(text.prefix(32))
        guard let author = Engine.publicKey(hex: String(text.dropFirst(32))) else { return nil }
        self.init(author: author, id: id)
    }
}
