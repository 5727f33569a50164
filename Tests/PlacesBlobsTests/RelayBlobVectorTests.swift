import Foundation
import PlacesBlobs
import PlacesCrypto
import PlacesModel
import Testing

/// `Protocol/vectors/relay/relay-blob-vectors.json`, written by the independent Python
/// reference (`Protocol/relay.md` §8, its own XChaCha20 over HChaCha20): the Swift code names a
/// photo's copy the same, encrypts it to the same bytes, and encrypts or decrypts any chunk on
/// its own to the same bytes as the whole.
@Suite("Relay blob vectors")
struct RelayBlobVectorTests {
    struct File: Decodable { var vectors: [Vector] }
    struct Vector: Decodable {
        var label, photo, doc, photoID, name, copy, chunk: String
        var offset, length: Int
    }

    static let vectors: [Vector] = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Protocol/vectors/relay/relay-blob-vectors.json")
        do { return try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).vectors } catch {
            fatalError("cannot read \(url.path): \(error)")
        }
    }()

    static func bytes(_ hex: String) throws -> [UInt8] { try #require(HexCoding.decode(hex)) }

    @Test("names, copies and chunks equal the reference's")
    func vectors() throws {
        #expect(Self.vectors.count == 3)
        for v in Self.vectors {
            let photo = try Self.bytes(v.photo)
            let id = try #require(BlobID(bytes: Blake2b.hash256(photo)))
            #expect(id.hex == v.photoID, "\(v.label)")
            let copy = try #require(RelayBlob(photo: id, doc: try Self.bytes(v.doc)))
            #expect(HexCoding.encode(copy.name) == v.name, "\(v.label)")
            let whole = try copy.crypt(photo, at: 0)
            #expect(HexCoding.encode(whole) == v.copy, "\(v.label)")
            #expect(try copy.crypt(whole, at: 0) == photo, "\(v.label)")
            let chunk = try copy.crypt(Array(photo[v.offset..<(v.offset + v.length)]), at: UInt64(v.offset))
            #expect(HexCoding.encode(chunk) == v.chunk, "\(v.label)")
        }
    }

    @Test("a 600 KiB photo encrypted in 256 KiB chunks, and at odd offsets, equals the whole")
    func chunks() throws {
        let photo = (0..<614_400).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let id = try #require(BlobID(bytes: Blake2b.hash256(photo)))
        let copy = try #require(RelayBlob(photo: id, doc: [UInt8](repeating: 9, count: 16)))
        let whole = try copy.crypt(photo, at: 0)
        #expect(whole != photo)
        for step in [262_144, 1_000, 77] {
            var parts = [UInt8]()
            var offset = 0
            while offset < photo.count {
                let end = min(photo.count, offset + step)
                parts += try copy.crypt(Array(photo[offset..<end]), at: UInt64(offset))
                offset = end
            }
            #expect(parts == whole, "step \(step)")
        }
        // Another document: another name and other bytes.
        let other = try #require(RelayBlob(photo: id, doc: [UInt8](repeating: 8, count: 16)))
        #expect(other.name != copy.name)
        #expect(try other.crypt(photo, at: 0) != whole)
        #expect(RelayBlob(photo: id, doc: [1, 2, 3]) == nil)
    }
}
