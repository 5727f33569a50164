import PlacesMedia

/// Byte-building helpers for the hand-made image files of these tests.
extension Array where Element == UInt8 {
    init(ascii text: String) { self = Array(text.utf8) }

    /// Whether `needle` occurs anywhere: how the tests prove a value is gone from a file.
    func contains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { start in self[start..<start + needle.count].elementsEqual(needle)
        }
    }
}

func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }
func le16(_ value: Int) -> [UInt8] { be16(value).reversed() }
func le32(_ value: Int) -> [UInt8] { be32(value).reversed() }

/// PNG's CRC-32, written out again here so the tests check the module against their own.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    return crc ^ 0xFFFF_FFFF
}

/// A seeded generator (SplitMix64) so the mutation tests replay the same inputs every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// The error `ImageInfo.inspect` answers for `bytes`, or nil when it accepts them.
func inspectionError(_ bytes: [UInt8]) -> MediaError? {
    do {
        _ = try ImageInfo.inspect(bytes)
        return nil
    } catch {
        return error
    }
}
