import PlacesCrypto
import PlacesModel

/// A session's opening summary (`Protocol/sync.md` §7, "The opening summary"): what this
/// daemon holds of the documents it would offer a peer, hashed in 256 buckets by the first
/// byte of the document id. Where the peer's hash of a bucket is the same, both hold the same
/// ops, newest grants and access list of every document in it, and no offer is needed.
public struct OpeningSummary: Sendable {
    /// What one summarized document's offer would tell the peer.
    public struct Entry: Sendable {
        public var doc: DocumentID
        /// The document's version vector as this daemon holds it.
        public var vector: VersionVector
        /// The newest key epoch of which a grant is held (0 when none is).
        public var grantEpoch: UInt32
        /// The members (32-byte keys) holding a grant of `grantEpoch`.
        public var grantMembers: [[UInt8]]
        /// The newest access list held (`Protocol/relay.md` §4.1): its epoch and `issuedMs`.
        public var access: (epoch: UInt32, issuedMs: Int64)?

        public init(
            doc: DocumentID, vector: VersionVector, grantEpoch: UInt32, grantMembers: [[UInt8]],
            access: (epoch: UInt32, issuedMs: Int64)?
        ) {
            (self.doc, self.vector, self.grantEpoch, self.grantMembers, self.access) =
                (doc, vector, grantEpoch, grantMembers, access)
        }
    }

    /// The feature both `Hello`s name when summaries are exchanged.
    public static let feature = "summary/1"
    /// Buckets in a summary, and bytes of each bucket's hash.
    static let bucketCount = 256
    static let hashBytes = 16
    static let domain = Array("places/summary/1".utf8) + [0]

    /// Each bucket's hash.
    let hashes: [[UInt8]]
    /// Each bucket's documents and their vectors.
    let buckets: [[(doc: DocumentID, vector: VersionVector)]]

    /// The summary of `entries` (one per document: a repeated document counts once).
    public init(_ entries: [Entry]) {
        // Every conversion below widens and cannot trap: a byte (UInt8) to an index below 256,
        // array counts (never negative) and UInt32 fields to UInt64. Entries come from this
        // daemon's own store, never from a peer (a peer's summary is only compared, `compare`).
        var byBucket = [[Entry]](repeating: [], count: Self.bucketCount)
        var seen = Set<DocumentID>()
        for entry in entries where seen.insert(entry.doc).inserted {
            byBucket[Int(entry.doc.bytes[0])].append(entry)
        }
        hashes = byBucket.map { bucket in
            var bytes = Self.domain
            for entry in bucket.sorted(by: { $0.doc.bytes.lexicographicallyPrecedes($1.doc.bytes) }) {
                Self.append(entry, to: &bytes)
            }
            return Array(Blake2b.hash256(bytes).prefix(Self.hashBytes))
        }
        buckets = byBucket.map { $0.map { ($0.doc, $0.vector) } }
    }

    /// `entry` as sync.md §7 lays it out: the id, the vector (authors in ascending order,
    /// zero seqs left out), the newest grant epoch and its members (ascending), the list's
    /// epoch and `issuedMs` (12 zero bytes when none is held).
    static func append(_ entry: Entry, to bytes: inout [UInt8]) {
        bytes += entry.doc.bytes
        var authors = [(key: [UInt8], seq: UInt64)]()
        authors.reserveCapacity(entry.vector.seqs.count)
        for (author, seq) in entry.vector.seqs where seq > 0 {
            if let key = HexCoding.decode(author) { authors.append((key, seq)) }
        }
        if authors.count > 1 { authors.sort { $0.key.lexicographicallyPrecedes($1.key) } }
        append(UInt64(authors.count), width: 2, to: &bytes)
        for (key, seq) in authors {
            bytes += key
            append(seq, width: 8, to: &bytes)
        }
        append(UInt64(entry.grantEpoch), width: 4, to: &bytes)
        let members =
            entry.grantMembers.count > 1
            ? entry.grantMembers.sorted { $0.lexicographicallyPrecedes($1) } : entry.grantMembers
        append(UInt64(members.count), width: 2, to: &bytes)
        for member in members { bytes += member }
        append(UInt64(entry.access?.epoch ?? 0), width: 4, to: &bytes)
        append(UInt64(bitPattern: entry.access?.issuedMs ?? 0), width: 8, to: &bytes)
    }

    /// `value`'s low `width` bytes, big-endian. A count too wide for its field (more than
    /// 65,535 authors or grants) is cut, which can only make the bucket differ.
    static func append(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// The buckets whose hash differs from the peer's `theirs` (all of them when `theirs` is
    /// not 256 hashes of 16 bytes), and those that agree.
    func compare(with theirs: [[UInt8]]) -> (agreeing: [Int], differing: [Int]) {
        guard theirs.count == Self.bucketCount, theirs.allSatisfy({ $0.count == Self.hashBytes }) else {
            return ([], Array(0..<Self.bucketCount))
        }
        var agreeing = [Int](), differing = [Int]()
        for index in 0..<Self.bucketCount {
            if Blake2b.constantTimeEqual(hashes[index], theirs[index]) {
                agreeing.append(index)
            } else {
                differing.append(index)
            }
        }
        return (agreeing, differing)
    }
}
