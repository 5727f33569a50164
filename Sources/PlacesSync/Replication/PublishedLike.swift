import Foundation
import PlacesCrypto
import PlacesModel

/// A like (or unlike) of a published trip, signed by its liker (`Protocol/sync.md` §7.5): the
/// `TripLike` message's content. The liker is the session's peer; its author copies it into
/// the trip as a `tripLike` entity, so every reader counts distinct verified likers.
public struct PublishedLike: Sendable, Hashable {
    /// The `Hello` feature of peers that take published trips and their likes.
    public static let feature = "published/1"
    /// Longest `at` accepted (the `timestamp` field rule's bound).
    public static let maxAtBytes = 64

    public var doc: DocumentID
    public var liked: Bool
    /// RFC 3339, as the signature covers it.
    public var at: String
    /// 64 bytes.
    public var signature: [UInt8]

    public init(doc: DocumentID, liked: Bool, at: String, signature: [UInt8]) {
        self.doc = doc
        self.liked = liked
        self.at = at
        self.signature = signature
    }

    /// The bytes a like's signature signs: `"places/trip-like/1"` ‖ 0x00 ‖ the trip's id (hex) ‖
    /// 0x00 ‖ the liker's key (hex) ‖ 0x00 ‖ `like` or `unlike` ‖ 0x00 ‖ at.
    public static func message(doc: DocumentID, liker: [UInt8], liked: Bool, at: String) -> [UInt8] {
        var out = Array("places/trip-like/1".utf8) + [0]
        for part in [doc.hex, HexCoding.encode(liker), liked ? "like" : "unlike"] { out += Array(part.utf8) + [0] }
        return out + Array(at.utf8)
    }

    /// Whether `signature` is `liker`'s over this like.
    public func isSigned(by liker: [UInt8]) -> Bool {
        guard let key = try? PublicKey(bytes: liker), let signature = try? Signature(bytes: signature) else {
            return false
        }
        return key.verify(signature, for: PublishedLike.message(doc: doc, liker: liker, liked: liked, at: at))
    }
}

extension Replicator {
    static func tripLike(_ like: PublishedLike) -> SyncMessage {
        var wire = Places_Sync_V1_TripLike()
        wire.doc = Data(like.doc.bytes)
        wire.liked = like.liked
        wire.at = like.at
        wire.signature = Data(like.signature)
        var message = SyncMessage()
        message.tripLike = wire
        return message
    }

    /// A peer's like: sizes checked here, the rest by the host. A malformed one, or one from a
    /// peer that did not say it takes published trips, is dropped (logged).
    func handleTripLike(_ wire: Places_Sync_V1_TripLike, from peer: PublicKey) async -> [SyncMessage] {
        guard let host else { return [] }
        guard takes(.published, peer), let doc = DocumentID(bytes: [UInt8](wire.doc)), wire.signature.count == 64,
            wire.at.utf8.count <= PublishedLike.maxAtBytes
        else {
            logger.warning("dropped a malformed trip like", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
            return []
        }
        await host.receiveLike(
            PublishedLike(doc: doc, liked: wire.liked, at: wire.at, signature: [UInt8](wire.signature)), from: peer)
        return []
    }
}
