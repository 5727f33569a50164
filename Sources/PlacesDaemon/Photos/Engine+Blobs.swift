import Foundation
import PlacesAPI
import PlacesBlobs
import PlacesCrypto
import PlacesMedia
import PlacesModel
import PlacesStore
import PlacesSync

/// Photos between daemons (`Protocol/sync.md` §7.4): the engine's half of the blob messages.
/// It decides who may have a photo (a participant of one of this person's own documents
/// whose live entities name it), which photos to want from a peer (those named by what the peer owns
/// and shares with this daemon), and stores what arrives chunk by chunk in the blob store.
/// The windows, the wire checks and the wanted set are the replicator's (`Replicator+Blobs`).
extension Engine {
    /// Most posts of one outbox looked at for photos to fetch, newest first: the feed shows
    /// the newest; older ones' photos are fetched when a later scan reaches them.
    static let maxPostsScannedForPhotos = 500
    /// Most entities of one batch of ops looked at one by one for photos; the photos of a
    /// batch that changes more are looked for in its whole document (the newest 500 posts).
    static let maxChangedEntitiesScannedForPhotos = 500

    public func missingBlobs(from peer: PublicKey, in doc: DocumentID?, among entities: Set<EntityID>?, limit: Int)
        async -> [[UInt8]]
    {
        // A relay holds copies of friends' photos (`Protocol/relay.md` §8).
        if relays.isRelay(peer) { return await relayMissingBlobs(from: peer, in: doc, limit: limit) }
        // `peer` may be this person's first device, whose key is the person's (`me`).
        guard let me, peer != identity?.publicKey, limit > 0, let blobs = try? blobStore() else { return [] }
        // Another device of this person holds what this one holds: every card's and outbox's
        // photos are asked of it (`Protocol/devices.md` §4.3). Anyone else is asked for what
        // its person wrote: its outbox to this person, its card, and its messages in the
        // trips both are members of (`Engine+TripPhotos`).
        let sibling = isSibling(peer)
        let giver = person(of: peer)
        let candidates =
            doc.map { [$0] }
            ?? (sibling
                ? siblingPhotoDocuments()
                : [
                    Outboxes.documentID(author: giver.bytes, reader: me.bytes),
                    CardService.documentID(owner: giver.bytes),
                ] + tripsWithPhotos(sharedTrips(with: giver), by: giver))
        // After a batch of ops of `doc`: the entities it changes, read by id — every photo a
        // stored post or message names, without reading the newest 500 again per batch.
        let among =
            doc == nil ? nil : entities.flatMap { $0.count <= Self.maxChangedEntitiesScannedForPhotos ? $0 : nil }
        var out = [[UInt8]]()
        var seen = Set<BlobID>()
        for id in candidates {
            guard let record = try? store.document(id) else { continue }
            let named: [BlobID]
            if record.kind == .itinerary {
                // A trip's messages: the author of each is asked for its photos, while both
                // are current members (or a device of this person, for every member's).
                guard sibling || (isTripMember(giver, record) && isTripMember(me, record)) else { continue }
                named = tripPhotoIDs(in: record, author: sibling ? nil : giver, among: among)
            } else {
                // Only the document's owner (or a device of this person) is asked: it is who
                // wrote the photo's id there, or holds what this person holds.
                guard record.kind == .outbox || record.kind == .card,
                    sibling || (record.owner == giver.bytes && participants(of: record).contains(giver))
                else { continue }
                named = photoIDs(namedIn: record, among: among)
            }
            for photo in named where !blobs.contains(photo) && seen.insert(photo).inserted {
                out.append(photo.bytes)
                if out.count >= limit { return out }
            }
        }
        return out
    }

    /// Of `trips`, those in which `author` wrote a live message with photos (all of them when
    /// that cannot be read): a session's opening asks a peer for its photos in those alone.
    func tripsWithPhotos(_ trips: [DocumentID], by author: PublicKey) -> [DocumentID] {
        guard let withPhotos = try? store.documentsWithPhotoMessages(author: author.hex) else { return trips }
        return trips.filter { withPhotos.contains($0) }
    }

    public func blobResumeOffset(_ hash: [UInt8]) async -> UInt64? {
        if photos.relayCopies[hash] != nil { return relayResumeOffset(hash) }
        guard let id = BlobID(bytes: hash), let blobs = try? blobStore(), !blobs.contains(id) else { return nil }
        return UInt64(exactly: blobs.partialLength(id)) ?? 0
    }

    public func blobChunk(_ want: BlobTransfer.Request, for peer: PublicKey, maxBytes: Int) async
        -> BlobTransfer.Answer
    {
        if relays.isRelay(peer) { return relayBlobChunk(want, for: peer, maxBytes: maxBytes) }
        guard let id = BlobID(bytes: want.hash) else { return .missing(reason: "not a photo id") }
        guard let blobs = try? blobStore() else { return .missing(reason: "the photo store cannot be opened") }
        guard let size = blobs.size(id) else {
            // Another device of this person may have it as soon as it is held here.
            return isSibling(peer) ? .notYet(reason: "not held whole here") : .missing(reason: "not held whole here")
        }
        guard mayGive(id, to: peer) else {
            return .missing(reason: "no live post, card or trip message of this person gives it to the peer")
        }
        guard let offset = Int64(exactly: want.offset), offset <= size, let total = UInt64(exactly: size) else {
            return .missing(reason: "offset \(want.offset) is past the end of the \(size)-byte photo")
        }
        do {
            let data = try blobs.read(id, offset: offset, maxBytes: maxBytes)
            let last = offset + Int64(data.count) == size
            return .piece(BlobTransfer.Piece(hash: id.bytes, offset: want.offset, data: data, last: last, total: total))
        } catch {
            logger.error("reading a photo for a peer failed", metadata: ["photo.id": "\(id.hex)", "error": "\(error)"])
            return .missing(reason: error.code.rawValue)
        }
    }

    public func storeBlobChunk(_ piece: BlobTransfer.Piece, from peer: PublicKey) async -> BlobTransfer.Progress {
        if relays.isRelay(peer) { return storeRelayBlobChunk(piece, from: peer) }
        guard let id = BlobID(bytes: piece.hash) else { return .failed(reason: "not a photo id") }
        guard let offset = Int64(exactly: piece.offset), let total = Int64(exactly: piece.total) else {
            return .failed(reason: "offset or size out of range")
        }
        let blobs: BlobStore
        do { blobs = try blobStore() } catch { return .failed(reason: "the photo store cannot be opened") }
        do {
            let stored = try blobs.append(id, offset: offset, bytes: piece.data, last: piece.last, expectedSize: total)
            guard stored else { return .partial(next: UInt64(exactly: blobs.partialLength(id)) ?? 0) }
        } catch {
            return .failed(reason: error.description)
        }
        recordReceivedPhoto(id, size: total, from: peer)
        return .stored
    }

    // MARK: Who may have a photo

    /// Whether this person's own live documents give `id` to `peer`: a post in this person's
    /// outbox to `peer` while they are friends, or the picture or a shared place's photos of
    /// this person's card with `peer` in its audience. What another person's document names
    /// gives nothing: a friend who names a photo in its own post (an id it saw while a post
    /// was live) cannot make this daemon serve it once its author deleted that post. Read
    /// afresh for every want (within the few seconds a decision is kept), so a deleted post
    /// or an ended friendship stops a transfer.
    func mayGive(_ id: BlobID, to peer: PublicKey) -> Bool {
        guard let me, peer != identity?.publicKey else { return false }
        // Another device of this person may have every photo this one holds.
        if isSibling(peer) { return true }
        let peer = person(of: peer)
        // A decision holds for a few seconds: a 20 MiB photo is 80 wants, and each would
        // otherwise search the outbox's posts again (a deleted post or an ended friendship
        // stops the transfer within that time).
        let now = ContinuousClock.now
        if photos.allowsGiving(id, to: peer, at: now) { return true }
        let allowed = mayGiveNow(id, to: peer, me: me)
        photos.decided(allowed, id, to: peer, at: now)
        return allowed
    }

    private func mayGiveNow(_ id: BlobID, to peer: PublicKey, me: PublicKey) -> Bool {
        // This person's outbox to `peer` gives only while they are friends: after an ended
        // friendship it is still offered (so the reader learns it ended), but gives no photo.
        var docs = [CardService.documentID(owner: me.bytes)]
        if friendState(peer) == .friend { docs.append(Outboxes.documentID(author: me.bytes, reader: peer.bytes)) }
        for doc in docs {
            guard let record = try? store.document(doc), record.owner == me.bytes,
                participants(of: record).contains(peer)
            else { continue }
            if photoIDs(namedIn: record, only: id).contains(id) { return true }
        }
        // A message of this person's in a trip the peer is a current member of.
        return tripsGive(id, to: peer, me: me)
    }

    /// The photos live entities of an outbox (its posts and messages) or a card (its picture)
    /// name; with `only`, just whether that one is named (read with a text search, not a
    /// scan); with `among`, of those entities alone (an outbox's or a trip's; a card, small,
    /// is looked at whole).
    func photoIDs(namedIn record: Store.DocumentRecord, only: BlobID? = nil, among: Set<EntityID>? = nil)
        -> [BlobID]
    {
        switch record.kind {
        case .card:
            // The picture, and the photos of the places the card shares (pins on a friend's map).
            var ids = [BlobID]()
            if let picture = cardPicture(record), let id = BlobID(hex: picture) { ids.append(id) }
            let places = (try? store.entities(in: record.id, kind: .sharedPlace)) ?? []
            for place in places.prefix(CardService.maxSharedPlaces) {
                for photo in Engine.photos(from: Views.fields(place)[SharedPlaceFields.photos.name]) {
                    if let id = BlobID(hex: photo.id) { ids.append(id) }
                }
            }
            return ids.filter { only == nil || $0 == only }
        case .outbox:
            var posts: [Store.EntityRecord]
            if let only {
                posts = (try? store.liveEntities(of: .post, in: [record.id], containing: only.hex)) ?? []
                // A message's photos are given as a post's (issue 32).
                posts += (try? store.liveEntities(of: .message, in: [record.id], containing: only.hex)) ?? []
            } else if let among {
                posts = ((try? store.entities(in: record.id, ids: among.sorted())) ?? []).filter {
                    !$0.deleted && ($0.kind == .post || $0.kind == .message)
                }
            } else {
                posts =
                    (try? store.posts(in: [record.id], before: nil, limit: Self.maxPostsScannedForPhotos)) ?? []
                posts +=
                    ((try? store.messages(in: record.id, before: nil, limit: Self.maxPostsScannedForPhotos))
                    ?? []).filter { !$0.deleted }
            }
            return posts.flatMap { post in
                Engine.photos(from: Views.fields(post)[PostFields.photos.name]).compactMap { BlobID(hex: $0.id) }
            }
            .filter { only == nil || $0 == only }
        case .itinerary:
            // A trip's messages, every member's (`Engine+TripPhotos`).
            return tripPhotoIDs(in: record, author: nil, only: only, among: among)
        default:
            return []
        }
    }

    /// The documents whose photos a device asks its siblings for: every outbox, card and
    /// trip held.
    func siblingPhotoDocuments() -> [DocumentID] {
        ((try? store.documents()) ?? []).filter { [Store.DocumentKind.outbox, .card, .itinerary].contains($0.kind) }
            .map(\.id)
    }

    // MARK: A photo received

    /// Keeps what is known of a photo that arrived whole: from the descriptor of the post
    /// that named it (its author's outbox to this person), else from its own header (a
    /// card's picture), with `peer` as its giver: it is kept only while a live post or card of
    /// `peer`'s names it (`collectPhotos`). GET /v1/photos/{id} answers from now on.
    func recordReceivedPhoto(_ id: BlobID, size: Int64, from peer: PublicKey) {
        guard let me else { return }
        var peer = person(of: peer)
        var outboxes = [Outboxes.documentID(author: peer.bytes, reader: me.bytes)]
        if peer == me {
            // From another device of this person: the giver is whoever wrote the post or card
            // that names it here.
            outboxes = siblingPhotoDocuments()
            if let named = outboxes.first(where: { doc in
                guard let record = try? store.document(doc) else { return false }
                return photoIDs(namedIn: record, only: id).contains(id)
            }), let named = try? store.document(named) {
                // A trip message's giver is its author, not the itinerary's owner.
                let author =
                    named.kind == .itinerary
                    ? tripMessage(naming: id, in: [named.id], author: nil).flatMap(tripMessageAuthor)
                    : try? PublicKey(bytes: named.owner)
                if let author { peer = author }
            }
        }
        var posts =
            ((try? store.liveEntities(of: .post, in: outboxes, containing: id.hex)) ?? [])
            + ((try? store.liveEntities(of: .message, in: outboxes, containing: id.hex)) ?? [])
        if posts.isEmpty, let message = tripMessage(naming: id, in: sharedTrips(with: peer), author: peer) {
            posts.append(message)
        }
        var record: Store.PhotoRecord?
        if let described = posts.lazy.flatMap({ Engine.photos(from: Views.fields($0)[PostFields.photos.name]) })
            .first(where: { $0.id == id.hex })
        {
            record = Store.PhotoRecord(
                id: id.hex, contentType: described.contentType, bytes: size, width: described.width,
                height: described.height)
        } else if let head = try? blobStore().read(id, offset: 0, maxBytes: BlobStore.maxChunkBytes),
            let info = try? ImageInfo.inspect(head)
        {
            record = Store.PhotoRecord(
                id: id.hex, contentType: info.mediaType.rawValue, bytes: size, width: info.width, height: info.height)
        }
        if let record {
            do { try store.savePhoto(record, source: peer.bytes, timeMs: RFC3339.nowMs()) } catch {
                logger.error("keeping a received photo's details failed", metadata: ["photo.id": "\(id.hex)"])
            }
        }
    }
}
