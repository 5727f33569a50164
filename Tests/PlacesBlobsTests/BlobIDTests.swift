import PlacesBlobs
import PlacesCrypto
import Testing

@Suite struct BlobIDTests {
    @Test func hexRoundTripsAndIsTheOnlyName() throws {
        let id = try blobID(of: Array("a photo".utf8))
        #expect(id.hex.count == 64)
        #expect(BlobID(hex: id.hex) == id)
        #expect(id.description == id.hex)
        // One name per blob: uppercase, short, long and non-hex names are refused.
        #expect(BlobID(hex: id.hex.uppercased()) == nil)
        #expect(BlobID(hex: String(id.hex.dropLast())) == nil)
        #expect(BlobID(hex: id.hex + "0") == nil)
        #expect(BlobID(hex: String(repeating: "g", count: 64)) == nil)
        #expect(BlobID(bytes: [UInt8](repeating: 1, count: 31)) == nil)
    }

    @Test func orderIsByBytes() throws {
        let low = try #require(BlobID(hex: String(repeating: "0", count: 63) + "1"))
        let high = try #require(BlobID(hex: "1" + String(repeating: "0", count: 63)))
        #expect(low < high)
        #expect([high, low].sorted() == [low, high])
    }
}

@Suite struct Blake2bStreamTests {
    @Test func hashingInPiecesEqualsHashingAtOnce() throws {
        let bytes = sampleBytes(300_001)
        let stream = try Blake2bStream()
        try stream.update(Array(bytes[0..<1]))
        try stream.update(bytes[1..<200_000])
        try stream.update(Array(bytes[200_000...]))
        #expect(try stream.finalize() == Blake2b.hash256(bytes))
        #expect(throws: CryptoError.self) { try stream.finalize() }
    }
}
