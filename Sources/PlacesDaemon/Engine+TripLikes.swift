import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// Likes of published trips (`Protocol/sync.md` §7.5): this person's likes, signed and sent to
/// the author; the likes others send of this person's trips, checked and copied in.
extension Engine {
    /// `PUT|DELETE /v1/explore/{id}/like`.
    func likeTrip(_ reference: String, liked: Bool) throws -> JSONValue {
        let identity = try personSigner("like a published trip")
        let entry = try visibleTrip(reference)
        let at = RFC3339.string(ms: RFC3339.nowMs())
        let signature = identity.sign(
            PublishedLike.message(doc: entry.doc, liker: identity.publicKey.bytes, liked: liked, at: at))
        let like = PublishedLike(doc: entry.doc, liked: liked, at: at, signature: signature.bytes)
        if entry.author == identity.publicKey.bytes {
            try storeLike(like, liker: identity.publicKey, in: entry.doc)
        } else {
            try storeCall { () throws(StoreError) in
                try store.saveMyTripLike(
                    Store.TripLikeRecord(
                        doc: entry.doc, liked: liked, at: at, signature: HexCoding.encode(signature.bytes)))
            }
            if let author = try? PublicKey(bytes: entry.author) { replicator.sendLike(like, to: author) }
        }
        return summary(try visibleTrip(entry.doc.hex))
    }

    /// A like from `peer` of one of this identity's published trips (`Protocol/sync.md` §7.5):
    /// kept when the trip is live, `peer` may see it, the like is newer than the one held,
    /// its time is not in the future and its signature holds; dropped (logged) otherwise.
    public func receiveLike(_ like: PublishedLike, from peer: PublicKey) async {
        func drop(_ reason: String) {
            logger.notice(
                "dropped a trip like",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(like.doc)", "reason": "\(reason)"])
        }
        guard let me, let doc = try? store.document(like.doc), doc.kind == .published, doc.owner == me.bytes else {
            return drop("not a trip this daemon published")
        }
        guard !isWithdrawn(doc.id), mayRead(doc.id, peer) else { return drop("the trip is not published to them") }
        guard exploreComponent.takeLike(from: peer, minute: RFC3339.nowMs() / 60_000) else {
            return drop("more than 30 likes a minute")
        }
        guard TripLikeFields.schema.setRefusal(field: TripLikeFields.at.name, value: .string(like.at), old: nil) == nil,
            let atMs = RFC3339.parse(like.at), atMs <= RFC3339.nowMs() + 600_000
        else { return drop("its time is not a time, or is in the future") }
        guard like.isSigned(by: peer.bytes) else { return drop("its signature does not hold") }
        do { try storeLike(like, liker: peer, in: doc.id) } catch { drop("\(error)") }
    }

    /// Writes `liker`'s like into this identity's trip `doc` when it is newer than the one held.
    private func storeLike(_ like: PublishedLike, liker: PublicKey, in doc: DocumentID) throws {
        let existing = try storeCall { () throws(StoreError) in try store.entity(in: doc, id: liker.hex) }
        let held = existing.map(Views.fields) ?? [:]
        if let heldAt = held[TripLikeFields.at].flatMap(RFC3339.parse), let atMs = RFC3339.parse(like.at),
            heldAt >= atMs
        {
            logger.info("ignored a trip like no newer than the one held", metadata: ["doc.id": "\(doc)"])
            return
        }
        if existing == nil {
            let count = try storeCall { () throws(StoreError) in try store.entities(in: doc, kind: .tripLike).count }
            guard count < PublishedBounds.likesPerTrip else {
                logger.notice("dropped a trip like: the trip has 10,000 likers", metadata: ["doc.id": "\(doc)"])
                return
            }
        }
        var write = existing == nil ? EntityWrite<TripLikeFields>.create(liker.hex) : .update(liker.hex)
        if existing?.deleted == true { write.set(FieldSpec.deleted.name, to: .bool(false), old: .bool(true)) }
        write.set(TripLikeFields.liked, to: like.liked, old: held[TripLikeFields.liked])
        write.set(TripLikeFields.at, to: like.at, old: held[TripLikeFields.at])
        write.set(
            TripLikeFields.signature, to: HexCoding.encode(like.signature), old: held[TripLikeFields.signature])
        try commit(doc, write.changes, summary: like.liked ? "trip liked" : "trip like withdrawn")
        if like.liked, held[TripLikeFields.liked] != true, liker != me {
            notify("trip-liked", actor: liker, subject: doc.hex, dedup: "trip-liked/\(doc.hex)/\(liker.hex)")
        }
    }

    /// This identity's likes of `peer`'s trips that `peer`'s copy does not show yet.
    public func publishedLikes(for peer: PublicKey) async -> [PublishedLike] {
        guard let me else { return [] }
        var out = [PublishedLike]()
        for like in (try? store.myTripLikes()) ?? [] {
            guard let doc = try? store.document(like.doc), doc.owner == peer.bytes,
                let signature = HexCoding.decode(like.signature)
            else { continue }
            let held = (try? store.entity(in: like.doc, id: me.hex)).map(Views.fields)
            if held?[TripLikeFields.at] == like.at { continue }
            out.append(PublishedLike(doc: like.doc, liked: like.liked, at: like.at, signature: signature))
        }
        return out
    }
}
