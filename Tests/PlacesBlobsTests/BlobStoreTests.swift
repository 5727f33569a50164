import Foundation
import PlacesBlobs
import PlacesCrypto
import Testing

@Suite struct BlobStoreTests {
    /// Empty, small, exactly one 64 KiB frame, and several frames with a short last one.
    @Test(arguments: [0, 1_000, 64 * 1024, 3 * 64 * 1024 + 17])
    func putThenReadGivesTheSameBytes(count: Int) throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open()
        let bytes = sampleBytes(count)
        let id = try store.put(bytes)
        #expect(try store.readAll(id) == bytes)
        #expect(store.size(id) == Int64(count))
        #expect(store.contains(id))
        #expect(store.usedBytes == Int64(count))
        // And after reopening the store.
        let reopened = try dir.open()
        #expect(try reopened.readAll(id) == bytes)
        #expect(reopened.size(id) == Int64(count))
    }

    @Test func idIsTheBlake2bOfTheBytesAndPutIsIdempotent() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open()
        let bytes = sampleBytes(5_000)
        let id = try store.put(bytes)
        #expect(id.bytes == Blake2b.hash256(bytes))
        #expect(try store.put(bytes) == id)
        #expect(store.usedBytes == 5_000)
    }

    @Test func readingInChunksCrossesFramesAndEndsEmpty() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open()
        let bytes = sampleBytes(5 * 64 * 1024 + 123)
        let id = try store.put(bytes)
        var copy = [UInt8]()
        var offset: Int64 = 0
        while true {
            let chunk = try store.read(id, offset: offset, maxBytes: 100_000)
            if chunk.isEmpty { break }
            copy += chunk
            offset += Int64(chunk.count)
        }
        #expect(copy == bytes)
        #expect(try store.read(id, offset: 70_000, maxBytes: 10) == Array(bytes[70_000..<70_010]))
    }

    @Test func bytesOnDiskAreNotThePhoto() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open()
        let marker = Array("GPS 48.8584N 2.2945E Eiffel".utf8)
        let bytes = (0..<5_000).flatMap { _ in marker }
        let id = try store.put(bytes)
        let raw = try dir.rawFile(TempDataDir.storedPath(id))
        #expect(raw.count > bytes.count)
        #expect(!raw.contains(marker))
    }

    @Test func keyAndDirectoryArePrivate() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        _ = try dir.open()
        let fm = FileManager.default
        let keyMode = try fm.attributesOfItem(atPath: dir.blobs + "/.key")[.posixPermissions] as? Int
        let dirMode = try fm.attributesOfItem(atPath: dir.blobs)[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
        #expect(dirMode == 0o700)
        #expect(try dir.rawFile(".key").count == 32)
    }

    @Test func aBlobOverTheSizeCapIsRefused() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open(maxBlobBytes: 100_000)
        let error = #expect(throws: BlobError.self) { try store.put(sampleBytes(100_001)) }
        #expect(error?.code == .tooLarge)
        #expect(store.usedBytes == 0)
        #expect(try store.put(sampleBytes(100_000)) == blobID(of: sampleBytes(100_000)))
    }

    @Test func aBlobOverTheQuotaIsRefused() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open(quotaBytes: 150_000)
        let first = try store.put(sampleBytes(100_000, seed: 1))
        let error = #expect(throws: BlobError.self) { try store.put(sampleBytes(60_000, seed: 2)) }
        #expect(error?.code == .quotaExceeded)
        #expect(store.usedBytes == 100_000)
        // Freeing space lets it in.
        try store.collect(keeping: [])
        #expect(!store.contains(first))
        _ = try store.put(sampleBytes(60_000, seed: 2))
    }

    @Test func oneTamperedByteMakesTheReadFail() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open()
        let bytes = sampleBytes(3 * 64 * 1024)
        let id = try store.put(bytes)
        var raw = try dir.rawFile(TempDataDir.storedPath(id))
        raw[raw.count / 2] ^= 0x01
        try dir.writeRawFile(TempDataDir.storedPath(id), raw)
        let error = #expect(throws: BlobError.self) { try store.readAll(id) }
        #expect(error?.code == .corrupt)
        // Frames before the tampered one still read: only what is needed is decrypted.
        #expect(try store.read(id, offset: 0, maxBytes: 1_000) == Array(bytes[0..<1_000]))
    }

    @Test func aFileCutAtAFrameBoundaryIsDetected() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open()
        let id = try store.put(sampleBytes(3 * 64 * 1024 + 5))
        let raw = try dir.rawFile(TempDataDir.storedPath(id))
        let frame = 64 * 1024 + 40
        try dir.writeRawFile(TempDataDir.storedPath(id), Array(raw[0..<(2 * frame)]))
        let error = #expect(throws: BlobError.self) { try store.readAll(id) }
        #expect(error?.code == .corrupt)
    }

    @Test func collectRemovesUnreferencedBlobsAndFreesTheirSpace() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open()
        let kept = try store.put(sampleBytes(10_000, seed: 1))
        let dropped = try store.put(sampleBytes(20_000, seed: 2))
        let half = sampleBytes(300_000, seed: 3)
        let partial = try blobID(of: half)
        _ = try receive(half, as: partial, into: store, stopAfter: 1)
        #expect(store.usedBytes == 10_000 + 20_000 + Int64(BlobStore.maxChunkBytes))

        let result = try store.collect(keeping: [kept])
        #expect(result.removed == 2)
        #expect(result.freedBytes == 20_000 + Int64(BlobStore.maxChunkBytes))
        #expect(store.usedBytes == 10_000)
        #expect(!store.contains(dropped))
        #expect(!dir.exists(TempDataDir.storedPath(dropped)))
        #expect(!dir.exists(TempDataDir.partialPath(partial)))
        #expect(store.partialLength(partial) == 0)
        #expect(try store.readAll(kept) == sampleBytes(10_000, seed: 1))
        let error = #expect(throws: BlobError.self) { try store.readAll(dropped) }
        #expect(error?.code == .notFound)
        // The space stays freed after a restart.
        #expect(try dir.open().usedBytes == 10_000)
    }

    @Test(arguments: [Int64(-1), Int64.min, Int64.max, 1_001])
    func hostileReadOffsetsAreRefused(offset: Int64) throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open()
        let id = try store.put(sampleBytes(1_000))
        let error = #expect(throws: BlobError.self) { try store.read(id, offset: offset, maxBytes: 10) }
        #expect(error?.code == .wrongOffset)
        #expect(try store.read(id, offset: 1_000, maxBytes: 10).isEmpty)
        #expect(try store.read(id, offset: 990, maxBytes: Int.max) == Array(sampleBytes(1_000)[990...]))
    }

    @Test func concurrentPutsAllLand() async throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open()
        let ids = try await withThrowingTaskGroup(of: BlobID.self) { group in
            for seed in 1...8 {
                group.addTask { try store.put(sampleBytes(100_000, seed: UInt64(seed))) }
            }
            return try await group.reduce(into: Set<BlobID>()) { $0.insert($1) }
        }
        #expect(ids.count == 8)
        #expect(store.usedBytes == 800_000)
        for seed in 1...8 {
            #expect(try store.readAll(blobID(of: sampleBytes(100_000, seed: UInt64(seed)))).count == 100_000)
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs as a contiguous run.
    fileprivate func contains(_ needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

@Suite struct BlobKeyTests {
    @Test func aLostKeyIsReportedNotReplaced() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let id = try dir.open().put(sampleBytes(1_000))
        try FileManager.default.removeItem(atPath: dir.blobs + "/.key")
        // A new key would make every stored photo unreadable without saying why.
        let error = #expect(throws: BlobError.self) { try dir.open() }
        #expect(error?.code == .corrupt)
        #expect(!dir.exists(".key"))
        #expect(dir.exists(TempDataDir.storedPath(id)))
    }

    @Test func anotherStoresKeyCannotReadTheBlobs() throws {
        let first = try TempDataDir()
        let second = try TempDataDir()
        defer {
            first.remove()
            second.remove()
        }
        let id = try first.open().put(sampleBytes(1_000))
        _ = try second.open()
        try FileManager.default.createDirectory(
            atPath: second.blobs + "/" + String(id.hex.prefix(2)), withIntermediateDirectories: true)
        try second.writeRawFile(TempDataDir.storedPath(id), first.rawFile(TempDataDir.storedPath(id)))
        let error = #expect(throws: BlobError.self) { try second.open().readAll(id) }
        #expect(error?.code == .corrupt)
    }
}
