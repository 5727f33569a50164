import PlacesModel

/// How op bodies are bound to their headers when encrypted.
public enum OpCrypto {
    /// The associated data of an op's body encryption: the header's signed encoding with an
    /// empty ciphertext, so that a body cannot be moved under another header.
    public static func associatedData(_ header: OpHeader) -> [UInt8] {
        SignedOp.encodeSignedBytes(header: header, ciphertext: [])
    }
}
