import PlacesCrypto

/// Where each file of the store lives, under the store's directory (DATA_DIR/blobs):
///
///     .key                    the store's 32-byte secret (0600)
///     ab/abcdef….blob         a stored blob, fanned out by the first two hex digits
///     partial/abcdef….part    a download in progress
///
/// Temporary files end in `.tmp-` and random hex; a start removes any left by a crash.
struct BlobPaths: Sendable {
    let root: String

    var key: String { root + "/.key" }
    var partialDirectory: String { root + "/partial" }

    func fanOut(_ id: BlobID) -> String { root + "/" + String(id.hex.prefix(2)) }
    func stored(_ id: BlobID) -> String { fanOut(id) + "/" + id.hex + BlobPaths.storedSuffix }
    func partial(_ id: BlobID) -> String { partialDirectory + "/" + id.hex + BlobPaths.partialSuffix }

    static let storedSuffix = ".blob"
    static let partialSuffix = ".part"
    static let tempMarker = ".tmp-"

    /// A fresh temporary name next to `path` (same directory, so the rename is atomic).
    static func temporary(for path: String) -> String {
        path + tempMarker + hexDigits(SecureRandom.bytes(8))
    }

    /// The id in a file name like `<64 hex><suffix>`, nil for any other name.
    static func id(fromFileName name: String, suffix: String) -> BlobID? {
        guard name.hasSuffix(suffix) else { return nil }
        return BlobID(hex: String(name.dropLast(suffix.count)))
    }

    /// Whether `name` can be a fan-out directory: two lowercase hex digits.
    static func isFanOut(_ name: String) -> Bool {
        name.utf8.count == 2 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    private static func hexDigits(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }, as: UTF8.self)
    }
}
