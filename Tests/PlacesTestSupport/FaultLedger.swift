import Foundation

/// A seeded pseudo-random generator (SplitMix64): the same seed gives the same choices, so a
/// failing fault run names the seed that replays its edit and fault sequence.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One edit the control API acknowledged (2xx), with what it wrote.
public struct AckedEdit: Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        case addedStop(String)
        case movedStop(String)
        case removedStop(String)
        /// A field of the itinerary set to a value unique to this edit.
        case setField(String, String)
    }

    public var node: String
    public var kind: Kind

    public init(node: String, kind: Kind) {
        self.node = node
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .addedStop(let s): return "\(node) added stop \(s)"
        case .movedStop(let s): return "\(node) moved stop \(s)"
        case .removedStop(let s): return "\(node) removed stop \(s)"
        case .setField(let f, let v): return "\(node) set \(f) = \(v)"
        }
    }
}

/// Thread-safe record of acknowledged edits and fault counts.
public final class FaultLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var edits: [AckedEdit] = []
    private var counters: [String: Int] = [:]

    public init() {}

    public func acked(_ edit: AckedEdit) { lock.withLock { edits.append(edit) } }

    public func count(_ what: String, by n: Int = 1) { lock.withLock { counters[what, default: 0] += n } }

    public var acknowledged: [AckedEdit] { lock.withLock { edits } }

    public func counter(_ what: String) -> Int { lock.withLock { counters[what] ?? 0 } }

    /// Counters as `name=value` pairs, sorted by name.
    public var summary: String {
        lock.withLock { counters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }
    }
}
