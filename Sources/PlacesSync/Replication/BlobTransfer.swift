/// Blobs (photos) between daemons (`Protocol/sync.md` §7.4), in domain types: what the
/// replicator asks of the host and hears back. Hashes are the 32-byte BLAKE2b-256 of a
/// blob's bytes (its id); offsets and sizes are the wire's unsigned numbers, already checked
/// against `BlobTransfer`'s bounds before the host sees them.
public enum BlobTransfer {
    /// The feature a peer names in `Hello` when it takes blob messages: an older daemon
    /// closes a session on a message of a kind it does not know.
    public static let feature = "blob/1"
    /// Length of a blob's hash (its id).
    public static let hashBytes = 32
    /// Largest blob asked for or sent (a want's offset, a chunk's total): 20 MiB.
    public static let maxBlobBytes: UInt64 = 20 * 1024 * 1024
    /// Largest chunk of data in one `BlobChunk`: 256 KiB.
    public static let maxChunkBytes = 256 * 1024
    /// Most blobs being fetched from one peer at once, each with one want outstanding.
    public static let maxInFlightPerPeer = 4
    /// Most blobs this daemon wants at once (with who may have them); more are found again
    /// when the holder's wants drain, or at the next session with it.
    public static let maxWanted = 1_000
    /// Most wanted blobs one holder may be named for (its share of `maxWanted`): a friend
    /// that names photos it never sends fills its own share, not the set.
    public static let maxWantedPerHolder = 100
    /// How long a want may go unanswered before its peer counts as refusing the blob (for
    /// this session): a 256 KiB chunk in a minute is about 35 kbit/s.
    public static let maxWantWait: Duration = .seconds(60)
    /// Most holders remembered per wanted blob.
    public static let maxHoldersPerBlob = 8
    /// Least time between two searches of one document for holders of photos every holder
    /// refused (`Replicator.refuseBlob`): a peer that names photos and refuses them cannot
    /// make this daemon read that document again and again.
    public static let holderSearchInterval: Duration = .seconds(1)

    /// One want: the bytes of blob `hash` from `offset`.
    public struct Request: Sendable, Hashable {
        public var hash: [UInt8]
        public var offset: UInt64

        public init(hash: [UInt8], offset: UInt64) {
            self.hash = hash
            self.offset = offset
        }
    }

    /// One chunk: `data` at `offset` of the `total`-byte blob `hash`; `last` when it ends it.
    public struct Piece: Sendable, Hashable {
        public var hash: [UInt8]
        public var offset: UInt64
        public var data: [UInt8]
        public var last: Bool
        public var total: UInt64

        public init(hash: [UInt8], offset: UInt64, data: [UInt8], last: Bool, total: UInt64) {
            self.hash = hash
            self.offset = offset
            self.data = data
            self.last = last
            self.total = total
        }
    }

    /// The host's answer to a peer's want.
    public enum Answer: Sendable, Equatable {
        /// The chunk to send.
        case piece(Piece)
        /// Not held whole here, or the peer may not have it (the peer is told only
        /// `BlobMissing`, never which); `reason` is for the log.
        case missing(reason: String)
        /// Not held whole here, and the peer may have it once it is (another device of this
        /// person): a want of a blob this daemon is fetching itself is held until that fetch
        /// ends (`HeldBlobWants`); else it is `missing`.
        case notYet(reason: String)
    }

    /// What became of a received chunk.
    public enum Progress: Sendable, Equatable {
        /// Appended; ask for the rest from `next`.
        case partial(next: UInt64)
        /// The blob is whole and its hash matched.
        case stored
        /// Refused (wrong offset, over a limit or the quota, a hash mismatch that discarded
        /// the partial, a disk error): this peer is not asked for it again in this session.
        case failed(reason: String)
    }
}
