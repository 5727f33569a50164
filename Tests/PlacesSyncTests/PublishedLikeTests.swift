import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync

/// A like of a published trip is its liker's signature over the trip, the liker, like or
/// unlike, and the time (`Protocol/sync.md` §7.5): nothing else verifies.
@Suite struct PublishedLikeTests {
    let doc = DocumentID(bytes: Array(0..<16))!

    func like(_ by: SigningKeyPair, liked: Bool = true, at: String = "2027-05-01T10:00:00.000Z") -> PublishedLike {
        let signature = by.sign(PublishedLike.message(doc: doc, liker: by.publicKey.bytes, liked: liked, at: at))
        return PublishedLike(doc: doc, liked: liked, at: at, signature: signature.bytes)
    }

    @Test func theLikersSignatureVerifiesAndNoOneElses() throws {
        let ana = try SigningKeyPair(), eve = try SigningKeyPair()
        let liked = like(ana)
        #expect(liked.isSigned(by: ana.publicKey.bytes))
        #expect(!liked.isSigned(by: eve.publicKey.bytes))
        // The same signature as an unlike, at another time or for another trip does not hold.
        var flipped = liked
        flipped.liked = false
        #expect(!flipped.isSigned(by: ana.publicKey.bytes))
        var later = liked
        later.at = "2027-05-01T10:00:01.000Z"
        #expect(!later.isSigned(by: ana.publicKey.bytes))
        var other = liked
        other.doc = DocumentID(bytes: Array(repeating: 7, count: 16))!
        #expect(!other.isSigned(by: ana.publicKey.bytes))
        // Malformed signatures and keys are refused, not trapped on.
        var short = liked
        short.signature = Array(liked.signature.prefix(10))
        #expect(!short.isSigned(by: ana.publicKey.bytes))
        #expect(!liked.isSigned(by: [1, 2, 3]))
    }

    @Test func theSignedBytesAreTheProtocols() throws {
        let liker = [UInt8](repeating: 0xAB, count: 32)
        let bytes = PublishedLike.message(doc: doc, liker: liker, liked: false, at: "2027-05-01T10:00:00.000Z")
        let expected =
            Array("places/trip-like/1".utf8) + [0] + Array("000102030405060708090a0b0c0d0e0f".utf8) + [0]
            + Array(String(repeating: "ab", count: 32).utf8) + [0] + Array("unlike".utf8) + [0]
            + Array("2027-05-01T10:00:00.000Z".utf8)
        #expect(bytes == expected)
    }
}
