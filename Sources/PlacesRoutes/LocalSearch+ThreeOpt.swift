/// Sequential 3-opt moves (Lin–Kernighan steps of depth 3) for ``LocalSearch``, symmetric
/// matrices only.
///
/// From a node t1 and its tour neighbour t2 (either side), in Lin–Kernighan notation:
/// remove (t1, t2), add (t2, t3) for a candidate t3 of t2, remove (t3, t4), add (t4, t5)
/// for a candidate t5 of t4, remove (t5, t6) and close with (t6, t1); every partial sum
/// (removed minus added) must stay positive, which prunes the candidate loops early.
/// - t4 on the far side of t3 (the 2-opt close would split the tour): t5 must lie between
///   t2 and t3, and both t6 choices close a tour — the pure segment exchange
///   (t2…t5)(t6…t3) → (t6…t3)(t2…t5), or the same with both segments reversed. Or-opt
///   only moves segments of up to three nodes; this moves any length.
/// - t4 on the near side (a valid 2-opt): a second 2-opt on the flipped tour.
/// Every move is applied as a sequence of 2-opt flips, each reversing the shorter side.
extension LocalSearch {
    /// Candidates tried for t3 and for t5 in a 3-opt move.
    static let threeOptBreadth = 8
    /// Candidates compared at each step of a Lin–Kernighan chain, and its most flips.
    static let chainBreadth = 5
    static let chainDepth = 6

    /// Next node in direction `forward` (the successor) or backward (the predecessor).
    @inline(__always) private func next(_ a: Int, _ forward: Bool) -> Int { forward ? succ(a) : pred(a) }

    /// Distance in positions from `a` to `b` walking in the given direction.
    @inline(__always) private func walk(_ a: Int, _ b: Int, _ forward: Bool) -> Int {
        forward ? span(a, b) : span(b, a)
    }

    /// First-improvement sequential 3-opt from `t1`. Returns true when the tour changed.
    func try3Opt(_ t1: Int) -> Bool {
        let breadth = min(Self.threeOptBreadth, k)
        for forward in [true, false] {
            let t2 = next(t1, forward)
            let d12 = d(t1, t2)
            let base2 = t2 &* k
            for i in 0..<breadth {
                let t3 = neighbours[base2 &+ i]
                let g1 = d12 &- neighbourCost[base2 &+ i]
                if g1 <= 0 { break }
                if t3 == t1 || t3 == next(t2, forward) { continue }
                // Far side: t4 follows t3 (walking from t2 towards t3).
                let far = next(t3, forward)
                if far != t1 && tryClose(t1, t2, t3, far, gain: g1 &+ d(t3, far), forward: forward, farSide: true) {
                    return true
                }
                // Near side: t4 precedes t3; closing with (t4, t1) is a 2-opt move.
                let near = next(t3, !forward)
                if near == t2 { continue }
                let g2 = g1 &+ d(t3, near)
                if g2 &- d(near, t1) > 0 {
                    flip(t1, t2, near, t3)
                    cost &-= g2 &- d(near, t1)
                    push(t1); push(t2); push(t3); push(near)
                    return true
                }
                if tryClose(t1, t2, t3, near, gain: g1 &+ d(t3, near), forward: forward, farSide: false) {
                    return true
                }
            }
        }
        return false
    }

    /// The third exchange for a given t1…t4; `gain` is d12 − d23 + d34.
    private func tryClose(
        _ t1: Int, _ t2: Int, _ t3: Int, _ t4: Int, gain g2: Int, forward: Bool, farSide: Bool
    ) -> Bool {
        let breadth = min(Self.threeOptBreadth, k)
        let base4 = t4 &* k
        let length23 = walk(t2, t3, forward)
        let length24 = walk(t2, t4, forward)
        for i in 0..<breadth {
            let t5 = neighbours[base4 &+ i]
            let g2Open = g2 &- neighbourCost[base4 &+ i]
            if g2Open <= 0 { break }
            if t5 == t1 || t5 == t2 || t5 == t3 { continue }
            if farSide {
                // t5 must lie strictly inside t2…t3 (it is neither end, checked above).
                if walk(t2, t5, forward) >= length23 { continue }
                // t6 after t5: pure segment exchange.
                let after = next(t5, forward)
                if g2Open &+ d(t5, after) &- d(after, t1) > 0 {
                    // t1 [t2…t5][t6…t3] t4 → t1 [t6…t3][t2…t5] t4, as three flips.
                    flip(t1, t2, t3, t4)
                    flip(t1, t3, after, t5)
                    flip(t3, t5, t2, t4)
                    finish(gain: g2Open &+ d(t5, after) &- d(after, t1), t1, t2, t3, t4, t5, after)
                    return true
                }
                // t6 before t5: both segments reversed in place.
                let before = next(t5, !forward)
                if g2Open &+ d(t5, before) &- d(before, t1) > 0 {
                    // t1 [t2…t6][t5…t3] t4 → t1 [t6…t2][t3…t5] t4, as two flips.
                    flip(t1, t2, before, t5)
                    flip(t2, t5, t3, t4)
                    finish(gain: g2Open &+ d(t5, before) &- d(before, t1), t1, t2, t3, t4, t5, before)
                    return true
                }
            } else {
                // After the 2-opt t1 [t2…t4] t3 → t1 [t4…t2] t3, the node before t5 on the
                // flipped tour (walking from t1 towards t4) is t6.
                let t6: Int
                if walk(t2, t5, forward) < length24 {
                    t6 = next(t5, forward)
                } else {
                    t6 = next(t5, !forward)
                }
                if t6 == t4 || t6 == t1 { continue }
                let total = g2Open &+ d(t5, t6) &- d(t6, t1)
                if total > 0 {
                    flip(t1, t2, t4, t3)
                    flip(t1, t4, t6, t5)
                    finish(gain: total, t1, t2, t3, t4, t5, t6)
                    return true
                }
            }
        }
        return false
    }

    /// Deeper Lin–Kernighan chain from `t1`, tried when no 3-opt move improves: each step
    /// is a 2-opt flip that keeps (t1, last) a tour edge, choosing the candidate with the
    /// best partial gain, up to `chainDepth` flips; the flips are applied tentatively and
    /// undone (from the journal) when no prefix of the chain closes with a gain.
    func tryChain(_ t1: Int) -> Bool {
        let breadth = min(Self.chainBreadth, k)
        let wasJournaling = journaling
        journaling = true
        defer { journaling = wasJournaling }
        for forward in [true, false] {
            let mark = journal.count
            var last = next(t1, forward)
            var gain = d(t1, last)
            var steps = 0
            for _ in 0..<Self.chainDepth {
                let walkingForward = succ(t1) == last
                var bestC = -1
                var bestEven = -1
                var bestScore = Int.min
                let base = last &* k
                for i in 0..<breadth {
                    let c = neighbours[base &+ i]
                    let open = gain &- neighbourCost[base &+ i]
                    if open <= 0 { break }
                    if c == t1 { continue }
                    let even = walkingForward ? pred(c) : succ(c)
                    if even == last || even == t1 || c == (walkingForward ? succ(last) : pred(last)) { continue }
                    let score = open &+ d(c, even)
                    if score > bestScore {
                        bestScore = score
                        bestC = c
                        bestEven = even
                    }
                }
                if bestC < 0 { break }
                flip(t1, last, bestEven, bestC)
                steps &+= 1
                gain = bestScore
                last = bestEven
                let closed = gain &- d(last, t1)
                if closed > 0 {
                    cost &-= closed
                    // Every node whose tour edges changed is an end of a reversed path.
                    for index in mark..<journal.count {
                        let (i, j) = journal[index]
                        push(tour[i]); push(tour[j])
                        push(tour[i == 0 ? m &- 1 : i &- 1]); push(tour[j &+ 1 == m ? 0 : j &+ 1])
                    }
                    if !wasJournaling { journal.removeLast(journal.count &- mark) }
                    return true
                }
            }
            // Undo the chain.
            journaling = false
            while journal.count > mark {
                let (i, j) = journal.removeLast()
                reverseExact(i, j)
            }
            journaling = true
        }
        return false
    }

    /// 2-opt exchange on the current tour: removes the tour edges {x1, x2} and {y1, y2},
    /// where walking from x2 away from x1 reaches y1 before y2, and adds {x1, y1} and
    /// {x2, y2}, reversing the shorter side.
    private func flip(_ x1: Int, _ x2: Int, _ y1: Int, _ y2: Int) {
        if succ(x1) == x2 {
            // … x1 x2 … y1 y2 … → … x1 y1 … x2 y2 …
            reversePath(x2, y1)
        } else {
            // … y2 y1 … x2 x1 … → … y2 x2 … y1 x1 …
            reversePath(y1, x2)
        }
    }

    private func finish(gain: Int, _ t1: Int, _ t2: Int, _ t3: Int, _ t4: Int, _ t5: Int, _ t6: Int) {
        cost &-= gain
        push(t1); push(t2); push(t3); push(t4); push(t5); push(t6)
    }
}
