import PlacesCrypto

/// What the store holds, kept in memory behind the store's lock: built by listing the
/// directory at start, then changed only together with the files it describes.
struct BlobIndex {
    /// A download in progress.
    struct Partial {
        /// Plaintext bytes received so far: where the next chunk must start.
        var length: Int64
        /// The hash of those bytes, carried from chunk to chunk. Nil after a restart until
        /// the next chunk, which recomputes it by reading the partial file back.
        var hasher: Blake2bStream?
    }

    /// Plaintext length of each stored blob.
    var stored: [BlobID: Int64] = [:]
    var partials: [BlobID: Partial] = [:]
    /// Plaintext bytes stored and partially received: what the quota is measured against.
    var usedBytes: Int64 = 0
    /// Bytes promised to `put`s that are writing their file outside the lock.
    var reservedBytes: Int64 = 0

    /// Whether `count` more bytes fit in `quotaBytes`, counting the bytes being written.
    func fits(_ count: Int64, quotaBytes: Int64) -> Bool {
        let (committed, o1) = usedBytes.addingReportingOverflow(reservedBytes)
        let (total, o2) = committed.addingReportingOverflow(count)
        return !o1 && !o2 && total <= quotaBytes
    }
}
