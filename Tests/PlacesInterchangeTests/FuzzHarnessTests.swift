import PlacesInterchange
import PlacesRoutes
import Testing

/// `PlaceImport.fuzz` on the samples and on mutations of them: the harness the lead's fuzz
/// target calls must not trap on what a fuzzer starts from.
@Suite struct FuzzHarnessTests {
    static let samples = [
        "Saved Places.json", "Saved Places 2019.json", "Organic Maps.kml", "Lisbon trip (My Maps).kml", "eTrex 32x.gpx",
        "billion-laughs.kml", "external-entity.gpx",
    ]

    @Test func samplesPassTheInvariants() throws {
        for name in Self.samples { PlaceImport.fuzz(try Samples.bytes(name)) }
    }

    @Test func mutatedSamplesPassTheInvariants() throws {
        var rng = SplitMix64(seed: 13)
        for name in Self.samples {
            let original = try Samples.bytes(name)
            for _ in 0..<150 {
                var bytes = original
                for _ in 0..<(1 + Int(rng.next() % 4)) {
                    guard !bytes.isEmpty else { break }
                    let at = Int(rng.next() % UInt64(bytes.count))
                    switch rng.next() % 4 {
                    case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                    case 1: bytes.remove(at: at)
                    case 2: bytes.insert(Array("<>&;\"',:[]{}0.-e".utf8)[Int(rng.next() % 16)], at: at)
                    default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 40)], at: at)
                    }
                }
                PlaceImport.fuzz(bytes)
            }
        }
    }
}
