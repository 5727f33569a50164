import PlacesCrypto

/// Receiving a blob from a peer: `BlobChunk`s appended in order to a partial file, hashed
/// as they arrive, moved into place when the last one matches the id.
///
/// Partial files use the stored format (encrypted frames under the blob's key), except
/// that no frame is marked last until the hash has matched, so a partial can never pass
/// for a stored blob.
extension BlobStore {
    /// How many bytes of the blob have been received: the offset to ask for next (0 when
    /// nothing was, or the blob is already stored).
    public func partialLength(_ id: BlobID) -> Int64 {
        index.withLock { $0.partials[id]?.length ?? 0 }
    }

    /// Appends a chunk received for `id` at `offset`; with `last`, checks the whole blob's
    /// hash and stores it. Returns true when the blob is stored (also when it already was:
    /// the chunk is then ignored).
    ///
    /// Refused, changing nothing: an offset other than `partialLength(id)` (`.wrongOffset`),
    /// a chunk over `maxChunkBytes`, a blob growing past `maxBlobBytes` or past
    /// `expectedSize` (`.tooLarge`), or past the quota (`.quotaExceeded`; with
    /// `expectedSize`, as soon as the rest would not fit). A last chunk whose blob does not
    /// hash to `id` deletes the partial (`.hashMismatch`): ask another peer from offset 0.
    @discardableResult
    public func append(
        _ id: BlobID, offset: Int64, bytes: [UInt8], last: Bool, expectedSize: Int64? = nil
    ) throws(BlobError) -> Bool {
        try index.withLock { (index) throws(BlobError) -> Bool in
            guard index.stored[id] == nil else { return true }
            let current = index.partials[id]?.length ?? 0
            try checkChunk(index, current: current, offset: offset, count: bytes.count, expectedSize: expectedSize)
            var partial = index.partials[id] ?? BlobIndex.Partial(length: 0, hasher: nil)
            index.partials[id] = partial
            let cipher = try BlobCipher(secret: secret, id: id)
            do throws(BlobError) {
                let hasher: Blake2bStream
                if let existing = partial.hasher {
                    hasher = existing
                } else {
                    hasher = try rehash(id, length: current, cipher: cipher)
                    partial.hasher = hasher
                }
                if !bytes.isEmpty {
                    try appendFrames(id, bytes, after: current, cipher: cipher)
                    try hashing { () throws(CryptoError) in try hasher.update(bytes) }
                    partial.length = current + Int64(bytes.count)
                    index.usedBytes += Int64(bytes.count)
                }
                index.partials[id] = partial
                guard last else { return false }
                let digest = try hashing { () throws(CryptoError) in try hasher.finalize() }
                guard digest == id.bytes else {
                    throw BlobError(
                        .hashMismatch,
                        "the photo received for \(id.hex) does not match its hash, so it was discarded; "
                            + "ask another peer for it from offset 0")
                }
                try moveIntoPlace(id, length: partial.length, cipher: cipher)
            } catch {
                // The file may be half-written or the hash used up: start the download over.
                discardPartial(id, from: &index)
                throw error
            }
            index.partials[id] = nil
            index.stored[id] = partial.length
            return true
        }
    }

    /// Deletes the partial download of `id`, if any (the peer no longer has the blob).
    public func discardPartial(_ id: BlobID) {
        index.withLock { discardPartial(id, from: &$0) }
    }

    private func discardPartial(_ id: BlobID, from index: inout BlobIndex) {
        guard let partial = index.partials.removeValue(forKey: id) else { return }
        index.usedBytes -= partial.length
        try? FileSystem.remove(paths.partial(id))
    }

    /// Refuses a chunk that does not continue the partial or would not fit; every
    /// comparison is made before any arithmetic on the peer's numbers.
    private func checkChunk(
        _ index: BlobIndex, current: Int64, offset: Int64, count: Int, expectedSize: Int64?
    ) throws(BlobError) {
        guard offset == current else {
            throw BlobError(
                .wrongOffset,
                "a chunk at offset \(offset) does not continue the \(current) bytes received; "
                    + "ask again from offset \(current)")
        }
        guard count <= BlobStore.maxChunkBytes else {
            throw BlobError(.tooLarge, "a chunk of \(count) bytes is over the \(BlobStore.maxChunkBytes)-byte limit")
        }
        let (newLength, overflow) = current.addingReportingOverflow(Int64(count))
        guard !overflow, newLength <= maxBlobBytes else { throw tooLarge(overflow ? Int64.max : newLength) }
        var remaining = Int64(count)
        if let expectedSize {
            guard expectedSize >= 0 else {
                throw BlobError(
                    .tooLarge, "a photo announced as \(expectedSize) bytes is not a photo; ask another peer")
            }
            guard expectedSize <= maxBlobBytes else { throw tooLarge(expectedSize) }
            guard newLength <= expectedSize else {
                throw BlobError(
                    .tooLarge,
                    "the peer sent \(newLength) bytes of a photo announced as \(expectedSize); ask another peer")
            }
            remaining = expectedSize - current
        }
        guard index.fits(remaining, quotaBytes: quotaBytes) else { throw quotaExceeded(remaining) }
    }

    /// Writes `bytes` after the `length` bytes of the partial file: its short last frame, if
    /// any, is decrypted and sealed again with the new bytes behind it.
    private func appendFrames(_ id: BlobID, _ bytes: [UInt8], after length: Int64, cipher: BlobCipher)
        throws(BlobError)
    {
        let file = try BlobFile.openOrCreate(paths.partial(id))
        let frameBytes = Int64(BlobCipher.plaintextBytes)
        var frame = length / frameBytes
        let start = frame * Int64(BlobCipher.sealedBytes)
        let tailLength = Int(length - frame * frameBytes)
        var pending = bytes[...]
        if tailLength > 0 {
            let sealed = try file.read(at: start, count: tailLength + BlobCipher.overheadBytes)
            pending = try (cipher.open(sealed, index: frame, last: false) + bytes)[...]
        }
        var out = [UInt8]()
        while !pending.isEmpty {
            let piece = pending.prefix(BlobCipher.plaintextBytes)
            out += try cipher.seal(piece, index: frame, last: false)
            pending = pending.dropFirst(piece.count)
            frame += 1
        }
        try file.write(out, at: start)
        try file.truncate(to: start + Int64(out.count))
    }

    /// The hash of a partial's bytes, read back from its file after a restart; `.corrupt`
    /// when a frame does not authenticate.
    private func rehash(_ id: BlobID, length: Int64, cipher: BlobCipher) throws(BlobError) -> Blake2bStream {
        let hasher = try hashing { () throws(CryptoError) in try Blake2bStream() }
        guard length > 0 else { return hasher }
        let file = try BlobFile.openForReading(paths.partial(id))
        let frameBytes = Int64(BlobCipher.plaintextBytes)
        for frame in 0..<FrameLayout.frameCount(plaintext: length, stored: false) {
            let frameLength = min(frameBytes, length - frame * frameBytes)
            let sealed = try file.read(
                at: frame * Int64(BlobCipher.sealedBytes), count: Int(frameLength) + BlobCipher.overheadBytes)
            let plain = try cipher.open(sealed, index: frame, last: false)
            try hashing { () throws(CryptoError) in try hasher.update(plain) }
        }
        return hasher
    }

    /// Marks the partial's last frame as last, syncs it and renames it into place.
    private func moveIntoPlace(_ id: BlobID, length: Int64, cipher: BlobCipher) throws(BlobError) {
        let file = try BlobFile.openOrCreate(paths.partial(id))
        let lastFrame = FrameLayout.frameCount(plaintext: length, stored: true) - 1
        let start = lastFrame * Int64(BlobCipher.sealedBytes)
        let plain: [UInt8]
        if length == 0 {
            plain = []
        } else {
            let frameLength = Int(length - lastFrame * Int64(BlobCipher.plaintextBytes))
            let sealed = try file.read(at: start, count: frameLength + BlobCipher.overheadBytes)
            plain = try cipher.open(sealed, index: lastFrame, last: false)
        }
        let resealed = try cipher.seal(plain[...], index: lastFrame, last: true)
        try file.write(resealed, at: start)
        try file.truncate(to: start + Int64(resealed.count))
        try file.sync()
        if try FileSystem.makePrivateDirectory(paths.fanOut(id)) {
            try FileSystem.syncDirectory(paths.root)
        }
        try FileSystem.rename(paths.partial(id), to: paths.stored(id))
        try FileSystem.syncDirectory(paths.fanOut(id))
    }

    /// Runs a hashing step, turning libsodium's failure (which does not happen with valid
    /// state) into an `.io` error.
    private func hashing<T>(_ body: () throws(CryptoError) -> T) throws(BlobError) -> T {
        do {
            return try body()
        } catch {
            throw BlobError(.io, "hashing a photo failed", cause: error.description)
        }
    }
}
