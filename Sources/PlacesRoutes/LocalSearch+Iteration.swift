/// The iterated part of ``LocalSearch``: kicks, acceptance, restarts and the best tour.
extension LocalSearch {
    /// Segment-local double bridge: swaps two adjacent blocks of 1…`maxBlock` nodes
    /// starting at a random position (A B C D → A C B D) and queues the touched nodes.
    func kick(_ rng: inout SplitMix64) {
        let maxBlock = max(1, min(30, (m - 2) / 2))
        let l1 = 1 &+ rng.below(maxBlock)
        let l2 = 1 &+ rng.below(maxBlock)
        let start = rng.below(m)
        let before = tour[(start &- 1 &+ m) % m]
        let b1 = tour[start]
        let b2 = tour[(start &+ l1 &- 1) % m]
        let c1 = tour[(start &+ l1) % m]
        let c2 = tour[(start &+ l1 &+ l2 &- 1) % m]
        let after = tour[(start &+ l1 &+ l2) % m]
        cost &+= d(before, c1) &+ d(c2, b1) &+ d(b2, after) &- d(before, b1) &- d(b2, c1) &- d(c2, after)
        rotateBlocks(start, l1, l2)
        push(before); push(b1); push(b2); push(c1); push(c2); push(after)
    }

    /// Segment-local double bridge proper: three adjacent blocks of 1…`maxBlock` nodes
    /// change order, B C D → D C B, each keeping its direction. All four edges around the
    /// blocks change, so one sequential 3-opt move cannot undo it (the two-block swap above
    /// is exactly such a move).
    func doubleBridgeKick(_ rng: inout SplitMix64) {
        let maxBlock = max(1, min(100, (m - 2) / 3))
        let l1 = 1 &+ rng.below(maxBlock)
        let l2 = 1 &+ rng.below(maxBlock)
        let l3 = 1 &+ rng.below(maxBlock)
        let start = rng.below(m)
        let a = tour[(start &- 1 &+ m) % m]
        let b1 = tour[start]
        let b2 = tour[(start &+ l1 &- 1) % m]
        let c1 = tour[(start &+ l1) % m]
        let c2 = tour[(start &+ l1 &+ l2 &- 1) % m]
        let d1 = tour[(start &+ l1 &+ l2) % m]
        let d2 = tour[(start &+ l1 &+ l2 &+ l3 &- 1) % m]
        let e = tour[(start &+ l1 &+ l2 &+ l3) % m]
        cost &+= d(a, d1) &+ d(d2, c1) &+ d(c2, b1) &+ d(b2, e) &- d(a, b1) &- d(b2, c1) &- d(c2, d1) &- d(d2, e)
        // B C D → C B D → D C B.
        rotateBlocks(start, l1, l2)
        rotateBlocks(start, l1 &+ l2, l3)
        push(a); push(b1); push(b2); push(c1); push(c2); push(d1); push(d2); push(e)
    }

    /// Spatial segment exchange: cuts the tour after a random node and after two nodes
    /// near it in space (a neighbour and a neighbour's neighbour), then swaps the two
    /// middle blocks (A B C D → A C B D). The three new edges join nodes that are close
    /// together but may be far apart along the tour: the moves that change how clusters
    /// are linked, which 2-opt and short Or-opt moves cannot make.
    func spatialKick(_ rng: inout SplitMix64) -> Bool {
        let v = tour[rng.below(m)]
        let x = neighbours[v &* k &+ rng.below(k)]
        let y = neighbours[x &* k &+ rng.below(k)]
        var p1 = pos[v]
        var p2 = pos[x]
        var p3 = pos[y]
        if p1 > p2 { swap(&p1, &p2) }
        if p2 > p3 { swap(&p2, &p3) }
        if p1 > p2 { swap(&p1, &p2) }
        // Three distinct cuts leaving non-empty blocks B = p1+1…p2 and C = p2+1…p3.
        if p1 == p2 || p2 == p3 { return false }
        let lengthB = p2 &- p1
        let lengthC = p3 &- p2
        let lengthDA = m &- lengthB &- lengthC
        // Swapping any two cyclically adjacent blocks of (B, C, DA) gives the same cycle;
        // the cheapest pair costs up to 2m/3 swaps: on large tours keep kicks cheap.
        if min(lengthB &+ lengthC, lengthC &+ lengthDA, lengthDA &+ lengthB) > Self.spatialKickLimit { return false }
        let a1 = tour[p1]
        let b1 = tour[p1 &+ 1]
        let b2 = tour[p2]
        let c1 = tour[p2 &+ 1]
        let c2 = tour[p3]
        let d1 = tour[p3 &+ 1 == m ? 0 : p3 &+ 1]
        cost &+= d(a1, c1) &+ d(c2, b1) &+ d(b2, d1) &- d(a1, b1) &- d(b2, c1) &- d(c2, d1)
        if lengthB &+ lengthC <= lengthC &+ lengthDA && lengthB &+ lengthC <= lengthDA &+ lengthB {
            rotateBlocks(p1 &+ 1, lengthB, lengthC)
        } else if lengthC &+ lengthDA <= lengthDA &+ lengthB {
            rotateBlocks(p2 &+ 1, lengthC, lengthDA)
        } else {
            rotateBlocks(p3 &+ 1 == m ? 0 : p3 &+ 1, lengthDA, lengthB)
        }
        push(a1); push(b1); push(b2); push(c1); push(c2); push(d1)
        return true
    }

    /// Iterated local search until `deadline` or until the search stagnates.
    ///
    /// Stagnation: `maxStagnantKicks` kicks in a row without a strictly better tour. With
    /// `restarts` > 0 a stagnant search is not over: it goes back to the best tour, shakes
    /// it with a burst of spatial kicks (a restart far enough away to leave the basin) and
    /// searches again with half the stagnation limit; it stops after `restarts` restarts in
    /// a row that found nothing better, or at the deadline. Accepts equal-cost tours
    /// (plateau moves).
    func iterate(
        until deadline: ContinuousClock.Instant, maxStagnantKicks: Int, restarts: Int = 0, rng: inout SplitMix64
    ) {
        let clock = ContinuousClock()
        var best = cost
        var bestTour = [Int](repeating: 0, count: m)
        for i in 0..<m { bestTour[i] = tour[i] }
        var accepted = cost
        var stagnant = 0
        var kicks = 0
        var limit = maxStagnantKicks
        var fruitlessRestarts = 0
        let (slack, slackOdds) = Self.acceptance(cost: cost, nodes: m, threeOpt: useThreeOpt)
        journaling = true
        while true {
            if kicks & 7 == 0 && clock.now >= deadline { break }
            if stagnant >= limit {
                if fruitlessRestarts >= restarts { break }
                fruitlessRestarts &+= 1
                limit = max(1, maxStagnantKicks / 2)
                journaling = false
                restore(bestTour, cost: best)
                for _ in 0..<max(3, m / 8) where !(useSpatialKicks && spatialKick(&rng)) { kick(&rng) }
                descend()
                journaling = true
                accepted = cost
                stagnant = 0
                if cost < best {
                    best = cost
                    for i in 0..<m { bestTour[i] = tour[i] }
                }
            }
            kicks &+= 1
            journal.removeAll(keepingCapacity: true)
            if useThreeOpt {
                doubleBridgeKick(&rng)
            } else if !useSpatialKicks || rng.below(2) == 0 || !spatialKick(&rng) {
                kick(&rng)
            }
            descend()
            if cost < best {
                best = cost
                accepted = cost
                stagnant = 0
                fruitlessRestarts = 0
                for i in 0..<m { bestTour[i] = tour[i] }
                continue
            }
            stagnant &+= 1
            if cost <= accepted || (cost < accepted &+ slack && rng.below(slackOdds) == 0) {
                accepted = cost
            } else {
                journaling = false
                for (i, j) in journal.reversed() { reverseExact(i, j) }
                journaling = true
                cost = accepted
            }
        }
        journaling = false
        if cost != best { restore(bestTour, cost: best) }
    }

    /// Starts over from `initialTour` (a permutation of 0..<m), for an independent run.
    func reset(to initialTour: [Int]) {
        for (index, node) in initialTour.enumerated() {
            tour[index] = node
            pos[node] = index
        }
        cost = tourCost()
    }

    func restore(_ saved: [Int], cost savedCost: Int) {
        for i in 0..<m {
            tour[i] = saved[i]
            pos[saved[i]] = i
        }
        cost = savedCost
    }

    /// How much worse than the accepted tour a kicked tour may be and still be accepted,
    /// and the odds of accepting such a tour (1 in `odds`); the best tour seen is kept
    /// separately and returned. With 2-opt and Or-opt: a fifth of an average edge, 1 in 16,
    /// enough to leave plateaus and shallow basins. With 3-opt and Lin–Kernighan chains
    /// most double bridges are repaired back to the same tour, so the walk needs a longer
    /// leash: half an average edge, 1 in 4 (measured on TSPLIB 318–1,002 nodes).
    static func acceptance(cost: Int, nodes m: Int, threeOpt: Bool) -> (slack: Int, odds: Int) {
        threeOpt ? (max(1, cost / m / 2), 4) : (max(1, cost / m / 5), 16)
    }
}
