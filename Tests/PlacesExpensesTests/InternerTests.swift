import Testing

@testable import PlacesExpenses

@Suite struct InternerTests {
    @Test func numbersEachNameOnceInOrderOfFirstSightEvenAfterFallingBack() {
        var random = SplitMix64(seed: 9)
        let names = (0..<5000).map { _ in String(random.next(), radix: 16) + String(random.next(), radix: 16) }
        for longestProbe in [24, 0] {
            var interner = Interner(longestProbe: longestProbe)
            for (number, name) in names.enumerated() { #expect(interner.index(name) == number) }
            for (number, name) in names.enumerated().reversed() { #expect(interner.index(name) == number) }
            #expect(interner.names == names)
            #expect(interner.index("") == names.count)
        }
    }
}
