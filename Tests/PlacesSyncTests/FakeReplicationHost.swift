import Foundation
import PlacesAccess
import PlacesCrypto
import PlacesModel
import Synchronization

@testable import PlacesSync

/// An in-memory `ReplicationHost` for replicator tests: one document, its participants, an
/// op log of opaque bytes, and a record of what the replicator asked of it. The decisions it
/// stands in for (consent, joins, signature checks) are the daemon's, tested with real
/// daemons; here they are scripted.
actor FakeReplicationHost: ReplicationHost {
    let identity: SigningKeyPair
    let doc: DocumentID
    var participants: Set<PublicKey>
    /// The log: encoded op, author (hex) and seq, in causal order.
    var log: [(bytes: [UInt8], author: String, seq: UInt64)] = []
    var grants: [KeyGrant] = []
    /// What `ingest` answers, and the batches it was given.
    var nextIngest: IngestOutcome?
    var ingested: [[[UInt8]]] = []
    /// Grants the replicator asked the host to verify and keep.
    var kept: [[KeyGrant]] = []
    var connected: [PublicKey] = []
    /// Further documents shared with every participant (empty logs, offered like `doc`).
    var moreShared: [DocumentID] = []
    /// The documents the opening summary covers (nil: it summarizes nothing).
    var summarized: [DocumentID]?

    init(identity: SigningKeyPair, doc: DocumentID, participants: Set<PublicKey>) {
        self.identity = identity
        self.doc = doc
        self.participants = participants.union([identity.publicKey])
    }

    func append(_ bytes: [UInt8], author: String, seq: UInt64) { log.append((bytes, author, seq)) }
    func setGrants(_ grants: [KeyGrant]) { self.grants = grants }
    func addParticipant(_ key: PublicKey) { participants.insert(key) }
    func setNextIngest(_ outcome: IngestOutcome) { nextIngest = outcome }
    func share(_ docs: [DocumentID]) { moreShared = docs }
    func summarize(_ docs: [DocumentID]?) { summarized = docs }

    func openingSummary(with peer: PublicKey) async -> [OpeningSummary.Entry]? {
        summarized?.map { id in
            OpeningSummary.Entry(
                doc: id, vector: id == doc ? vector : VersionVector(), grantEpoch: 0, grantMembers: [], access: nil)
        }
    }

    var vector: VersionVector {
        var v = VersionVector()
        for entry in log { v.include(entry.author, entry.seq) }
        return v
    }

    func replicaIdentity() async -> SigningKeyPair? { identity }
    func profileName() async -> String? { "Fake" }
    func knows(_ peer: PublicKey) async -> Bool { participants.contains(peer) || siblings.contains(peer) }
    func peerConnected(_ peer: PublicKey, name: String, address: String) async { connected.append(peer) }
    func peerDisconnected(_ peer: PublicKey, lastSession: Bool) async {}
    func sharedDocumentIDs(with peer: PublicKey) async -> [DocumentID] {
        participants.contains(peer) ? [doc] + moreShared : []
    }
    func document(_ id: DocumentID) async -> ReplicaDocument? {
        id == doc ? ReplicaDocument(id: doc, owner: identity.publicKey.bytes, isShared: true) : nil
    }
    func participants(in id: DocumentID) async -> Set<PublicKey> { id == doc ? participants : [] }
    func isAdmitting(_ peer: PublicKey, to doc: DocumentID) async -> Bool { false }
    func versionVector(of id: DocumentID) async -> VersionVector? { id == doc ? vector : nil }
    func offerContent(of id: DocumentID, to peer: PublicKey, describe: Bool) async -> OfferContent? {
        if id != doc {
            return moreShared.contains(id)
                ? OfferContent(owner: identity.publicKey.bytes, vector: VersionVector(), grants: []) : nil
        }
        return OfferContent(owner: identity.publicKey.bytes, vector: vector, grants: grants)
    }
    func ops(of id: DocumentID, missingFrom: VersionVector, after: Int64, maxBytes: Int) async -> ReplicaRound? {
        var round = ReplicaRound(ops: [], stamps: [], readThrough: after)
        var size = 0
        for (index, entry) in log.enumerated() where Int64(index + 1) > after {
            round.readThrough = Int64(index + 1)
            guard missingFrom[entry.author] < entry.seq else { continue }
            round.ops.append(entry.bytes)
            round.stamps.append((entry.author, entry.seq))
            size += entry.bytes.count
            if size >= maxBytes { break }
        }
        return round
    }
    /// An entry's op id: the hash of its signed bytes (all but the last 64, the signature).
    private func id(_ bytes: [UInt8]) -> [UInt8] { Blake2b.hash256(Array(bytes.dropLast(64))) }
    func heldOps(_ ids: [[UInt8]], in id: DocumentID) async -> Set<[UInt8]>? {
        guard id == doc else { return [] }
        return Set(log.map { self.id($0.bytes) }).intersection(ids)
    }
    /// The ids `ops(withIDs:in:maxBytes:)` was asked for.
    var wanted: [[[UInt8]]] = []
    func ops(withIDs ids: [[UInt8]], in id: DocumentID, maxBytes: Int) async -> ReplicaRound? {
        wanted.append(ids)
        var round = ReplicaRound(ops: [], stamps: [], readThrough: 0)
        for (index, entry) in log.enumerated() where id == doc && ids.contains(self.id(entry.bytes)) {
            round.ops.append(entry.bytes)
            round.stamps.append((entry.author, entry.seq))
            round.readThrough = Int64(index + 1)
        }
        return round
    }
    func heldGrantSignatures(in doc: DocumentID) async -> Set<[UInt8]> { Set(grants.map(\.signature)) }
    func keepGrants(_ grants: [KeyGrant]) async -> Bool {
        kept.append(grants)
        return !grants.isEmpty
    }
    func ingest(_ ops: [[UInt8]], into doc: DocumentID, from peer: PublicKey) async -> IngestOutcome? {
        ingested.append(ops)
        return nextIngest
    }
    func caughtUp(with peer: PublicKey, on doc: DocumentID, offered: VersionVector) async {}
    func receiveShare(_ offer: ReceivedOffer, from peer: PublicKey) async -> ReplicaDocument? { nil }
    func admitJoin(_ offer: ReceivedOffer, from peer: PublicKey) async -> Bool { false }
    func joinPresentations(for peer: PublicKey) async -> [JoinPresentation] { [] }
    func answerJoin(_ presentation: JoinPresentation, from peer: PublicKey) async -> JoinAnswer? { nil }
    func joinRefused(_ refusal: JoinRefusal, from peer: PublicKey) async {}

    // MARK: Blobs: whole blobs held, who may have them, what is missing, partial downloads

    var blobs: [[UInt8]: [UInt8]] = [:]
    var blobReaders: Set<PublicKey> = []
    var missing: [[UInt8]] = []
    var partials: [[UInt8]: [UInt8]] = [:]
    /// Every chunk the replicator handed over to be stored.
    var storedPieces: [BlobTransfer.Piece] = []

    func hold(_ bytes: [UInt8], as hash: [UInt8], readableBy peers: Set<PublicKey>) {
        blobs[hash] = bytes
        blobReaders.formUnion(peers)
    }
    func lack(_ hashes: [[UInt8]]) { missing = hashes }
    /// Peers that may have every blob once it is held here (another device of the person).
    var siblings: Set<PublicKey> = []
    func addSibling(_ peer: PublicKey) { siblings.insert(peer) }

    func missingBlobs(from peer: PublicKey, in doc: DocumentID?, among entities: Set<EntityID>?, limit: Int) async
        -> [[UInt8]]
    {
        Array(missing.filter { blobs[$0] == nil }.prefix(limit))
    }
    func blobResumeOffset(_ hash: [UInt8]) async -> UInt64? {
        blobs[hash] == nil ? UInt64(partials[hash]?.count ?? 0) : nil
    }
    func blobChunk(_ want: BlobTransfer.Request, for peer: PublicKey, maxBytes: Int) async -> BlobTransfer.Answer {
        if blobs[want.hash] == nil, siblings.contains(peer) { return .notYet(reason: "not held whole here") }
        guard let bytes = blobs[want.hash], blobReaders.contains(peer) || siblings.contains(peer) else {
            return .missing(reason: "no")
        }
        guard want.offset <= UInt64(bytes.count) else { return .missing(reason: "past the end") }
        let start = Int(want.offset)
        let data = Array(bytes[start..<min(bytes.count, start + maxBytes)])
        return .piece(
            BlobTransfer.Piece(
                hash: want.hash, offset: want.offset, data: data, last: start + data.count == bytes.count,
                total: UInt64(bytes.count)))
    }
    func storeBlobChunk(_ piece: BlobTransfer.Piece, from peer: PublicKey) async -> BlobTransfer.Progress {
        storedPieces.append(piece)
        var partial = partials[piece.hash] ?? []
        guard UInt64(partial.count) == piece.offset else { return .failed(reason: "wrong offset") }
        partial += piece.data
        guard piece.last else {
            partials[piece.hash] = partial
            return .partial(next: UInt64(partial.count))
        }
        partials[piece.hash] = nil
        guard Blake2b.hash256(partial) == piece.hash else { return .failed(reason: "hash mismatch") }
        blobs[piece.hash] = partial
        return .stored
    }
}

/// What the replicator's outbound path delivered, by recipient.
final class Delivered: Sendable {
    private let messages = Mutex<[(PublicKey, Places_Sync_V1_SyncMessage)]>([])

    func record(_ batch: [Places_Sync_V1_SyncMessage], to peer: PublicKey) {
        messages.withLock { all in all += batch.map { message in (peer, message) } }
    }

    func to(_ peer: PublicKey) -> [Places_Sync_V1_SyncMessage] {
        messages.withLock { all in all.filter { $0.0 == peer }.map(\.1) }
    }
}
