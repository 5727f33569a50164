import PlacesMedia
import Testing

/// Whatever a peer sends, the module answers with an `ImageInfo` or a `MediaError`: never a
/// crash, a hang, or a stripped file that no longer reads as the image it came from.
struct MutationTests {
    static let seeds: [[UInt8]] = [
        ImageFixtures.jpeg(), ImageFixtures.jpeg(exif: .camera(bigEndian: true)), ImageFixtures.png(),
        ImageFixtures.webpExtended(), ImageFixtures.webpLossy(), ImageFixtures.heic(),
    ]

    /// Truncates, overwrites, inserts or deletes at random positions.
    static func mutate(_ original: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = original
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            guard !bytes.isEmpty else { break }
            let position = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: bytes.removeSubrange(position...)
            case 1: bytes[position] = UInt8.random(in: 0...255, using: &random)
            case 2: bytes[position] = [0x00, 0xFF, 0x01, 0x7F, 0x80].randomElement(using: &random) ?? 0
            case 3:
                bytes.insert(
                    contentsOf: (0..<Int.random(in: 1...8, using: &random)).map { _ in
                        UInt8.random(in: 0...255, using: &random)
                    }, at: position)
            case 4: bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...16, using: &random)))
            default:
                // A length field turned extreme: all ones or all zeros over four bytes.
                let value: UInt8 = Bool.random(using: &random) ? 0xFF : 0x00
                for index in position..<min(bytes.count, position + 4) { bytes[index] = value }
            }
        }
        return bytes
    }

    @Test(arguments: 0..<MutationTests.seeds.count)
    func mutatedFilesGiveAnAnswerNeverACrash(seedIndex: Int) throws {
        var random = SeededGenerator(state: UInt64(seedIndex) &* 0x1234_5678_9ABC)
        var accepted = 0
        for _ in 0..<800 {
            let bytes = Self.mutate(Self.seeds[seedIndex], &random)
            guard let info = try? ImageInfo.inspect(bytes) else { continue }
            accepted += 1
            for keepLocation in [false, true] {
                guard let stripped = try? MetadataStripper.strip(bytes, keepLocation: keepLocation) else { continue }
                #expect(try ImageInfo.inspect(stripped) == info)
                #expect(try MetadataStripper.strip(stripped, keepLocation: keepLocation) == stripped)
            }
        }
        #expect(accepted > 0)  // the mutations exercise the parsers, not just the magic numbers
    }

    @Test func everyPrefixOfEveryFileIsAnsweredPrecisely() {
        for seed in Self.seeds {
            for length in 0..<seed.count {
                let prefix = Array(seed.prefix(length))
                if let error = inspectionError(prefix) {
                    #expect([.notAnImage, .truncated, .malformed].contains(error.code))
                }
                _ = try? MetadataStripper.strip(prefix, keepLocation: false)
            }
        }
    }
}
