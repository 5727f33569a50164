import Testing

@testable import PlacesExpenses

@Suite struct ApportionmentTests {
    @Test func dinnerOf84_50SplitThreeWaysGivesTheExtraCentToTheFirstTravellerAfterTheOffset() {
        // 8450 / 3 = 2816.67: each gets 2816, two cents are left; all remainders tie, so they go
        // to the traveller at the offset and the next one (wrapping around).
        #expect(Apportionment.split(8450, weights: [1, 1, 1], offset: 0) == [2817, 2817, 2816])
        #expect(Apportionment.split(8450, weights: [1, 1, 1], offset: 1) == [2816, 2817, 2817])
        #expect(Apportionment.split(8450, weights: [1, 1, 1], offset: 2) == [2817, 2816, 2817])
        #expect(Apportionment.split(8450, weights: [1, 1, 1], offset: 5) == [2817, 2816, 2817])
        // 100 / 3: the one cent left goes to the traveller at the offset.
        #expect(Apportionment.split(100, weights: [1, 1, 1], offset: 2) == [33, 33, 34])
    }

    @Test func manyLeftoverUnitsFollowTheSameRule() {
        // 100 travellers, 99 cents left: everyone from the offset on gets one, wrapping around,
        // so only the traveller just before the offset does not.
        let parts = Apportionment.split(10_099, weights: Array(repeating: 1, count: 100), offset: 7)
        #expect(parts == (0..<100).map { $0 == 6 ? 100 : 101 })
        // Unequal remainders among many: largest first.
        let weights: [Int64] = (1...60).map { $0 }
        let split = Apportionment.split(1_000, weights: weights, offset: 3)
        #expect(split?.reduce(0, +) == 1_000)
        #expect(split?.last == 33)  // 1000 × 60 / 1830 = 32.79: the largest remainders get a unit
    }

    @Test func theOffsetComesFromTheExpenseIDsFirstEightHexDigits() {
        #expect(Apportionment.offset(forID: "00000005ffffffffffffffffffffffff", count: 3) == 2)
        #expect(Apportionment.offset(forID: "0000000affff", count: 4) == 2)
        #expect(Apportionment.offset(forID: "not-hex", count: 3) == 0)
        #expect(Apportionment.offset(forID: "ffffffff", count: 0) == 0)
    }

    @Test func sharesTwoToOneToOne() {
        #expect(Apportionment.split(8450, weights: [2, 1, 1]) == [4225, 2113, 2112])
        #expect(Apportionment.split(1001, weights: [2, 1, 1], offset: 1) == [501, 250, 250])
    }

    @Test func largestRemainderWinsBeforeTheOffset() {
        // 10 × (5, 3, 2) / 10 … with 7: 3.5, 2.1, 1.4 → floors 3, 2, 1 = 6; the 0.5 gets the cent
        // whatever the offset.
        for offset in 0..<3 {
            #expect(Apportionment.split(7, weights: [5, 3, 2], offset: offset) == [4, 2, 1])
        }
    }

    @Test func percentagesInBasisPoints() {
        // 33.33 %, 33.33 %, 33.34 % of 100.00.
        #expect(Apportionment.split(10_000, weights: [3333, 3333, 3334]) == [3333, 3333, 3334])
        // 50 % / 25 % / 25 % of 0.03: 1.5, 0.75, 0.75 → 1, 0, 0, then the two largest remainders.
        #expect(Apportionment.split(3, weights: [5000, 2500, 2500]) == [1, 1, 1])
    }

    @Test func exactAmountsComeOutExactly() {
        #expect(Apportionment.split(8450, weights: [4000, 4450, 0]) == [4000, 4450, 0])
    }

    @Test func hugeAmountsNeitherOverflowNorLoseACent() {
        let total: Int64 = 1_000_000_000_000
        let parts = Apportionment.split(total, weights: [999_999_999_999, 1, 7], offset: 1)
        #expect(parts?.reduce(0, +) == total)
        #expect(Apportionment.split(.max, weights: [.max - 1, 1], offset: 1)?.reduce(0, +) == .max)
    }

    @Test func refusesWhatCannotBeSplit() {
        #expect(Apportionment.split(100, weights: []) == nil)
        #expect(Apportionment.split(100, weights: [0, 0]) == nil)
        #expect(Apportionment.split(100, weights: [1, -1, 1]) == nil)
        #expect(Apportionment.split(-5, weights: [1]) == nil)
        #expect(Apportionment.split(100, weights: [.max, .max]) == nil)
    }

    @Test func partsAlwaysSumToTheTotal() {
        var random = SplitMix64(seed: 1)
        for _ in 0..<2000 {
            let count = 1 + Int(random.next() % 12)
            let weights = (0..<count).map { _ in Int64(random.next() % 1000) + 1 }
            let total = Int64(random.next() % 1_000_000)
            let offset = Int(random.next() % 50)
            guard let parts = Apportionment.split(total, weights: weights, offset: offset) else {
                Issue.record("refused \(total) by \(weights)")
                continue
            }
            #expect(parts.reduce(0, +) == total)
            let weightSum = weights.reduce(0, +)
            for (part, weight) in zip(parts, weights) {
                // Each part is its exact share rounded down or up.
                let exact = Double(total) * Double(weight) / Double(weightSum)
                #expect(Double(part) >= exact.rounded(.down) - 1e-6 && Double(part) <= exact.rounded(.up) + 1e-6)
            }
        }
    }
}
