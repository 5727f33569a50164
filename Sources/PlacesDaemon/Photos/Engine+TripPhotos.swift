import Foundation
import PlacesBlobs
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Photos of a trip's conversation (`Protocol/sync.md` §7.4, issue 32): a member's message
/// names photos by id, and the members' daemons fetch the bytes from the daemon of the
/// message's **author**, which gives them to the trip's current members only. A removed
/// member is given nothing more (and never learns the ids of photos of messages written
/// after its removal); a member that names another's photo in its own message makes no one
/// else give it. The author also keeps an encrypted copy at the trip's relays (`relay.md` §8,
/// `Engine+RelayPhotos`), so a member who is never online with the author gets it there.
extension Engine {
    /// Most messages of one author looked at in one trip for photos to fetch, newest first.
    static let maxTripMessagesScannedForPhotos = 500

    /// Whether `person` is a current member of the trip `record` (its owner, an editor or a
    /// viewer, not removed).
    func isTripMember(_ person: PublicKey, _ record: Store.DocumentRecord) -> Bool {
        record.kind == .itinerary && participants(of: record).contains(person)
    }

    /// The ids of the trips held here that this person and `peer` (a person) are both
    /// current members of.
    func sharedTrips(with peer: PublicKey) -> [DocumentID] {
        guard let me, peer != me else { return [] }
        let trips = (try? store.documents(kind: .itinerary)) ?? []
        return trips.filter { isTripMember(peer, $0) && isTripMember(me, $0) }.map(\.id)
    }

    /// The photos the live messages of `author` (of every member when nil) in the trip
    /// `record` name, the newest 500 such messages; with `only`, just whether that one is
    /// named (by a text search, not a scan); with `among`, of those entities alone (the
    /// ones a batch of ops changes).
    func tripPhotoIDs(
        in record: Store.DocumentRecord, author: PublicKey?, only: BlobID? = nil, among: Set<EntityID>? = nil
    ) -> [BlobID] {
        guard record.kind == .itinerary else { return [] }
        var messages: [Store.EntityRecord]
        if let only {
            messages = (try? store.liveEntities(of: .message, in: [record.id], containing: only.hex)) ?? []
            if let author { messages = messages.filter { Views.fields($0)[MessageFields.author] == author.hex } }
        } else if let among {
            messages = ((try? store.entities(in: record.id, ids: among.sorted())) ?? []).filter {
                $0.kind == .message && !$0.deleted
                    && (author == nil || Views.fields($0)[MessageFields.author] == author?.hex)
            }
        } else {
            messages =
                (try? store.tripPhotoMessages(
                    in: record.id, author: author?.hex, limit: Self.maxTripMessagesScannedForPhotos)) ?? []
        }
        return messages.flatMap { message in
            Engine.photos(from: Views.fields(message)[MessageFields.photos.name]).compactMap { BlobID(hex: $0.id) }
        }
        .filter { only == nil || $0 == only }
    }

    /// Whether a live message of this person's in a trip that `peer` (a person) is a current
    /// member of names `id`: the trip half of `mayGive`.
    func tripsGive(_ id: BlobID, to peer: PublicKey, me: PublicKey) -> Bool {
        for doc in sharedTrips(with: peer) {
            guard let record = try? store.document(doc) else { continue }
            if tripPhotoIDs(in: record, author: me, only: id).contains(id) { return true }
        }
        return false
    }

    /// The live trip message of `author` (anyone's when nil) among `trips` that names `id`:
    /// where a received photo's details and giver come from.
    func tripMessage(naming id: BlobID, in trips: [DocumentID], author: PublicKey?) -> Store.EntityRecord? {
        let messages = (try? store.liveEntities(of: .message, in: trips, containing: id.hex)) ?? []
        return messages.first { message in
            let fields = Views.fields(message)
            guard author == nil || fields[MessageFields.author] == author?.hex else { return false }
            return Engine.photos(from: fields[MessageFields.photos.name]).contains { $0.id == id.hex }
        }
    }
}
