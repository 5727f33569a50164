import Foundation
import PlacesBlobs
import PlacesCrypto
import Testing

/// A fresh DATA_DIR for one test, deleted when the test's `defer` runs `remove()`.
struct TempDataDir {
    let path: String
    var blobs: String { path + "/blobs" }

    init() throws {
        let template = NSTemporaryDirectory() + "places-blobs-XXXXXX"
        var chars = Array(template.utf8CString)
        guard let made = mkdtemp(&chars) else { throw CocoaError(.fileWriteUnknown) }
        path = String(cString: made)
    }

    func open(quotaBytes: Int64 = 100 << 20, maxBlobBytes: Int64 = 20 << 20) throws -> BlobStore {
        try BlobStore(directory: blobs, quotaBytes: quotaBytes, maxBlobBytes: maxBlobBytes)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// The raw bytes of a file under the blobs directory.
    func rawFile(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: blobs + "/" + relative)))
    }

    func writeRawFile(_ relative: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: blobs + "/" + relative))
    }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: blobs + "/" + relative) }

    static func storedPath(_ id: BlobID) -> String { "\(id.hex.prefix(2))/\(id.hex).blob" }
    static func partialPath(_ id: BlobID) -> String { "partial/\(id.hex).part" }
}

/// Deterministic photo-like bytes (xorshift): incompressible, reproducible.
func sampleBytes(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
    var state = seed
    var out = [UInt8]()
    out.reserveCapacity(count)
    for _ in 0..<count {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        out.append(UInt8(truncatingIfNeeded: state))
    }
    return out
}

/// Sends `bytes` as a peer would: chunks of at most 256 KiB from `partialLength`.
func receive(_ bytes: [UInt8], as id: BlobID, into store: BlobStore, stopAfter chunkLimit: Int = .max) throws -> Bool {
    var sent = 0
    var offset = Int(store.partialLength(id))
    while sent < chunkLimit {
        let end = min(offset + BlobStore.maxChunkBytes, bytes.count)
        let done = try store.append(
            id, offset: Int64(offset), bytes: Array(bytes[offset..<end]), last: end == bytes.count)
        if done { return true }
        offset = end
        sent += 1
    }
    return false
}

/// The id a blob of `bytes` must have: their BLAKE2b-256.
func blobID(of bytes: [UInt8]) throws -> BlobID {
    try #require(BlobID(bytes: Blake2b.hash256(bytes)))
}
