import PlacesCrypto
import PlacesModel

/// The proof a holder gives a joiner that it holds a document (`Protocol/sync.md` §8.2,
/// `capabilities.md` §4.1): a BLAKE2b-256 MAC keyed with the document key of the token's
/// epoch over the exchange, so that only a daemon that already holds that key can answer a
/// join, and a joiner accepts an itinerary (or a refusal) from nobody else.
///
/// ```
/// proof = BLAKE2b-256(key = doc_key[token.epoch],
///     "places/join-proof/1" ‖ 0x00 ‖ verdict ‖ doc ‖ token_id ‖ nonce ‖ joiner ‖ holder ‖ owner)
/// ```
/// `verdict` is 0x01 for an admission (a `DocOffer`) and 0x02 for a `JoinRefused`, whose
/// `owner` is 32 zero bytes.
public enum JoinProof {
    public enum Verdict: UInt8, Sendable {
        case admit = 1
        case refuse = 2
    }

    /// Bytes of a join nonce and of a proof.
    public static let nonceBytes = 32
    public static let proofBytes = 32

    /// The proof, or nil when `key` is not a 32-byte key or a part has the wrong length.
    public static func make(
        _ verdict: Verdict, key: [UInt8], doc: DocumentID, tokenID: [UInt8], nonce: [UInt8], joiner: PublicKey,
        holder: PublicKey, owner: [UInt8]?
    ) -> [UInt8]? {
        let owner = owner ?? [UInt8](repeating: 0, count: 32)
        guard key.count == 32, tokenID.count == 16, nonce.count == nonceBytes, owner.count == 32 else { return nil }
        var message = Array("places/join-proof/1".utf8) + [0, verdict.rawValue]
        message += doc.bytes
        message += tokenID
        message += nonce
        message += joiner.bytes
        message += holder.bytes
        message += owner
        return Blake2b.mac256(key: key, message)
    }

    /// Whether `proof` is the proof for these parts.
    public static func verify(
        _ proof: [UInt8], _ verdict: Verdict, key: [UInt8], doc: DocumentID, tokenID: [UInt8], nonce: [UInt8],
        joiner: PublicKey, holder: PublicKey, owner: [UInt8]?
    ) -> Bool {
        guard proof.count == proofBytes,
            let expected = make(
                verdict, key: key, doc: doc, tokenID: tokenID, nonce: nonce, joiner: joiner, holder: holder,
                owner: owner)
        else { return false }
        return Blake2b.constantTimeEqual(proof, expected)
    }
}

extension CapabilityToken {
    /// The token as a joiner presents it to peers: every field but the document key, which
    /// is replaced by 32 zero bytes (`capabilities.md` §4.1). A holder puts its own key of the
    /// token's epoch back with ``withDocumentKey(_:)`` to check the signature.
    public var redacted: CapabilityToken {
        var copy = self
        copy.documentKey = [UInt8](repeating: 0, count: 32)
        return copy
    }

    /// The token with `key` as its document key.
    public func withDocumentKey(_ key: [UInt8]) -> CapabilityToken {
        var copy = self
        copy.documentKey = key
        return copy
    }
}
