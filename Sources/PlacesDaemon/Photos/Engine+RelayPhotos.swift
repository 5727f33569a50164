import Foundation
import PlacesBlobs
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// Photos through a blind relay (`Protocol/relay.md` §8), a member's half. As a **giver**
/// (the author whose outbox or card names a photo) this daemon announces to its relays the
/// copies of the photos its relayed documents name, and answers their wants with the photo
/// encrypted under the copy's key (`RelayBlob`). As a **reader** it asks its relays, as
/// holders of last resort, for the photos named by a friend's outbox to it or card while that
/// friend is not connected, and decrypts what arrives into the blob store, where the photo's
/// hash is checked as for a photo from the friend.
extension Engine {
    // MARK: Giving

    /// A relay offered a document (it holds its access list, `bytes`): the copies of the
    /// photos it names are announced to that relay, once per session.
    func relayPhotosFollowOffer(_ bytes: [UInt8], from peer: PublicKey) {
        guard relays.known.contains(peer), bytes.count > 17, let doc = DocumentID(bytes: Array(bytes[1..<17])),
            photos.relayAnnounced[peer]?[doc] == nil, let record = try? store.document(doc)
        else { return }
        announceRelayPhotos(of: record, to: peer)
    }

    /// After a local commit to `record`: new photos it names go to the relays it was announced
    /// to this session.
    func relayPhotosAfterCommit(_ record: Store.DocumentRecord) {
        guard record.kind == .outbox || record.kind == .card else { return }
        for relay in relays.connected where photos.relayAnnounced[relay]?[record.id] != nil {
            announceRelayPhotos(of: record, to: relay)
        }
    }

    /// A relay's last session closed: what was announced to it is announced again next time.
    func relayPhotosPeerGone(_ peer: PublicKey) { photos.relayAnnounced[peer] = nil }

    /// Announces to `relay` the copies of the photos `record` names that this daemon holds
    /// whole and gives: `record` is this person's outbox or card kept at relays.
    private func announceRelayPhotos(of record: Store.DocumentRecord, to relay: PublicKey) {
        guard let me, record.owner == me.bytes, record.kind == .outbox || record.kind == .card,
            isRelayDocument(record), let blobs = try? blobStore()
        else { return }
        var announced = photos.relayAnnounced[relay]?[record.id] ?? []
        var names = [[UInt8]]()
        for photo in photoIDs(namedIn: record) where blobs.contains(photo) {
            guard let copy = RelayBlob(photo: photo, doc: record.id.bytes), !announced.contains(copy.name) else {
                continue
            }
            photos.remember(copy, giver: me)
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
    /// encrypted under the copy's key, while this person's live post or card still names it.
    func relayBlobChunk(_ want: BlobTransfer.Request, for relay: PublicKey, maxBytes: Int) -> BlobTransfer.Answer {
        guard let me, relays.known.contains(relay), let (copy, giver) = photos.relayCopies[want.hash], giver == me,
            let doc = DocumentID(bytes: copy.doc), let record = try? store.document(doc), record.owner == me.bytes,
            isRelayDocument(record), photoIDs(namedIn: record, only: copy.photo).contains(copy.photo)
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
    /// their cards (`doc` alone when given) that are not held whole here, while the friend is
    /// not connected (a friend reachable directly is asked itself).
    func relayMissingBlobs(from relay: PublicKey, in doc: DocumentID?, limit: Int) -> [[UInt8]] {
        guard let me, relays.known.contains(relay), limit > 0, let blobs = try? blobStore() else { return [] }
        let direct = Set(syncComponent.peerNames.keys.map { person(of: $0) })
        let records =
            doc.map { [try? store.document($0)].compactMap { $0 } }
            ?? (((try? store.documents(kind: .outbox)) ?? []) + ((try? store.documents(kind: .card)) ?? []))
        var out = [[UInt8]]()
        for record in records where record.owner != me.bytes {
            guard let giver = try? PublicKey(bytes: record.owner), !direct.contains(giver) else { continue }
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
