import Foundation
import PlacesBlobs
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// Photos through a blind relay (`Protocol/relay.md` §8), a member's half. As a **giver**
/// (the author whose outbox or card names a photo, or whose trip message does) this daemon
/// announces to its relays the copies of the photos its relayed documents name, and answers
/// their wants with the photo encrypted under the copy's key (`RelayBlob`). As a **reader** it
/// asks its relays, as holders of last resort, for the photos named by a friend's outbox to
/// it or card, or by another member's message in a trip both are in, while that author is not
/// connected, and decrypts what arrives into the blob store, where the photo's hash is checked
/// as for a photo from the author.
extension Engine {
    // MARK: Giving

    /// A relay offered a document (it holds its access list, `bytes`): the copies of the
    /// photos it names are announced to that relay, once per session.
    func relayPhotosFollowOffer(_ bytes: [UInt8], from peer: PublicKey) {
        guard relays.isRelay(peer), bytes.count > 17, let doc = DocumentID(bytes: Array(bytes[1..<17])),
            photos.relayAnnounced[peer]?[doc] == nil, let record = try? store.document(doc),
            givesCopies(of: record, to: peer)
        else { return }
        announceRelayPhotos(of: record, to: peer)
    }

    /// Whether `relay` keeps copies of the photos `record` names: a relay this person added,
    /// for its outboxes and cards; for a trip, any relay that is a peer of it (one this person
    /// added, or one the trip names: relay.md §5.1), since every member reads the trip's
    /// relays from the trip.
    func givesCopies(of record: Store.DocumentRecord, to relay: PublicKey) -> Bool {
        switch record.kind {
        case .outbox, .card: relays.known.contains(relay)
        case .itinerary: relayPeers(of: record).contains(relay)
        default: false
        }
    }

    /// Before message edits are pushed: the trips where one of them names photos are looked
    /// at again for copies to announce (other commits to a trip name none, and a trip's
    /// messages are not scanned for them).
    func relayPhotosNamed(by edits: [Store.Edit]) {
        guard !relays.connected.isEmpty else { return }
        for edit in edits {
            let names = edit.changes.contains { change in
                guard case .set(_, .message, let field, _, _) = change else { return false }
                return field == MessageFields.photos.name
            }
            if names { photos.noteTripPhotos(edit.doc) }
        }
    }

    /// After a local commit to `record`: new photos it names go to the relays it was announced
    /// to this session (for a trip, only after a message of this person's named photos).
    func relayPhotosAfterCommit(_ record: Store.DocumentRecord) {
        switch record.kind {
        case .outbox, .card: break
        case .itinerary: guard photos.tripPhotosNamed.remove(record.id) != nil else { return }
        default: return
        }
        for relay in relays.connected where photos.relayAnnounced[relay]?[record.id] != nil {
            announceRelayPhotos(of: record, to: relay)
        }
    }

    /// A relay's last session closed: what was announced to it is announced again next time.
    func relayPhotosPeerGone(_ peer: PublicKey) { photos.relayAnnounced[peer] = nil }

    /// The photos of `record` this person gives to relays: those of its own outbox or card,
    /// or those its own messages in a trip it is a current member of name (never another
    /// member's: each author gives its own, as directly). Empty for any other document.
    func relayGivenPhotos(of record: Store.DocumentRecord, me: PublicKey, only: BlobID? = nil) -> [BlobID] {
        guard isRelayDocument(record) else { return [] }
        switch record.kind {
        case .outbox, .card:
            guard record.owner == me.bytes else { return [] }
            return photoIDs(namedIn: record, only: only)
        case .itinerary:
            guard isTripMember(me, record) else { return [] }
            return tripPhotoIDs(in: record, author: me, only: only)
        default: return []
        }
    }

    /// Announces to `relay` the copies of the photos `record` names that this daemon holds
    /// whole and gives: `record` is this person's outbox or card kept at relays, or a trip
    /// with this person's messages.
    private func announceRelayPhotos(of record: Store.DocumentRecord, to relay: PublicKey) {
        guard let me, givesCopies(of: record, to: relay), let blobs = try? blobStore() else { return }
        var announced = photos.relayAnnounced[relay]?[record.id] ?? []
        var names = [[UInt8]]()
        for photo in relayGivenPhotos(of: record, me: me) where blobs.contains(photo) {
            guard let copy = RelayBlob(photo: photo, doc: record.id.bytes), !announced.contains(copy.name) else {
                continue
            }
            photos.remember(copy, giver: me, replacing: true)
            announced.insert(copy.name)
            names.append(copy.name)
        }
        photos.relayAnnounced[relay, default: [:]][record.id] = announced
        var start = 0
        while start < names.count {
            let end = min(names.count, start + RelayMessage.maxBlobNames)
            replicator.sendRelay(.blobs(doc: record.id, names: Array(names[start..<end])), to: relay)
            start = end
        }
        if !names.isEmpty {
            logger.info(
                "photos announced to a relay",
                metadata: [
                    "relay.id": "\(relay.humanID.prefix(7))", "doc.id": "\(record.id)", "photos": "\(names.count)",
                ])
        }
    }

    /// A relay's want of a copy this daemon gives: the photo's bytes from the want's offset,
    /// encrypted under the copy's key, while this person's live post, card or trip message
    /// still names it (and, for a trip, while this person is still one of its members).
    func relayBlobChunk(_ want: BlobTransfer.Request, for relay: PublicKey, maxBytes: Int) -> BlobTransfer.Answer {
        guard let me, let (copy, giver) = photos.relayCopies[want.hash], giver == me,
            let doc = DocumentID(bytes: copy.doc), let record = try? store.document(doc),
            givesCopies(of: record, to: relay),
            relayGivenPhotos(of: record, me: me, only: copy.photo).contains(copy.photo)
        else { return .missing(reason: "not a copy this person gives to its relays") }
        guard let blobs = try? blobStore(), let size = blobs.size(copy.photo), let total = UInt64(exactly: size),
            want.offset <= total, let offset = Int64(exactly: want.offset)
        else { return .missing(reason: "the photo is not held whole here, or the offset is past its end") }
        do {
            let plain = try blobs.read(copy.photo, offset: offset, maxBytes: maxBytes)
            let data = try copy.crypt(plain, at: want.offset)
            // `want.offset` ≤ `total` (checked above, both ≤ Int64.max) and `data.count` is an
            // array's count ≤ Int.max: the sum stays below 2^64, and `UInt64(_:)` of a count
            // cannot trap.
            let last = want.offset + UInt64(data.count) == total
            return .piece(
                BlobTransfer.Piece(hash: want.hash, offset: want.offset, data: data, last: last, total: total))
        } catch {
            logger.error("reading a photo for a relay failed", metadata: ["error": "\(error)"])
            return .missing(reason: error.code.rawValue)
        }
    }

    // MARK: Reading

    /// The copies to want from `relay`: photos named by friends' outboxes to this person and
    /// their cards, from a relay this person added, and by other members' messages in the
    /// trips `relay` is a peer of (`doc` alone when given), that are not held whole here,
    /// while their author is not connected (an author reachable directly is asked itself).
    /// Between two trips the engine is let go (`Task.yield`): a session with a relay that
    /// keeps hundreds of trips reads up to 500 messages of each, and the control API and
    /// other peers are served meanwhile rather than after the whole scan.
    func relayMissingBlobs(from relay: PublicKey, in doc: DocumentID?, limit: Int) async -> [[UInt8]] {
        guard let me, relays.isRelay(relay), limit > 0, let blobs = try? blobStore() else { return [] }
        let direct = Set(syncComponent.peerNames.keys.map { person(of: $0) })
        var records: [Store.DocumentRecord]
        if let doc {
            records = [try? store.document(doc)].compactMap { $0 }
        } else {
            records = []
            if relays.known.contains(relay) {
                for kind in [Store.DocumentKind.outbox, .card, .itinerary] {
                    records += (try? store.documents(kind: kind)) ?? []
                }
            }
            let held = Set(records.map(\.id))
            records += (relays.learned[relay]?.docs ?? []).filter { !held.contains($0) }
                .compactMap { try? store.document($0) }
        }
        var out = [[UInt8]]()
        for record in records {
            if record.kind == .itinerary {
                guard givesCopies(of: record, to: relay) else { continue }
                if doc == nil { await Task.yield() }
                for (photo, author) in tripPhotosToRead(in: record, me: me, skipping: direct)
                where !blobs.contains(photo) {
                    guard let copy = RelayBlob(photo: photo, doc: record.id.bytes) else { continue }
                    photos.remember(copy, giver: author)
                    out.append(copy.name)
                    if out.count >= limit { return out }
                }
                continue
            }
            guard relays.known.contains(relay), record.owner != me.bytes,
                let giver = try? PublicKey(bytes: record.owner),
                !direct.contains(giver)
            else { continue }
            switch record.kind {
            case .outbox:
                guard record.id == Outboxes.documentID(author: record.owner, reader: me.bytes) else { continue }
            case .card: break
            default: continue
            }
            for photo in photoIDs(namedIn: record) where !blobs.contains(photo) {
                guard let copy = RelayBlob(photo: photo, doc: record.id.bytes) else { continue }
                photos.remember(copy, giver: giver)
                out.append(copy.name)
                if out.count >= limit { return out }
            }
        }
        return out
    }

    /// The photos other members' live messages in the trip `record` name (the newest 500 such
    /// messages), with their authors: while this person and the author are current members
    /// and the author is not among `direct` (connected here), or blocked.
    private func tripPhotosToRead(in record: Store.DocumentRecord, me: PublicKey, skipping direct: Set<PublicKey>)
        -> [(BlobID, PublicKey)]
    {
        guard isTripMember(me, record) else { return [] }
        let messages =
            (try? store.tripPhotoMessages(in: record.id, author: nil, limit: Self.maxTripMessagesScannedForPhotos))
            ?? []
        let members = participants(of: record)
        var out = [(BlobID, PublicKey)]()
        var seen = Set<BlobID>()
        for message in messages {
            guard let author = tripMessageAuthor(message), author != me, members.contains(author),
                !direct.contains(author), !isBlocked(author)
            else { continue }
            for photo in Engine.photos(from: Views.fields(message)[MessageFields.photos.name]) {
                if let id = BlobID(hex: photo.id), seen.insert(id).inserted { out.append((id, author)) }
            }
        }
        return out
    }

    /// Where to ask a copy wanted from a relay from: the length of its photo's partial
    /// download; nil when the photo is held whole (or the copy was forgotten).
    func relayResumeOffset(_ name: [UInt8]) -> UInt64? {
        guard let (copy, _) = photos.relayCopies[name], let blobs = try? blobStore(), !blobs.contains(copy.photo)
        else { return nil }
        return UInt64(exactly: blobs.partialLength(copy.photo)) ?? 0
    }

    /// A chunk of a copy from a relay: decrypted and appended to the photo's partial download;
    /// the photo is kept when whole and its hash matches, with its friend as giver.
    func storeRelayBlobChunk(_ piece: BlobTransfer.Piece, from relay: PublicKey) -> BlobTransfer.Progress {
        guard let me, let (copy, giver) = photos.relayCopies[piece.hash], giver != me else {
            return .failed(reason: "not a copy asked of this relay")
        }
        guard let offset = Int64(exactly: piece.offset), let total = Int64(exactly: piece.total) else {
            return .failed(reason: "offset or size out of range")
        }
        do {
            let blobs = try blobStore()
            let plain = try copy.crypt(piece.data, at: piece.offset)
            let stored = try blobs.append(
                copy.photo, offset: offset, bytes: plain, last: piece.last, expectedSize: total)
            guard stored else { return .partial(next: UInt64(exactly: blobs.partialLength(copy.photo)) ?? 0) }
        } catch let error as BlobError {
            return .failed(reason: error.description)
        } catch {
            return .failed(reason: "\(error)")
        }
        logger.info("received a photo through a relay", metadata: ["relay.id": "\(relay.humanID.prefix(7))"])
        recordReceivedPhoto(copy.photo, size: total, from: giver)
        return .stored
    }
}
