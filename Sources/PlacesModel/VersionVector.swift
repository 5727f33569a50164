/// Per-author op counters of a document: `seq` of the latest op of each author that is
/// held (for anti-entropy) or that is in an op's causal past (for authorization).
public struct VersionVector: Hashable, Sendable {
    /// Highest seq per author (hex key).
    public private(set) var seqs: [AuthorKey: UInt64] = [:]

    public init(_ seqs: [AuthorKey: UInt64] = [:]) { self.seqs = seqs }

    /// The seq held for `author` (0 when none).
    public subscript(author: AuthorKey) -> UInt64 { seqs[author] ?? 0 }

    /// Raises the entry of `author` to at least `seq`.
    public mutating func include(_ author: AuthorKey, _ seq: UInt64) {
        if seq > self[author] { seqs[author] = seq }
    }

    /// The elementwise maximum.
    public mutating func merge(_ other: VersionVector) {
        for (author, seq) in other.seqs { include(author, seq) }
    }

    /// Whether this vector holds everything `other` holds.
    public func includes(_ other: VersionVector) -> Bool {
        other.seqs.allSatisfy { self[$0.key] >= $0.value }
    }

    /// Whether the op `(author, seq)` is covered (held, or in the causal past).
    public func covers(_ author: AuthorKey, _ seq: UInt64) -> Bool { self[author] >= seq }

    /// Compact, canonical text form: `author:seq` pairs sorted by author, comma-separated.
    public var text: String {
        seqs.keys.sorted().map { "\($0):\(seqs[$0]!)" }.joined(separator: ",")
    }

    /// Parses `text`; malformed pairs are skipped.
    public init(text: String) {
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: ":")
            if parts.count == 2, let seq = UInt64(parts[1]) { seqs[String(parts[0])] = seq }
        }
    }
}
