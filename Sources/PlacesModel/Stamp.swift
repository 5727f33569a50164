/// The total order of writes that makes every register converge: compare the Lamport
/// clock, then the author's key, then the change's index inside its op. Two daemons that
/// hold the same ops pick the same winner for every field, whatever the arrival order.
public struct Stamp: Hashable, Sendable, Comparable {
    /// The op's Lamport timestamp.
    public var lamport: UInt64
    /// The op author's key (hex); breaks ties between concurrent ops.
    public var author: AuthorKey
    /// Position of the change within its op; later changes in one op win.
    public var index: Int

    public init(lamport: UInt64, author: AuthorKey, index: Int) {
        self.lamport = lamport
        self.author = author
        self.index = index
    }

    public static func < (a: Stamp, b: Stamp) -> Bool {
        if a.lamport != b.lamport { return a.lamport < b.lamport }
        if a.author != b.author { return a.author < b.author }
        return a.index < b.index
    }
}
