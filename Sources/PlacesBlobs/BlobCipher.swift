import PlacesCrypto

/// The encryption of one blob's file: its plaintext cut into frames of `plaintextBytes`
/// (the last one shorter, possibly empty), each sealed on its own with XChaCha20-Poly1305 as
/// nonce(24) ‖ ciphertext ‖ tag(16), so a read at any offset decrypts only the frames it
/// covers.
///
/// The key is the keyed BLAKE2b-256 of "places/blob/1" ‖ 0x00 ‖ blob id under the store's
/// secret: one key per blob, nothing stored per blob. The associated data binds each frame
/// to its blob, its index and whether it is the last one, so frames cannot be reordered,
/// swapped between blobs, or cut off at a frame boundary without the read failing.
///
/// Nonces are random, not derived from the frame index: a partial download's last frame is
/// sealed again each time it grows, and a derived nonce would then be reused with other
/// plaintext under the same key.
struct BlobCipher {
    /// Plaintext bytes per frame: a 256 KiB chunk touches at most five frames.
    static let plaintextBytes = 64 * 1024
    /// Nonce and tag around each frame.
    static let overheadBytes = SecretBox.nonceBytes + SecretBox.tagBytes
    /// The on-disk size of a full frame.
    static let sealedBytes = plaintextBytes + overheadBytes

    private static let context = Array("places/blob/1".utf8)

    let id: BlobID
    private let key: [UInt8]

    init(secret: [UInt8], id: BlobID) throws(BlobError) {
        guard let key = Blake2b.mac256(key: secret, BlobCipher.context + [0] + id.bytes) else {
            throw BlobError(.corrupt, "the blob store's key has the wrong length; restore DATA_DIR/blobs/.key")
        }
        self.id = id
        self.key = key
    }

    /// Seals frame `index` of the blob.
    func seal(_ plaintext: ArraySlice<UInt8>, index: Int64, last: Bool) throws(BlobError) -> [UInt8] {
        do {
            return try SecretBox.seal(Array(plaintext), key: key, associatedData: associatedData(index, last))
        } catch {
            throw BlobError(.io, "a photo could not be encrypted", cause: error.description)
        }
    }

    /// Opens frame `index`; `.corrupt` when it was altered, moved or cut off.
    func open(_ sealed: [UInt8], index: Int64, last: Bool) throws(BlobError) -> [UInt8] {
        do {
            return try SecretBox.open(sealed, key: key, associatedData: associatedData(index, last))
        } catch {
            throw BlobError(
                .corrupt, "the stored photo \(id.hex) was altered or truncated; fetch it again from a peer",
                cause: error.description)
        }
    }

    private func associatedData(_ index: Int64, _ last: Bool) -> [UInt8] {
        var ad = BlobCipher.context + id.bytes
        // `bitPattern:` reinterprets the bits: it cannot trap.
        withUnsafeBytes(of: UInt64(bitPattern: index).littleEndian) { ad += $0 }
        ad.append(last ? 1 : 0)
        return ad
    }
}

/// Where the frames of a blob file lie, from lengths alone. Every frame but the last is
/// full, so frame `i` starts at `i * BlobCipher.sealedBytes`.
enum FrameLayout {
    /// The on-disk length of `plaintextLength` bytes in frames. A stored blob always has a
    /// last frame (an empty blob is one empty frame); a partial download has none until its
    /// first byte.
    static func sealedLength(plaintext plaintextLength: Int64, stored: Bool) -> Int64 {
        let frames = frameCount(plaintext: plaintextLength, stored: stored)
        return plaintextLength + frames * Int64(BlobCipher.overheadBytes)
    }

    /// The number of frames holding `plaintextLength` bytes.
    static func frameCount(plaintext plaintextLength: Int64, stored: Bool) -> Int64 {
        let full = Int64(BlobCipher.plaintextBytes)
        let frames = plaintextLength / full + (plaintextLength % full == 0 ? 0 : 1)
        return stored ? max(frames, 1) : frames
    }

    /// The plaintext length of a stored blob file of `sealedLength` bytes; nil when no
    /// sequence of frames has that length (the file was cut mid-frame).
    static func plaintextLength(sealed sealedLength: Int64) -> Int64? {
        let sealedFull = Int64(BlobCipher.sealedBytes)
        let overhead = Int64(BlobCipher.overheadBytes)
        guard sealedLength >= overhead else { return nil }
        let frames = sealedLength / sealedFull + (sealedLength % sealedFull == 0 ? 0 : 1)
        let tail = sealedLength - (frames - 1) * sealedFull
        // Only the single frame of an empty blob may be empty.
        guard tail > overhead || (frames == 1 && tail == overhead) else { return nil }
        return sealedLength - frames * overhead
    }

    /// The plaintext length of a partial download of `sealedLength` bytes; nil when no
    /// sequence of non-empty frames has that length.
    static func partialPlaintextLength(sealed sealedLength: Int64) -> Int64? {
        guard sealedLength > 0 else { return sealedLength == 0 ? 0 : nil }
        guard let length = plaintextLength(sealed: sealedLength), length > 0 else { return nil }
        return length
    }
}
