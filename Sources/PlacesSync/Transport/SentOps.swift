/// What one session sent of ops (`OpsBatch` entries): how many, and how many of them the
/// session had already carried, either way (sent on it before, or received on it: sent back
/// to the peer it came from). The second is what the fan-out benchmark reports as "no op sent
/// twice on one connection" (issue 34), and what `GET /v1/peers` shows as `opsSentAgain`. An
/// op is recognised by a 64-bit fingerprint of its encoded bytes, among the last `remembered`
/// ops the session carried: a bounded set per session, whatever its length.
struct SentOps: Sendable {
    static let remembered = 4_096

    private(set) var sent = 0
    private(set) var sentAgain = 0
    private var recent: Set<UInt64> = []
    private var ring: [UInt64] = []
    private var next = 0

    /// Counts ops about to be sent, by fingerprint.
    mutating func note(_ fingerprints: [UInt64]) {
        for print in fingerprints {
            sent &+= 1
            if !remember(print) { sentAgain &+= 1 }
        }
    }

    /// Remembers ops received on the session: sending one of them back counts as again.
    mutating func noteReceived(_ fingerprints: [UInt64]) {
        for print in fingerprints { remember(print) }
    }

    /// False when `print` was remembered already.
    @discardableResult
    private mutating func remember(_ print: UInt64) -> Bool {
        guard recent.insert(print).inserted else { return false }
        if ring.count < Self.remembered {
            ring.append(print)
        } else {
            recent.remove(ring[next])
            ring[next] = print
            next = (next + 1) % Self.remembered
        }
        return true
    }
}
