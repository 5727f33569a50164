import PlacesCrypto
import PlacesModel

/// Outbox documents (`Protocol/sync.md` §7.3): one per author and reader, written only by the
/// author, sent only by the author to the reader, never relayed. An author's outbox to
/// themselves is their journal: every post they wrote, `only-me` ones included.
enum Outboxes {
    /// The outbox of `author` to `reader`: the first 16 bytes of BLAKE2b-256(`"places/outbox/1"`
    /// ‖ 0x00 ‖ author's Ed25519 key ‖ reader's). Fixed by the pair, so no one can plant a
    /// second or decoy outbox, and no itinerary or card can be offered under its id.
    static func documentID(author: [UInt8], reader: [UInt8]) -> DocumentID {
        let digest = Blake2b.hash256(Array("places/outbox/1".utf8) + [0] + author + reader)
        // 16 of 32 bytes: always a valid document id.
        return DocumentID(bytes: Array(digest.prefix(16))) ?? DocumentID(bytes: [UInt8](repeating: 0, count: 16))!
    }

    /// A like's entity id, fixed by the post (its author and id) and the person who likes it:
    /// one like per person and post, and unliking then liking again restores the same entity.
    /// The first 16 bytes of BLAKE2b-256(`"places/like/2"` ‖ 0x00 ‖ the post author's key ‖ the
    /// post id ‖ 0x00 ‖ the liker's key), in hex.
    static func likeID(of post: PostRef, by reactor: [UInt8]) -> String {
        let digest = Blake2b.hash256(
            Array("places/like/2".utf8) + [0] + post.author.bytes + Array(post.id.utf8) + [0] + reactor)
        return HexCoding.encode(Array(digest.prefix(16)))
    }

    /// The like id of a reaction written before reactions named their post's author (no
    /// `postAuthor` field): `"places/like/1"` ‖ 0x00 ‖ post id ‖ 0x00 ‖ liker's key. Still
    /// counted, and taken back by an unlike, so likes stored before the change keep working.
    static func legacyLikeID(post: String, by reactor: [UInt8]) -> String {
        let digest = Blake2b.hash256(Array("places/like/1".utf8) + [0] + Array(post.utf8) + [0] + reactor)
        return HexCoding.encode(Array(digest.prefix(16)))
    }

    /// The bytes a reaction's `signature` signs: `"places/reaction/1"` ‖ 0x00 ‖ the post
    /// author's key (32 bytes) ‖ the post id ‖ 0x00 ‖ the reaction id ‖ 0x00 ‖ type ‖ 0x00 ‖ text ‖
    /// 0x00 ‖ at (ids as their hex text, strings as UTF-8).
    static func reactionMessage(
        postAuthor: [UInt8], post: String, reaction: String, type: String, text: String, at: String
    ) -> [UInt8] {
        var out = Array("places/reaction/1".utf8) + [0] + postAuthor
        for part in [post, reaction, type, text] { out += Array(part.utf8) + [0] }
        return out + Array(at.utf8)
    }
}
