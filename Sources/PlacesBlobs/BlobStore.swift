import PlacesCrypto
import Synchronization

/// Photos and other blobs, stored once each under DATA_DIR/blobs, named by the BLAKE2b-256
/// of their bytes and encrypted at rest (see `BlobCipher` for the file format).
///
/// Reads and writes go frame by frame (64 KiB), so a photo is never held in memory twice.
/// Blobs arrive from peers in chunks (`append`), are hashed as they arrive, survive a
/// restart half-received, and are only moved into place once their hash matches.
///
/// Safe to share between tasks and threads: the index and every change to the files sit
/// behind one lock, held for one chunk at a time; reads of stored blobs take no lock
/// (stored files never change once renamed into place). The lock is a blocking mutex
/// held across file I/O, so keep chunks small (`maxChunkBytes`).
public final class BlobStore: Sendable {
    /// The largest chunk a peer may send or be sent: 256 KiB.
    public static let maxChunkBytes = 256 * 1024
    /// The default size cap of a single blob: 20 MiB.
    public static let defaultMaxBlobBytes: Int64 = 20 * 1024 * 1024

    /// The directory holding the store (DATA_DIR/blobs).
    public var directory: String { paths.root }
    /// The most plaintext bytes, stored and partially received, the store will hold.
    public let quotaBytes: Int64
    /// The largest blob the store accepts, from the user or from a peer.
    public let maxBlobBytes: Int64

    let paths: BlobPaths
    let secret: [UInt8]
    let index: Mutex<BlobIndex>

    /// Opens the store in `directory` (DATA_DIR/blobs), creating it (mode 0700) and its key
    /// on first use. Removes temporary files left by a crash, and keeps the downloads that
    /// were in progress, cut back to their last intact frame.
    public init(directory: String, quotaBytes: Int64, maxBlobBytes: Int64 = BlobStore.defaultMaxBlobBytes)
        throws(BlobError)
    {
        let paths = BlobPaths(root: directory)
        try FileSystem.makePrivateDirectory(paths.root)
        try FileSystem.makePrivateDirectory(paths.partialDirectory)
        var index = BlobIndex()
        try BlobStore.indexStored(paths, into: &index)
        let secret = try BlobSecret.loadOrCreate(paths, storedBlobCount: index.stored.count)
        try BlobStore.indexPartials(paths, secret: secret, into: &index)
        self.paths = paths
        self.secret = secret
        self.quotaBytes = max(0, quotaBytes)
        self.maxBlobBytes = max(0, maxBlobBytes)
        self.index = Mutex(index)
    }

    /// Plaintext bytes held, stored and partially received.
    public var usedBytes: Int64 { index.withLock { $0.usedBytes } }

    /// Whether the blob is stored whole (a partial download does not count).
    public func contains(_ id: BlobID) -> Bool { index.withLock { $0.stored[id] != nil } }

    /// The plaintext length of a stored blob, nil when it is not stored.
    public func size(_ id: BlobID) -> Int64? { index.withLock { $0.stored[id] } }

    /// Stores `bytes` and returns their id. Storing the same bytes again changes nothing.
    /// Throws `.tooLarge` over `maxBlobBytes` and `.quotaExceeded` when the quota is full.
    @discardableResult
    public func put(_ bytes: [UInt8]) throws(BlobError) -> BlobID {
        let length = Int64(bytes.count)
        guard length <= maxBlobBytes else { throw tooLarge(length) }
        let id = BlobID(digest: Blake2b.hash256(bytes))
        // Reserve the space under the lock, write outside it: a 20 MiB photo being encrypted
        // and synced must not stall the chunks of a download.
        let isNew = try index.withLock { (index) throws(BlobError) -> Bool in
            guard index.stored[id] == nil else { return false }
            guard index.fits(length, quotaBytes: quotaBytes) else { throw quotaExceeded(length) }
            index.reservedBytes += length
            return true
        }
        guard isNew else { return id }
        do throws(BlobError) {
            try writeStored(bytes, id: id)
        } catch {
            index.withLock { $0.reservedBytes -= length }
            throw error
        }
        index.withLock { index in
            index.reservedBytes -= length
            if index.stored[id] == nil {
                index.stored[id] = length
                index.usedBytes += length
            }
            // A download of the same photo is now pointless.
            if let partial = index.partials.removeValue(forKey: id) {
                index.usedBytes -= partial.length
                try? FileSystem.remove(paths.partial(id))
            }
        }
        return id
    }

    /// Up to `maxBytes` of the blob's plaintext from `offset`: empty at the end. Decrypts
    /// only the frames the range covers. Throws `.notFound`, `.wrongOffset` for an offset
    /// that is negative or past the end, and `.corrupt` when the file was altered.
    public func read(_ id: BlobID, offset: Int64, maxBytes: Int) throws(BlobError) -> [UInt8] {
        guard offset >= 0 else { throw BlobError(.wrongOffset, "a read cannot start at a negative offset (\(offset))") }
        guard maxBytes >= 0 else { throw BlobError(.wrongOffset, "a read cannot ask for \(maxBytes) bytes") }
        let file = try BlobFile.openForReading(paths.stored(id))
        guard let length = FrameLayout.plaintextLength(sealed: try file.size()) else {
            throw BlobError(.corrupt, "the stored photo \(id.hex) was truncated; fetch it again from a peer")
        }
        guard offset <= length else {
            throw BlobError(.wrongOffset, "offset \(offset) is past the end of the \(length)-byte photo \(id.hex)")
        }
        let end = offset + min(Int64(maxBytes), length - offset)
        let cipher = try BlobCipher(secret: secret, id: id)
        let lastFrame = FrameLayout.frameCount(plaintext: length, stored: true) - 1
        let frameBytes = Int64(BlobCipher.plaintextBytes)
        var out = [UInt8]()
        out.reserveCapacity(Int(end - offset))
        var position = offset
        while position < end {
            let frame = position / frameBytes
            let frameStart = frame * frameBytes
            let frameLength = min(frameBytes, length - frameStart)
            let sealed = try file.read(
                at: frame * Int64(BlobCipher.sealedBytes), count: Int(frameLength) + BlobCipher.overheadBytes)
            let plain = try cipher.open(sealed, index: frame, last: frame == lastFrame)
            let from = Int(position - frameStart)
            let to = Int(min(end - frameStart, frameLength))
            guard from <= to, to <= plain.count else {
                throw BlobError(.corrupt, "the stored photo \(id.hex) has a malformed frame; fetch it again")
            }
            out += plain[from..<to]
            position = frameStart + Int64(to)
        }
        return out
    }

    /// The whole plaintext of a stored blob (for the control API).
    public func readAll(_ id: BlobID) throws(BlobError) -> [UInt8] {
        try read(id, offset: 0, maxBytes: Int.max)
    }

    /// Deletes every stored blob and partial download whose id is not in `keeping` (the
    /// blobs something still refers to). Returns how many files went and the plaintext
    /// bytes they held.
    ///
    /// A blob stored between computing `keeping` and this call is removed too: compute the
    /// set and add references from the same actor, or put blobs only after referencing them.
    @discardableResult
    public func collect(keeping: Set<BlobID>) throws(BlobError) -> (removed: Int, freedBytes: Int64) {
        try index.withLock { (index) throws(BlobError) -> (removed: Int, freedBytes: Int64) in
            var removed = 0
            var freed: Int64 = 0
            for (id, length) in index.stored where !keeping.contains(id) {
                try FileSystem.remove(paths.stored(id))
                index.stored[id] = nil
                index.usedBytes -= length
                removed += 1
                freed += length
            }
            for (id, partial) in index.partials where !keeping.contains(id) {
                try FileSystem.remove(paths.partial(id))
                index.partials[id] = nil
                index.usedBytes -= partial.length
                removed += 1
                freed += partial.length
            }
            return (removed, freed)
        }
    }

    /// Encrypts `bytes` into a temporary file, syncs it and renames it into place.
    private func writeStored(_ bytes: [UInt8], id: BlobID) throws(BlobError) {
        let cipher = try BlobCipher(secret: secret, id: id)
        if try FileSystem.makePrivateDirectory(paths.fanOut(id)) {
            try FileSystem.syncDirectory(paths.root)
        }
        let target = paths.stored(id)
        let temp = BlobPaths.temporary(for: target)
        do throws(BlobError) {
            let file = try BlobFile.create(temp)
            let frames = FrameLayout.frameCount(plaintext: Int64(bytes.count), stored: true)
            // Sixteen frames (~1 MiB) per write: few system calls, bounded memory.
            let batchFrames: Int64 = 16
            var buffer = [UInt8]()
            var written: Int64 = 0
            for frame in 0..<frames {
                let start = Int(frame) * BlobCipher.plaintextBytes
                let end = min(start + BlobCipher.plaintextBytes, bytes.count)
                buffer += try cipher.seal(bytes[start..<end], index: frame, last: frame == frames - 1)
                if (frame + 1) % batchFrames == 0 || frame == frames - 1 {
                    try file.write(buffer, at: written)
                    written += Int64(buffer.count)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try file.sync()
            try FileSystem.rename(temp, to: target)
            try FileSystem.syncDirectory(paths.fanOut(id))
        } catch {
            try? FileSystem.remove(temp)
            throw error
        }
    }

    func tooLarge(_ length: Int64) -> BlobError {
        BlobError(
            .tooLarge,
            "the photo is \(length) bytes and the limit is \(maxBlobBytes); resize it or raise the limit")
    }

    func quotaExceeded(_ length: Int64) -> BlobError {
        BlobError(
            .quotaExceeded,
            "\(length) more bytes do not fit in the photo quota of \(quotaBytes) bytes; "
                + "remove photos or raise the quota")
    }
}
