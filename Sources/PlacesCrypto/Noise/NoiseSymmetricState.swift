/// Noise `SymmetricState` (spec section 5.2): the chaining key `ck`, the handshake hash `h`
/// and the `CipherState` used during the handshake.
struct NoiseSymmetricState: Sendable {
    let hashFunction: any NoiseHashFunction
    /// `ck`, secret.
    private var chainingKey: NoiseSecretBytes
    /// `h`, public: it commits to the whole transcript so far.
    private(set) var handshakeHash: [UInt8]
    private(set) var cipherState = NoiseCipherState()

    /// `InitializeSymmetric(protocol_name)`.
    init(protocolName: String, hashFunction: any NoiseHashFunction) {
        self.hashFunction = hashFunction
        let name = Array(protocolName.utf8)
        let h: [UInt8]
        if name.count <= hashFunction.hashLength {
            h = name + [UInt8](repeating: 0, count: hashFunction.hashLength - name.count)
        } else {
            h = hashFunction.hash(name)
        }
        handshakeHash = h
        chainingKey = NoiseSecretBytes(h)
    }

    /// `MixKey(input_key_material)`.
    mutating func mixKey(_ inputKeyMaterial: [UInt8]) {
        var currentChainingKey = chainingKey.bytes
        defer { noiseWipe(&currentChainingKey) }
        var outputs = hashFunction.hkdf(chainingKey: currentChainingKey, inputKeyMaterial: inputKeyMaterial, outputs: 2)
        chainingKey = NoiseSecretBytes(outputs[0])
        // Truncation to 32 bytes when HASHLEN is 64, as the spec requires.
        cipherState = NoiseCipherState(keyFromPrefixOf: outputs[1])
        for index in outputs.indices { noiseWipe(&outputs[index]) }
    }

    /// `MixHash(data)`.
    mutating func mixHash(_ data: [UInt8]) {
        handshakeHash = hashFunction.hash(handshakeHash + data)
    }

    /// `EncryptAndHash(plaintext)`.
    mutating func encryptAndHash(_ plaintext: [UInt8]) throws(CryptoError) -> [UInt8] {
        let ciphertext = try cipherState.encrypt(ad: handshakeHash, plaintext: plaintext)
        mixHash(ciphertext)
        return ciphertext
    }

    /// `DecryptAndHash(ciphertext)`.
    mutating func decryptAndHash(_ ciphertext: [UInt8]) throws(CryptoError) -> [UInt8] {
        let plaintext = try cipherState.decrypt(ad: handshakeHash, ciphertext: ciphertext)
        mixHash(ciphertext)
        return plaintext
    }

    /// `Split()`: the initiator-to-responder and responder-to-initiator cipher states.
    func split() -> (initiatorToResponder: NoiseCipherState, responderToInitiator: NoiseCipherState) {
        var currentChainingKey = chainingKey.bytes
        defer { noiseWipe(&currentChainingKey) }
        var outputs = hashFunction.hkdf(chainingKey: currentChainingKey, inputKeyMaterial: [], outputs: 2)
        let first = NoiseCipherState(keyFromPrefixOf: outputs[0])
        let second = NoiseCipherState(keyFromPrefixOf: outputs[1])
        for index in outputs.indices { noiseWipe(&outputs[index]) }
        return (first, second)
    }
}
