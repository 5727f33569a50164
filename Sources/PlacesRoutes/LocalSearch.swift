/// Iterated local search for the (possibly asymmetric) cycle problem on an integer matrix.
///
/// The tour is an array with a position index. Moves, all evaluated with neighbour lists
/// and don't-look bits (a FIFO of "dirty" nodes):
/// - 2-opt (segment reversal); on asymmetric matrices the reversed segment's cost change
///   is added exactly and only short segments are tried;
/// - Or-opt / Or-3opt segment insertion: a segment of 1–3 nodes moved next to a
///   neighbour of one of its ends, in either orientation (orientation-preserving block
///   rotation, so it is exact on asymmetric matrices too);
/// - above ``clusteredLimit`` nodes on symmetric matrices, sequential 3-opt moves and
///   Lin–Kernighan chains of up to six flips (LocalSearch+ThreeOpt.swift).
/// Between descents a segment-local double bridge (swap of two adjacent short blocks) or a
/// spatial segment exchange (three cuts near each other in space) perturbs the tour; only
/// the six touched nodes are queued. A kick that ends worse than
/// the accepted tour (beyond a small, randomly applied slack) is undone from a journal of
/// the reversals it made, so rejected kicks cost no tour copies.
final class LocalSearch {
    let m: Int
    let symmetric: Bool
    /// Neighbour-list length.
    let k: Int
    /// Whether kicks may be spatial segment exchanges (see ``clusteredLimit``).
    let useSpatialKicks: Bool
    /// Whether descents use sequential 3-opt moves (and kicks are 4-change double bridges).
    let useThreeOpt: Bool

    /// Tours up to this size use spatial kicks, which find the links between clusters;
    /// larger ones use segment-local kicks only (there the time budget, not a deep basin,
    /// limits the answer) and, when symmetric, 3-opt moves and Lin–Kernighan chains with
    /// segment-local double bridges (TSPLIB 318–1,002 nodes measured best so).
    static let clusteredLimit = 250
    let w: UnsafeMutablePointer<Int>
    let tour: UnsafeMutablePointer<Int>
    let pos: UnsafeMutablePointer<Int>
    let neighbours: UnsafeMutablePointer<Int>
    /// `neighbourCost[v * k + i]` = d(v, neighbours[v * k + i]), read without touching the
    /// (large, cache-unfriendly) matrix.
    let neighbourCost: UnsafeMutablePointer<Int>
    private let queue: UnsafeMutablePointer<Int>
    private let queued: UnsafeMutablePointer<Bool>
    // The search runs on one thread; unchecked exclusivity keeps the runtime's access
    // tracking (a measurable share of the inner loop) off these hot fields.
    @exclusivity(unchecked) private var queueHead = 0
    @exclusivity(unchecked) private var queueCount = 0
    @exclusivity(unchecked) var journal: [(Int, Int)] = []
    @exclusivity(unchecked) var journaling = false
    /// Current tour cost, kept in step with every applied move.
    @exclusivity(unchecked) var cost = 0

    /// Most positions a spatial kick may move (larger ones fall back to a local kick).
    static let spatialKickLimit = 150

    /// Longest segment whose reversal is evaluated on asymmetric matrices (cost O(length)).
    private static let asymmetricReversalLimit = 50

    init(matrix: [Int], count m: Int, symmetric: Bool, initialTour: [Int]) {
        precondition(m >= 8 && initialTour.count == m)
        self.m = m
        self.symmetric = symmetric
        self.k = min(m <= Self.clusteredLimit ? 12 : 10, m - 1)
        self.useSpatialKicks = m <= Self.clusteredLimit
        self.useThreeOpt = symmetric && m > Self.clusteredLimit
        w = .allocate(capacity: m * m)
        tour = .allocate(capacity: m)
        pos = .allocate(capacity: m)
        neighbours = .allocate(capacity: m * k)
        neighbourCost = .allocate(capacity: m * k)
        queue = .allocate(capacity: m)
        queued = .allocate(capacity: m)
        matrix.withUnsafeBufferPointer { source in
            // Invariant: matrix.count == m * m (checked by the caller's construction).
            if let base = source.baseAddress { w.initialize(from: base, count: m * m) }
        }
        queued.initialize(repeating: false, count: m)
        for (index, node) in initialTour.enumerated() {
            tour[index] = node
            pos[node] = index
        }
        buildNeighbours()
        cost = tourCost()
        journal.reserveCapacity(64)
    }

    deinit {
        w.deallocate()
        tour.deallocate()
        pos.deallocate()
        neighbours.deallocate()
        neighbourCost.deallocate()
        queue.deallocate()
        queued.deallocate()
    }

    /// The tour as node ids, starting at position 0.
    var currentTour: [Int] { (0..<m).map { tour[$0] } }

    /// Recomputes the tour cost from scratch.
    func tourCost() -> Int {
        var total = 0
        for i in 0..<m { total &+= d(tour[i], tour[i + 1 == m ? 0 : i + 1]) }
        return total
    }

    // MARK: - Primitives

    @inline(__always) func d(_ a: Int, _ b: Int) -> Int { w[a &* m &+ b] }
    @inline(__always) func succ(_ a: Int) -> Int {
        let p = pos[a] &+ 1
        return tour[p == m ? 0 : p]
    }
    @inline(__always) func pred(_ a: Int) -> Int {
        let p = pos[a]
        return tour[p == 0 ? m &- 1 : p &- 1]
    }
    /// Forward distance in positions from `a` to `b` (0 when equal).
    @inline(__always) func span(_ a: Int, _ b: Int) -> Int {
        let s = pos[b] &- pos[a]
        return s < 0 ? s &+ m : s
    }

    private func buildNeighbours() {
        // Nearest by cost plus α-nearest (see CandidateSet); asymmetric matrices rank by
        // round-trip cost, a good proxy for "close in either direction".
        let lists = CandidateSet.build(
            m: m, k: k, alphaCount: useSpatialKicks || useThreeOpt ? CandidateSet.alphaCount : 0
        ) {
            a, b in symmetric ? d(a, b) : d(a, b) &+ d(b, a)
        }
        for (index, node) in lists.enumerated() {
            neighbours[index] = node
            neighbourCost[index] = d(index / k, node)
        }
    }

    /// Reverses tour positions `i...j` (forward, cyclic) exactly.
    func reverseExact(_ i: Int, _ j: Int) {
        var a = i
        var b = j
        var steps = ((j &- i &+ m) % m &+ 1) / 2
        while steps > 0 {
            let na = tour[a]
            let nb = tour[b]
            tour[a] = nb
            pos[nb] = a
            tour[b] = na
            pos[na] = b
            a = a &+ 1 == m ? 0 : a &+ 1
            b = b == 0 ? m &- 1 : b &- 1
            steps &-= 1
        }
        if journaling { journal.append((i, j)) }
    }

    /// Reverses the path from node `from` forward to node `to`; on symmetric matrices the
    /// complementary path is reversed instead when it is shorter (same cycle).
    func reversePath(_ from: Int, _ to: Int) {
        let i = pos[from]
        let j = pos[to]
        let length = (j &- i &+ m) % m &+ 1
        if symmetric && length * 2 > m {
            reverseExact(j &+ 1 == m ? 0 : j &+ 1, i == 0 ? m &- 1 : i &- 1)
        } else {
            reverseExact(i, j)
        }
    }

    /// Swaps two adjacent blocks starting at position `start`: X(l1) Y(l2) → Y X.
    func rotateBlocks(_ start: Int, _ l1: Int, _ l2: Int) {
        let mid = (start &+ l1) % m
        reverseExact(start, (start &+ l1 &- 1) % m)
        reverseExact(mid, (mid &+ l2 &- 1) % m)
        reverseExact(start, (start &+ l1 &+ l2 &- 1) % m)
    }

    @inline(__always) func push(_ v: Int) {
        if queued[v] { return }
        queued[v] = true
        var tail = queueHead &+ queueCount
        if tail >= m { tail &-= m }
        queue[tail] = v
        queueCount &+= 1
    }

    @inline(__always) private func pop() -> Int? {
        if queueCount == 0 { return nil }
        let v = queue[queueHead]
        queueHead = queueHead &+ 1 == m ? 0 : queueHead &+ 1
        queueCount &-= 1
        queued[v] = false
        return v
    }

    /// Cost change of reversing the path `from`…`to` (internal edges only).
    private func reversalDelta(_ from: Int, _ to: Int) -> Int {
        if symmetric { return 0 }
        var delta = 0
        var x = from
        while x != to {
            let y = succ(x)
            delta &+= d(y, x) &- d(x, y)
            x = y
        }
        return delta
    }

    // MARK: - Moves

    /// First-improvement 2-opt around `a`. Returns true when the tour changed.
    private func try2Opt(_ a: Int) -> Bool {
        let base = a &* k
        // Successor side: remove (a, b), (c, e); add (a, c), (b, e); path b…c reversed.
        let b = succ(a)
        let dab = d(a, b)
        for i in 0..<k {
            let c = neighbours[base &+ i]
            let dac = d(a, c)
            if symmetric && dac >= dab { break }
            if c == b { continue }
            let e = succ(c)
            if e == a { continue }
            var delta = dac &+ d(b, e) &- dab &- d(c, e)
            if !symmetric {
                if span(b, c) > Self.asymmetricReversalLimit { continue }
                delta &+= reversalDelta(b, c)
            }
            if delta < 0 {
                if symmetric { reversePath(b, c) } else { reverseExact(pos[b], pos[c]) }
                cost &+= delta
                push(a); push(b); push(c); push(e)
                return true
            }
        }
        // Predecessor side: remove (p, a), (e, c); add (p, e), (a, c); path a…e reversed.
        let p = pred(a)
        let dpa = d(p, a)
        for i in 0..<k {
            let c = neighbours[base &+ i]
            let dca = d(c, a)
            if symmetric && dca >= dpa { break }
            if c == p { continue }
            let e = pred(c)
            if e == a { continue }
            // Tour: p a … e c  →  p e … a c (new edges p→e and a→c).
            var delta = d(a, c) &+ d(p, e) &- dpa &- d(e, c)
            if !symmetric {
                if span(a, e) > Self.asymmetricReversalLimit { continue }
                delta &+= reversalDelta(a, e)
            }
            if delta < 0 {
                if symmetric { reversePath(a, e) } else { reverseExact(pos[a], pos[e]) }
                cost &+= delta
                push(a); push(p); push(c); push(e)
                return true
            }
        }
        return false
    }

    /// Or-opt: moves a segment of 1–3 nodes that starts or ends at `a` next to a
    /// neighbour of one of its ends, in either orientation.
    private func tryOrOpt(_ a: Int) -> Bool {
        let maxLength = min(3, m - 4)
        if maxLength < 1 { return false }
        for length in 1...maxLength {
            for variant in 0..<(length == 1 ? 1 : 2) {
                let anchoredAtEnd = variant == 1
                let s1 = anchoredAtEnd ? tour[(pos[a] &- (length &- 1) &+ m) % m] : a
                let s2 = anchoredAtEnd ? a : tour[(pos[a] &+ length &- 1) % m]
                if tryMoveSegment(s1, s2, length) { return true }
            }
        }
        return false
    }

    @inline(__always) private func inSegment(_ x: Int, _ s1: Int, _ length: Int) -> Bool {
        span(s1, x) < length
    }

    private func tryMoveSegment(_ s1: Int, _ s2: Int, _ length: Int) -> Bool {
        let p = pred(s1)
        let nx = succ(s2)
        let removeGain = d(p, s1) &+ d(s2, nx) &- d(p, nx)
        if removeGain <= 0 { return false }
        let reversedExtra = length == 1 ? 0 : reversalDelta(s1, s2)
        // Candidates next to s1.
        var base = s1 &* k
        for i in 0..<k {
            let x = neighbours[base &+ i]
            if symmetric && d(x, s1) >= removeGain { break }
            if inSegment(x, s1, length) { continue }
            // Forward: x → s1…s2 → succ(x)
            if x != p {
                let e = succ(x)
                let delta = d(x, s1) &+ d(s2, e) &- d(x, e) &- removeGain
                if delta < 0 { applySegmentMove(s1, s2, length, after: x, reversed: false, delta: delta); return true }
            }
            // Reversed: pred(x) → s2…s1 → x
            if x != nx {
                let c = pred(x)
                let delta = d(c, s2) &+ d(s1, x) &- d(c, x) &+ reversedExtra &- removeGain
                if delta < 0 { applySegmentMove(s1, s2, length, after: c, reversed: true, delta: delta); return true }
            }
        }
        // Candidates next to s2.
        base = s2 &* k
        for i in 0..<k {
            let y = neighbours[base &+ i]
            if symmetric && d(s2, y) >= removeGain { break }
            if inSegment(y, s1, length) { continue }
            // Forward: pred(y) → s1…s2 → y
            if y != nx {
                let c = pred(y)
                let delta = d(c, s1) &+ d(s2, y) &- d(c, y) &- removeGain
                if delta < 0 { applySegmentMove(s1, s2, length, after: c, reversed: false, delta: delta); return true }
            }
            // Reversed: y → s2…s1 → succ(y)
            if y != p {
                let e = succ(y)
                let delta = d(y, s2) &+ d(s1, e) &- d(y, e) &+ reversedExtra &- removeGain
                if delta < 0 { applySegmentMove(s1, s2, length, after: y, reversed: true, delta: delta); return true }
            }
        }
        return false
    }

    /// Moves segment s1…s2 (forward, `length` nodes) between `c` and its successor.
    private func applySegmentMove(_ s1: Int, _ s2: Int, _ length: Int, after c: Int, reversed: Bool, delta: Int) {
        let p = pred(s1)
        let nx = succ(s2)
        let e = succ(c)
        // Cycle = A B C with A = s1…s2, B = nx…c, C = e…p. Target B A C (≡ A C B).
        let lengthB = span(nx, c) &+ 1
        let lengthC = m &- length &- lengthB
        if lengthB <= lengthC {
            rotateBlocks(pos[s1], length, lengthB)
        } else {
            rotateBlocks(pos[e], lengthC, length)
        }
        if reversed { reverseExact(pos[s1], pos[s2]) }
        cost &+= delta
        push(p); push(nx); push(c); push(e); push(s1); push(s2)
    }

    /// Runs first-improvement descent until no queued node yields an improving move.
    func descend() {
        while let a = pop() {
            if try2Opt(a) || tryOrOpt(a) || (useThreeOpt && (try3Opt(a) || tryChain(a))) {
                push(a)
                // Debug builds check the incremental cost after every move (O(n) each).
                assert(cost == tourCost(), "incremental cost drifted from the tour's cost")
            }
        }
    }

    /// Queues every node (used before the first descent).
    func queueAll() {
        for v in 0..<m { push(tour[v]) }
    }
}
