import PlacesCrypto

/// A photo's copy at a blind relay (`Protocol/relay.md` §8): encrypted with a key only the
/// photo's readers can derive, and named so that the relay never learns the photo's id.
///
/// Both are derived from the photo's id (the BLAKE2b-256 of its bytes, which only readers of
/// the encrypted post or card that names it learn) and the document it is kept under, so
/// the copies of one photo under two documents share neither name nor bytes:
///
/// ```
/// name  = BLAKE2b-256("places/relay-blob-name/1" ‖ 0x00 ‖ doc (16) ‖ photo id (32))
/// key   = BLAKE2b-256(key = photo id, "places/relay-blob/1" ‖ 0x00 ‖ doc (16))
/// bytes = XChaCha20(key, nonce = 24 zero bytes) XOR the photo's bytes
/// ```
///
/// Each key encrypts exactly one plaintext (the photo's bytes), so the fixed nonce is never
/// reused with other bytes; the stream cipher lets any range be encrypted or decrypted on its
/// own (a chunk at any offset). There is no tag: the reader checks the photo's hash, as for a
/// photo from a friend.
public struct RelayBlob: Sendable, Hashable {
    /// The photo (its plaintext hash).
    public let photo: BlobID
    /// The document the copy is kept under.
    public let doc: [UInt8]
    /// What the relay calls it.
    public let name: [UInt8]
    private let key: [UInt8]

    static let nameContext = Array("places/relay-blob-name/1".utf8) + [0]
    static let keyContext = Array("places/relay-blob/1".utf8) + [0]
    static let nonce = [UInt8](repeating: 0, count: XChaCha20.nonceBytes)

    /// The copy of `photo` under the 16-byte document id `doc`; nil for a `doc` of another length.
    public init?(photo: BlobID, doc: [UInt8]) {
        guard doc.count == 16, let key = Blake2b.mac256(key: photo.bytes, Self.keyContext + doc) else { return nil }
        self.photo = photo
        self.doc = doc
        self.name = Blake2b.hash256(Self.nameContext + doc + photo.bytes)
        self.key = key
    }

    /// The relay's bytes of the photo's bytes `plaintext` from `offset`, or back: the same.
    public func crypt(_ bytes: [UInt8], at offset: UInt64) throws(BlobError) -> [UInt8] {
        do { return try XChaCha20.xor(bytes, at: offset, key: key, nonce: Self.nonce) } catch {
            throw BlobError(.io, "a photo's relay copy could not be encrypted", cause: error.description)
        }
    }
}
