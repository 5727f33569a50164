import Foundation
import Logging
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// Photos at a relay (`Protocol/relay.md` §8): copies encrypted by their givers with a key
/// only readers derive, under names the relay cannot link to a photo. A member on a
/// document's newest access list announces the copies it gives (`RelayBlobs`); the relay
/// wants them from it with the usual `BlobWant`s, keeps each in a file under
/// `DATA_DIR/relay-blobs` charged to the document's user, and gives it whole to keys on that
/// document's newest list. It cannot check a copy's bytes: its readers do (the photo's hash).
extension RelayEngine {
    /// Most photo copies kept under one document.
    static let maxBlobsPerDocument = 10_000

    /// Where copies are kept: `NAME` when whole, `NAME.part` while arriving.
    var blobDirectory: String { paths.dataDir + "/relay-blobs" }

    /// The kinds whose entities name photos (posts, a card's picture and places, a trip's
    /// messages). Which member of a trip wrote a message is inside its encrypted body: the
    /// relay takes names from any key on the trip's list, and its readers check the bytes.
    static func namesPhotos(_ kind: ReplicaDocument.Kind) -> Bool {
        kind == .outbox || kind == .card || kind == .itinerary
    }

    /// `RelayBlobs` from `peer`: the copies it gives under `doc`, recorded as wanted from it
    /// when `peer` is on the document's newest list. The replicator then wants them.
    func keepBlobsOffered(_ names: [[UInt8]], in doc: DocumentID, from peer: PublicKey) {
        guard let (access, kind) = access(doc), access.allows(peer), Self.namesPhotos(kind) else {
            logger.warning(
                "refused photo names from a key not on the document's access list",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(doc)", "names": "\(names.count)"])
            return
        }
        var refused = [Store.RelayBlobAnnouncement: Int]()
        for name in names {
            // A copy still arriving from another key is wanted from this one from its start:
            // the bytes of two givers are never joined into one copy.
            if let held = try? store.relayBlob(name), !held.complete, held.doc == doc, held.giver != peer {
                try? FileManager.default.removeItem(atPath: partPath(name))
            }
            let outcome = try? store.announceRelayBlob(
                name, doc: doc, giver: peer, maxPerDocument: Self.maxBlobsPerDocument, timeMs: RFC3339.nowMs())
            if let outcome, outcome == .wanted || outcome == .held { continue }
            refused[outcome ?? .full, default: 0] += 1
        }
        if !refused.isEmpty {
            logger.warning(
                "refused photo names: another document's, or over the document's bound",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(doc)", "refused": "\(refused)"])
        }
    }

    /// A newer list of a trip was kept: the copies given under it by keys it no longer names
    /// (a removed member's, whose photos no current member reads any more, and whose names of
    /// no photo would otherwise take the trip's room for good) are dropped, whole or
    /// arriving, and their bytes taken off the document's charge (relay.md §8).
    func dropCopiesOffList(_ access: RelayAccess) {
        guard self.access(access.doc)?.kind == .itinerary else { return }
        let keys = Set(access.keys.map(\.bytes))
        guard let dropped = try? store.dropRelayBlobs(in: access.doc, keeping: keys), !dropped.isEmpty else { return }
        for name in dropped {
            try? FileManager.default.removeItem(atPath: path(name))
            try? FileManager.default.removeItem(atPath: partPath(name))
        }
        logger.info(
            "dropped the photo copies of keys no longer on the trip's list",
            metadata: ["doc.id": "\(access.doc)", "copies": "\(dropped.count)"])
        if let user = try? store.relayedDocUser(access.doc) { sendUsage(to: user) }
    }

    /// The copies `peer` announced and the relay does not hold whole yet, while it is on
    /// their document's list.
    /// A relay cannot read ops (`entities` is never known here): every copy wanted of `doc`.
    public func missingBlobs(from peer: PublicKey, in doc: DocumentID?, among entities: Set<EntityID>?, limit: Int)
        async -> [[UInt8]]
    {
        guard limit > 0, let rows = try? store.relayBlobsWanted(from: peer, in: doc, limit: limit) else { return [] }
        return rows.filter { access($0.doc)?.access.allows(peer) == true }.map(\.name)
    }

    public func blobResumeOffset(_ hash: [UInt8]) async -> UInt64? {
        guard let row = try? store.relayBlob(hash), !row.complete else { return nil }
        return UInt64(exactly: fileSize(partPath(hash)) ?? 0) ?? 0
    }

    /// A whole copy, to a key on its document's newest list; `BlobMissing` to anyone else
    /// (not told apart from a copy not held).
    public func blobChunk(_ want: BlobTransfer.Request, for peer: PublicKey, maxBytes: Int) async
        -> BlobTransfer.Answer
    {
        guard let row = try? store.relayBlob(want.hash), row.complete else {
            return .missing(reason: "no whole copy under that name")
        }
        guard access(row.doc)?.access.allows(peer) == true else {
            logger.warning(
                "refused a photo copy to a key not on its document's access list",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(row.doc)"])
            return .missing(reason: "the key is not on the document's access list")
        }
        guard let total = UInt64(exactly: row.bytes), want.offset <= total else {
            return .missing(reason: "offset \(want.offset) is past the end of the copy")
        }
        let count = Int(min(UInt64(maxBytes), total - want.offset))
        guard let data = readFile(path(want.hash), offset: want.offset, count: count), data.count == count else {
            logger.error("reading a photo copy failed", metadata: ["doc.id": "\(row.doc)"])
            return .missing(reason: "the copy could not be read")
        }
        return .piece(
            BlobTransfer.Piece(
                hash: want.hash, offset: want.offset, data: data, last: want.offset + UInt64(count) == total,
                total: total))
    }

    /// A chunk of a copy wanted from `peer` (its numbers checked by the replicator): appended
    /// while `peer` is the copy's giver (its last announcer) and on the document's list and the whole copy fits the user's quota
    /// (refused whole with `relay-full` otherwise); charged once whole.
    public func storeBlobChunk(_ piece: BlobTransfer.Piece, from peer: PublicKey) async -> BlobTransfer.Progress {
        guard let row = try? store.relayBlob(piece.hash), !row.complete, row.giver == peer,
            access(row.doc)?.access.allows(peer) == true
        else { return .failed(reason: "not a copy wanted from this key") }
        guard let user = try? store.relayedDocUser(row.doc), let quota = try? store.relayQuota(of: user),
            let used = try? store.relayUsage(of: user).bytes, let total = Int64(exactly: piece.total)
        else { return .failed(reason: "the relay could not read the document's user") }
        guard used <= quota, total <= quota - used else {
            logger.warning(
                "refused a photo copy over the user's quota (relay-full)",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(row.doc)", "bytes": "\(total)"])
            replicator.sendRelay(
                .full(doc: row.doc, reason: "the relay keeps \(used) of \(quota) bytes for this document's user"),
                to: peer)
            return .failed(reason: "relay-full")
        }
        let documentQuota = relay.documentQuotaBytes
        let documentBytes = (try? store.relayedDocBytes(row.doc)) ?? 0
        guard documentBytes <= documentQuota, total <= documentQuota - documentBytes else {
            logger.warning(
                "refused a photo copy over the document's quota (relay-full)",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(row.doc)", "bytes": "\(total)"])
            replicator.sendRelay(
                .full(
                    doc: row.doc, reason: "the relay keeps \(documentBytes) of \(documentQuota) bytes for this document"
                ),
                to: peer)
            return .failed(reason: "relay-full")
        }
        let part = partPath(piece.hash)
        let current = fileSize(part) ?? 0
        guard Int64(exactly: piece.offset) == current else {
            return .failed(reason: "the chunk starts at \(piece.offset), the copy held ends at \(current)")
        }
        let length = current + Int64(piece.data.count)
        guard appendFile(part, piece.data) else {
            logger.error("writing a photo copy failed", metadata: ["doc.id": "\(row.doc)"])
            return .failed(reason: "the copy could not be written")
        }
        guard piece.last else { return .partial(next: UInt64(length)) }
        guard length == total, (try? FileManager.default.moveItem(atPath: part, toPath: path(piece.hash))) != nil,
            (try? store.completeRelayBlob(piece.hash, bytes: total)) != nil
        else {
            try? FileManager.default.removeItem(atPath: part)
            return .failed(reason: "the copy could not be completed")
        }
        logger.info(
            "photo copy kept",
            metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(row.doc)", "bytes": "\(total)"])
        sendUsage(to: user)
        return .stored
    }

    // MARK: Files

    private func path(_ name: [UInt8]) -> String { blobDirectory + "/" + HexCoding.encode(name) }
    private func partPath(_ name: [UInt8]) -> String { path(name) + ".part" }

    private func fileSize(_ path: String) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
    }

    private func appendFile(_ path: String, _ bytes: [UInt8]) -> Bool {
        let files = FileManager.default
        if !files.fileExists(atPath: path) {
            try? files.createDirectory(atPath: blobDirectory, withIntermediateDirectories: true)
            guard files.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                return false
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { return false }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(bytes))
            return true
        } catch { return false }
    }

    private func readFile(_ path: String, offset: UInt64, count: Int) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        do {
            try handle.seek(toOffset: offset)
            return [UInt8](try handle.read(upToCount: count) ?? Data())
        } catch { return nil }
    }
}
