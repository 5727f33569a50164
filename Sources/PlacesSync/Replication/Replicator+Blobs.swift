import Foundation
import PlacesCrypto
import PlacesModel

/// Blobs (`Protocol/sync.md` §7.4): photos named by posts and cards travel apart from the
/// ops, fetched lazily from the document's owner in chunks. The asker keeps a window of at
/// most `BlobTransfer.maxInFlightPerPeer` blobs per peer, one want outstanding per blob,
/// and sends the next want after each chunk; the holder answers each want with one chunk,
/// or `BlobMissing`. The host decides who may have what and does the storing.
extension Replicator {
    // MARK: Asking

    /// Finds the blobs that documents `peer` owns (`doc`, or every one it shares with this
    /// daemon when nil; of `doc`, only the `entities` ops just stored change, when given)
    /// name and this daemon lacks, wants them from `peer`, and returns the wants its window
    /// has room for.
    func blobsFollow(from peer: PublicKey, in doc: DocumentID?, among entities: Set<EntityID>? = nil) async
        -> [SyncMessage]
    {
        guard let host, takesFeature(BlobTransfer.feature, peer) else { return [] }
        let missing = await host.missingBlobs(
            from: peer, in: doc, among: doc == nil ? nil : entities, limit: BlobTransfer.maxWanted)
        var dropped = 0
        for hash in missing where hash.count == BlobTransfer.hashBytes {
            if !blobWants.want(hash, from: peer, doc: doc) { dropped += 1 }
        }
        if dropped > 0 {
            logger.notice(
                "this peer's share of the photos wanted is full; the rest are asked for when these arrive",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "dropped": "\(dropped)"])
        }
        return await nextBlobWants(to: peer)
    }

    /// After a blob from `peer` arrived or was given up: when that emptied its share and some
    /// of its blobs were left out, its documents are looked at again; else the next wants.
    func continueBlobs(with peer: PublicKey) async -> [SyncMessage] {
        if blobWants.takeRefill(peer) { return await blobsFollow(from: peer, in: nil) }
        return await nextBlobWants(to: peer)
    }

    /// Wants left unanswered too long count as refusals (`BlobTransfer.maxWantWait`): the
    /// blob is asked of another holder, or dropped when none is left.
    func expireBlobWants() async {
        for (hash, peer, orphanedIn) in blobWants.expire(now: ContinuousClock.now) {
            logger.warning(
                "a peer left a photo want unanswered; not asking it for the photo again this session",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "photo.id": "\(hex(hash))"])
            await askOtherHolders(of: hash)
            if let doc = orphanedIn { await searchHolders(in: doc, besides: peer) }
        }
        await answerHeldBlobWants()
    }

    /// `peer` will not serve `hash` this session: it stops being a holder of it, and the
    /// blob's other holders are asked now rather than at their next message. When it was
    /// the last, the connected peers that may hold what the blob's document names are
    /// looked for (`searchHolders`).
    func refuseBlob(_ hash: [UInt8], by peer: PublicKey) async {
        let orphanedIn = blobWants.refuse(hash, by: peer)
        await askOtherHolders(of: hash)
        if let doc = orphanedIn { await searchHolders(in: doc, besides: peer) }
        await answerHeldBlobWants()
    }

    /// Every holder refused a photo `doc` names. The peer whose ops named it first may not
    /// hold it yet: another device of this person passing a friend's post on, or a member
    /// passing a trip message on, before the photo reached it. The same ops then arriving
    /// from their author store nothing, so nothing would ask the author until its next
    /// session. So each other connected peer is asked for what `doc` names that it may hold
    /// (the host decides who: the document's owner, a message's author, another device), at
    /// most once per `holderSearchInterval` per document.
    private func searchHolders(in doc: DocumentID, besides refuser: PublicKey) async {
        let now = ContinuousClock.now
        if let last = holderSearches[doc], now - last < BlobTransfer.holderSearchInterval { return }
        holderSearches = holderSearches.filter { now - $0.value < BlobTransfer.holderSearchInterval }
        holderSearches[doc] = now
        for other in sessions.keys where other != refuser {
            let wants = await blobsFollow(from: other, in: doc)
            if !wants.isEmpty { enqueue(wants, doc: nil, to: [other]) }
        }
    }

    private func askOtherHolders(of hash: [UInt8]) async {
        for holder in blobWants.wanted[hash]?.holders ?? [] {
            let wants = await nextBlobWants(to: holder)
            if !wants.isEmpty { enqueue(wants, doc: nil, to: [holder]) }
        }
    }

    /// Wants for the blobs `peer` may hold, as many as its window has room for, each from
    /// where the partial download stops.
    func nextBlobWants(to peer: PublicKey) async -> [SyncMessage] {
        guard let host, sessions[peer] != nil, takesFeature(BlobTransfer.feature, peer) else { return [] }
        await expireBlobWants()
        var out = [SyncMessage]()
        for hash in blobWants.candidates(for: peer) {
            guard let offset = await host.blobResumeOffset(hash) else {
                // Held whole meanwhile (added here, or from another peer).
                blobWants.finish(hash)
                continue
            }
            // Re-checked after the await: the session, the window and other fetches move.
            guard sessions[peer] != nil, blobWants.freeSlots(for: peer) > 0, !blobWants.isInFlight(hash),
                blobWants.wanted[hash] != nil
            else { continue }
            blobWants.start(hash, from: peer, offset: offset, now: ContinuousClock.now)
            if offset > 0 {
                logger.info(
                    "resuming a photo download",
                    metadata: [
                        "peer.id": "\(peer.humanID.prefix(7))", "photo.id": "\(hex(hash))", "offset": "\(offset)",
                    ])
            }
            out.append(Replicator.blobWant(hash, offset: offset))
        }
        return out
    }

    // MARK: Answering

    /// A peer's want: one chunk, `BlobMissing`, or (for a malformed want, or a stranger)
    /// nothing.
    func handleBlobWant(_ want: Places_Sync_V1_BlobWant, from peer: PublicKey) async -> [SyncMessage] {
        guard let host else { return [] }
        let hash = [UInt8](want.hash)
        guard hash.count == BlobTransfer.hashBytes, want.offset <= BlobTransfer.maxBlobBytes else {
            logger.warning(
                "ignored a malformed photo want",
                metadata: [
                    "peer.id": "\(peer.humanID.prefix(7))", "hash.bytes": "\(hash.count)", "offset": "\(want.offset)",
                ])
            return []
        }
        guard await host.knows(peer) else {
            logger.warning("ignored a photo want from a stranger", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
            return []
        }
        let request = BlobTransfer.Request(hash: hash, offset: want.offset)
        switch await host.blobChunk(request, for: peer, maxBytes: BlobTransfer.maxChunkBytes) {
        case .piece(let piece):
            // The host's answer is held to the same bounds as a peer's chunk.
            guard piece.hash == hash, piece.offset == want.offset, piece.data.count <= BlobTransfer.maxChunkBytes,
                Replicator.isConsistent(piece)
            else {
                logger.error(
                    "a photo chunk read here is out of bounds; not sent", metadata: ["photo.id": "\(hex(hash))"])
                return [Replicator.blobMissing(hash)]
            }
            return [Replicator.blobChunk(piece)]
        case .notYet(let reason):
            // Not when this daemon is fetching it from the asker: two devices each waiting for
            // the other would hold each other's want until it expired.
            if blobWants.wanted[hash] != nil, blobWants.flight(hash, from: peer) == nil,
                heldBlobWants.hold(hash, offset: want.offset, from: peer, now: ContinuousClock.now)
            {
                logger.debug(
                    "holding a photo want until this daemon's own download of it ends",
                    metadata: ["peer.id": "\(peer.humanID.prefix(7))", "photo.id": "\(hex(hash))"])
                return []
            }
            return missing(hash, to: peer, reason)
        case .missing(let reason):
            return missing(hash, to: peer, reason)
        }
    }

    private func missing(_ hash: [UInt8], to peer: PublicKey, _ reason: String) -> [SyncMessage] {
        logger.debug(
            "answered a photo want with missing",
            metadata: ["peer.id": "\(peer.humanID.prefix(7))", "photo.id": "\(hex(hash))", "reason": "\(reason)"])
        return [Replicator.blobMissing(hash)]
    }

    /// Answers the held wants (`HeldBlobWants`) whose blob is no longer wanted here — with
    /// the chunk when it is held whole now, else `BlobMissing` — and those held too long.
    func answerHeldBlobWants() async {
        guard !heldBlobWants.isEmpty else { return }
        let due = heldBlobWants.takeDue(now: ContinuousClock.now) { blobWants.wanted[$0] != nil }
        for item in due where sessions[item.want.peer] != nil {
            if item.expired {
                enqueue([Replicator.blobMissing(item.hash)], doc: nil, to: [item.want.peer])
                continue
            }
            var want = Places_Sync_V1_BlobWant()
            want.hash = Data(item.hash)
            want.offset = item.want.offset
            enqueue(await handleBlobWant(want, from: item.want.peer), doc: nil, to: [item.want.peer])
        }
    }

    // MARK: Receiving

    /// A chunk of a blob wanted from `peer`: stored, then the next want (or the next blob's).
    /// A chunk nobody asked for is dropped; a malformed one ends the fetch from this peer for
    /// the session.
    func handleBlobChunk(_ chunk: Places_Sync_V1_BlobChunk, from peer: PublicKey) async -> [SyncMessage] {
        guard let host else { return [] }
        let hash = [UInt8](chunk.hash)
        guard hash.count == BlobTransfer.hashBytes, var flight = blobWants.flight(hash, from: peer), !flight.storing
        else {
            logger.warning(
                "dropped a photo chunk that was not asked for",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "offset": "\(chunk.offset)"])
            return []
        }
        let piece = BlobTransfer.Piece(
            hash: hash, offset: chunk.offset, data: [UInt8](chunk.data), last: chunk.last, total: chunk.total)
        if let problem = Replicator.problem(with: piece, expected: flight) {
            logger.warning(
                "dropped a malformed photo chunk; not asking this peer for the photo again this session",
                metadata: [
                    "peer.id": "\(peer.humanID.prefix(7))", "photo.id": "\(hex(hash))", "reason": "\(problem)",
                ])
            await refuseBlob(hash, by: peer)
            return await continueBlobs(with: peer)
        }
        flight.storing = true
        flight.total = piece.total
        blobWants.setFlight(flight, hash, from: peer)
        let progress = await host.storeBlobChunk(piece, from: peer)
        // The session may have closed meanwhile (its window went with it).
        guard blobWants.flight(hash, from: peer) != nil else {
            if progress == .stored {
                blobWants.finish(hash)
                await answerHeldBlobWants()
            }
            return []
        }
        switch progress {
        case .partial(let next):
            flight.offset = next
            flight.askedAt = ContinuousClock.now
            flight.storing = false
            blobWants.setFlight(flight, hash, from: peer)
            return [Replicator.blobWant(hash, offset: next)]
        case .stored:
            logger.info(
                "received a photo",
                metadata: [
                    "peer.id": "\(peer.humanID.prefix(7))", "photo.id": "\(hex(hash))", "bytes": "\(piece.total)",
                ])
            blobWants.finish(hash)
        case .failed(let reason):
            logger.warning(
                "a received photo chunk was refused; asking again at a later session",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "photo.id": "\(hex(hash))", "reason": "\(reason)"])
            await refuseBlob(hash, by: peer)
        }
        await answerHeldBlobWants()
        return await continueBlobs(with: peer)
    }

    /// `peer` does not hold a blob asked of it (or will not give it): another holder, or a
    /// later session, is tried.
    func handleBlobMissing(_ missing: Places_Sync_V1_BlobMissing, from peer: PublicKey) async -> [SyncMessage] {
        let hash = [UInt8](missing.hash)
        guard hash.count == BlobTransfer.hashBytes, let flight = blobWants.flight(hash, from: peer), !flight.storing
        else {
            return []
        }
        logger.info(
            "a peer does not hold a photo asked of it",
            metadata: ["peer.id": "\(peer.humanID.prefix(7))", "photo.id": "\(hex(hash))"])
        await refuseBlob(hash, by: peer)
        return await continueBlobs(with: peer)
    }

    // MARK: Checks and wire forms

    /// Why a chunk cannot be the answer to the outstanding want `expected`; nil when it can.
    /// Every comparison is made before any arithmetic on the peer's numbers.
    static func problem(with piece: BlobTransfer.Piece, expected: BlobWants.Flight) -> String? {
        guard piece.offset == expected.offset else {
            return "the chunk starts at \(piece.offset), not at the \(expected.offset) asked for"
        }
        guard piece.data.count <= BlobTransfer.maxChunkBytes else {
            return "the chunk holds \(piece.data.count) bytes, over \(BlobTransfer.maxChunkBytes)"
        }
        guard piece.total <= BlobTransfer.maxBlobBytes else { return "the photo is announced as \(piece.total) bytes" }
        if let total = expected.total, total != piece.total {
            return "the photo was announced as \(total) bytes and now as \(piece.total)"
        }
        guard isConsistent(piece) else {
            return "the chunk's offset, length, total and last flag disagree"
        }
        return nil
    }

    /// Whether a chunk's numbers agree: it ends within the blob, `last` exactly when it ends
    /// it, and it is empty only when it ends it (a peer cannot stall a fetch with empty
    /// chunks).
    static func isConsistent(_ piece: BlobTransfer.Piece) -> Bool {
        guard piece.offset <= piece.total else { return false }
        let remaining = piece.total - piece.offset
        guard UInt64(piece.data.count) <= remaining else { return false }
        let ends = UInt64(piece.data.count) == remaining
        return piece.last == ends && (!piece.data.isEmpty || ends)
    }

    static func blobWant(_ hash: [UInt8], offset: UInt64) -> SyncMessage {
        var want = Places_Sync_V1_BlobWant()
        want.hash = Data(hash)
        want.offset = offset
        var message = SyncMessage()
        message.blobWant = want
        return message
    }

    static func blobChunk(_ piece: BlobTransfer.Piece) -> SyncMessage {
        var chunk = Places_Sync_V1_BlobChunk()
        chunk.hash = Data(piece.hash)
        chunk.offset = piece.offset
        chunk.data = Data(piece.data)
        chunk.last = piece.last
        chunk.total = piece.total
        var message = SyncMessage()
        message.blobChunk = chunk
        return message
    }

    static func blobMissing(_ hash: [UInt8]) -> SyncMessage {
        var missing = Places_Sync_V1_BlobMissing()
        missing.hash = Data(hash)
        var message = SyncMessage()
        message.blobMissing = missing
        return message
    }

    /// Whether `peer` named `feature` in its `Hello`.
    func takesFeature(_ feature: String, _ peer: PublicKey) -> Bool {
        peerFeatures[peer]?.contains(feature) == true
    }

    /// A hash as the hex a photo id is written in (for logs).
    private func hex(_ hash: [UInt8]) -> String { HexCoding.encode(hash) }
}
