import Foundation
import PlacesBlobs
import PlacesCrypto
import Testing

@Suite struct BlobReceiveTests {
    @Test func aFiveMegabytePhotoArrivesInChunks() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open()
        let bytes = sampleBytes(5_000_000)
        let id = try blobID(of: bytes)
        #expect(try receive(bytes, as: id, into: store))
        #expect(store.contains(id))
        #expect(try store.readAll(id) == bytes)
        #expect(store.partialLength(id) == 0)
        #expect(store.usedBytes == 5_000_000)
        #expect(!dir.exists(TempDataDir.partialPath(id)))
    }

    @Test func aCutTransferResumesAfterARestart() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let bytes = sampleBytes(1_000_000)
        let id = try blobID(of: bytes)
        do {
            let store = try dir.open()
            #expect(try !receive(bytes, as: id, into: store, stopAfter: 2))
            #expect(store.partialLength(id) == 2 * Int64(BlobStore.maxChunkBytes))
        }
        let reopened = try dir.open()
        #expect(reopened.partialLength(id) == 2 * Int64(BlobStore.maxChunkBytes))
        #expect(reopened.usedBytes == 2 * Int64(BlobStore.maxChunkBytes))
        #expect(try receive(bytes, as: id, into: reopened))
        #expect(try reopened.readAll(id) == bytes)
    }

    @Test func aTornLastFrameIsCutBackAndRefetched() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let bytes = sampleBytes(400_000)
        let id = try blobID(of: bytes)
        // A chunk that is not a multiple of the 64 KiB frame leaves a short last frame.
        do {
            let store = try dir.open()
            try store.append(id, offset: 0, bytes: Array(bytes[0..<100_000]), last: false)
        }
        // A crash mid-write: the short frame is half on disk.
        let raw = try dir.rawFile(TempDataDir.partialPath(id))
        try dir.writeRawFile(TempDataDir.partialPath(id), Array(raw[0..<(raw.count - 10)]))
        let reopened = try dir.open()
        #expect(reopened.partialLength(id) == 64 * 1024)
        #expect(try receive(bytes, as: id, into: reopened))
        #expect(try reopened.readAll(id) == bytes)
    }

    @Test func aWrongOffsetIsRefusedAndChangesNothing() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open()
        let bytes = sampleBytes(300_000)
        let id = try blobID(of: bytes)
        try store.append(id, offset: 0, bytes: Array(bytes[0..<100_000]), last: false)
        let before = try dir.rawFile(TempDataDir.partialPath(id))
        for offset: Int64 in [0, 99_999, 100_001, 200_000] {
            let error = #expect(throws: BlobError.self) {
                try store.append(id, offset: offset, bytes: Array(bytes[100_000..<200_000]), last: false)
            }
            #expect(error?.code == .wrongOffset)
        }
        #expect(store.partialLength(id) == 100_000)
        #expect(store.usedBytes == 100_000)
        #expect(try dir.rawFile(TempDataDir.partialPath(id)) == before)
        #expect(try store.append(id, offset: 100_000, bytes: Array(bytes[100_000...]), last: true))
        #expect(try store.readAll(id) == bytes)
    }

    @Test(arguments: [Int64(-1), Int64.min, Int64.max, Int64.max - 100])
    func hostileChunkOffsetsAreRefused(offset: Int64) throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open()
        let bytes = sampleBytes(1_000)
        let id = try blobID(of: bytes)
        try store.append(id, offset: 0, bytes: Array(bytes[0..<500]), last: false)
        let error = #expect(throws: BlobError.self) {
            try store.append(id, offset: offset, bytes: Array(bytes[500...]), last: true)
        }
        #expect(error?.code == .wrongOffset)
        #expect(store.partialLength(id) == 500)
        #expect(!store.contains(id))
    }

    @Test func aHashMismatchDeletesThePartial() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open()
        let id = try blobID(of: sampleBytes(300_000, seed: 1))
        let forged = sampleBytes(300_000, seed: 2)
        try store.append(id, offset: 0, bytes: Array(forged[0..<200_000]), last: false)
        let error = #expect(throws: BlobError.self) {
            try store.append(id, offset: 200_000, bytes: Array(forged[200_000...]), last: true)
        }
        #expect(error?.code == .hashMismatch)
        #expect(!store.contains(id))
        #expect(store.partialLength(id) == 0)
        #expect(store.usedBytes == 0)
        #expect(!dir.exists(TempDataDir.partialPath(id)))
        #expect(!dir.exists(TempDataDir.storedPath(id)))
    }

    @Test func aHashMismatchIsCaughtAfterARestartToo() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let id = try blobID(of: sampleBytes(200_000, seed: 1))
        let forged = sampleBytes(200_000, seed: 2)
        try dir.open().append(id, offset: 0, bytes: Array(forged[0..<150_000]), last: false)
        let store = try dir.open()
        let error = #expect(throws: BlobError.self) {
            try store.append(id, offset: 150_000, bytes: Array(forged[150_000...]), last: true)
        }
        #expect(error?.code == .hashMismatch)
        #expect(store.partialLength(id) == 0)
    }

    @Test func aDownloadCannotGrowPastTheSizeCap() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open(maxBlobBytes: 300_000)
        let bytes = sampleBytes(400_000)
        let id = try blobID(of: bytes)
        try store.append(id, offset: 0, bytes: Array(bytes[0..<200_000]), last: false)
        let error = #expect(throws: BlobError.self) {
            try store.append(id, offset: 200_000, bytes: Array(bytes[200_000..<400_000]), last: true)
        }
        #expect(error?.code == .tooLarge)
        #expect(store.partialLength(id) == 200_000)
        // An announced size over the cap is refused before any byte is written.
        let other = try blobID(of: sampleBytes(10, seed: 9))
        let announced = #expect(throws: BlobError.self) {
            try store.append(other, offset: 0, bytes: [1, 2, 3], last: false, expectedSize: Int64.max)
        }
        #expect(announced?.code == .tooLarge)
        #expect(store.partialLength(other) == 0)
        // So is a chunk over 256 KiB.
        let big = #expect(throws: BlobError.self) {
            try store.append(other, offset: 0, bytes: sampleBytes(BlobStore.maxChunkBytes + 1), last: false)
        }
        #expect(big?.code == .tooLarge)
    }

    @Test func aDownloadCannotGrowPastTheQuota() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open(quotaBytes: 250_000)
        let bytes = sampleBytes(400_000)
        let id = try blobID(of: bytes)
        try store.append(id, offset: 0, bytes: Array(bytes[0..<200_000]), last: false)
        let error = #expect(throws: BlobError.self) {
            try store.append(id, offset: 200_000, bytes: Array(bytes[200_000..<400_000]), last: true)
        }
        #expect(error?.code == .quotaExceeded)
        #expect(store.partialLength(id) == 200_000)
        #expect(store.usedBytes == 200_000)
        // With the size announced, a download that cannot fit is refused at its first chunk.
        let other = sampleBytes(100_000, seed: 5)
        let early = #expect(throws: BlobError.self) {
            try store.append(
                blobID(of: other), offset: 0, bytes: Array(other[0..<1_000]), last: false, expectedSize: 100_000)
        }
        #expect(early?.code == .quotaExceeded)
        #expect(store.usedBytes == 200_000)
    }

    @Test func chunksForAStoredBlobAreIgnored() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open()
        let bytes = sampleBytes(1_000)
        let id = try store.put(bytes)
        #expect(try store.append(id, offset: 0, bytes: Array(bytes[0..<10]), last: false))
        #expect(store.partialLength(id) == 0)
        #expect(store.usedBytes == 1_000)
    }

    @Test func anEmptyBlobCanBeReceived() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open()
        let id = try blobID(of: [])
        #expect(try store.append(id, offset: 0, bytes: [], last: true))
        #expect(try store.readAll(id) == [])
        #expect(store.size(id) == 0)
    }

    @Test func aLocalPutEndsADownloadOfTheSamePhoto() throws {
        let dir = try TempDataDir()
        defer { dir.remove() }
        let store = try dir.open()
        let bytes = sampleBytes(300_000)
        let id = try blobID(of: bytes)
        try store.append(id, offset: 0, bytes: Array(bytes[0..<100_000]), last: false)
        try store.put(bytes)
        #expect(store.partialLength(id) == 0)
        #expect(store.usedBytes == 300_000)
        #expect(!dir.exists(TempDataDir.partialPath(id)))
    }
}
