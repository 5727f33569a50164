/// A round of a document's ops read for a peer.
public struct ReplicaRound: Sendable {
    /// The encoded ops, in log (causal) order.
    public var ops: [[UInt8]]
    /// Author (hex) and seq of each op in `ops`.
    public var stamps: [(author: String, seq: UInt64)]
    /// The log position through which the document was read.
    public var readThrough: Int64

    public init(ops: [[UInt8]], stamps: [(author: String, seq: UInt64)], readThrough: Int64) {
        self.ops = ops
        self.stamps = stamps
        self.readThrough = readThrough
    }
}
