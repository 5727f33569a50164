import CSodium

/// A Noise hash function (Noise spec section 4.3): `HASH`, with `HASHLEN` and `BLOCKLEN`.
///
/// `HMAC` and `HKDF` are built on top of it generically, so adding a hash is one small type.
/// Places uses `NoiseBLAKE2b`; the others exist so the public SHA-2 test vectors check
/// the shared code paths.
protocol NoiseHashFunction: Sendable {
    /// The name as it appears in a Noise protocol name, e.g. `BLAKE2b`.
    var name: String { get }
    /// `HASHLEN`: the output length in bytes.
    var hashLength: Int { get }
    /// `BLOCKLEN`: the internal block length in bytes, used by HMAC.
    var blockLength: Int { get }
    /// `HASH(data)`.
    func hash(_ data: [UInt8]) -> [UInt8]
}

/// BLAKE2b with 64-byte output (unkeyed), via `crypto_generichash_blake2b`.
struct NoiseBLAKE2b: NoiseHashFunction {
    var name: String { "BLAKE2b" }
    var hashLength: Int { 64 }
    var blockLength: Int { 128 }

    func hash(_ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 64)
        // 64 is within crypto_generichash_blake2b's [BYTES_MIN, BYTES_MAX] and there is no
        // key, so the call cannot fail.
        _ = crypto_generichash_blake2b(&out, 64, data, UInt64(data.count), nil, 0)
        return out
    }
}

/// SHA-256 via `crypto_hash_sha256`.
struct NoiseSHA256: NoiseHashFunction {
    var name: String { "SHA256" }
    var hashLength: Int { 32 }
    var blockLength: Int { 64 }

    func hash(_ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        _ = crypto_hash_sha256(&out, data, UInt64(data.count))
        return out
    }
}

/// SHA-512 via `crypto_hash_sha512`.
struct NoiseSHA512: NoiseHashFunction {
    var name: String { "SHA512" }
    var hashLength: Int { 64 }
    var blockLength: Int { 128 }

    func hash(_ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 64)
        _ = crypto_hash_sha512(&out, data, UInt64(data.count))
        return out
    }
}

extension NoiseHashFunction {
    /// `HMAC-HASH(key, data)` as in RFC 2104, which is what Noise specifies.
    func hmac(key: [UInt8], data: [UInt8]) -> [UInt8] {
        var blockKey = key.count > blockLength ? hash(key) : key
        blockKey += [UInt8](repeating: 0, count: blockLength - blockKey.count)
        var inner = blockKey.map { $0 ^ 0x36 } + data
        var outer = blockKey.map { $0 ^ 0x5c }
        var innerHash = hash(inner)
        outer += innerHash
        let result = hash(outer)
        noiseWipe(&blockKey)
        noiseWipe(&inner)
        noiseWipe(&outer)
        noiseWipe(&innerHash)
        return result
    }

    /// `HKDF(chaining_key, input_key_material, num_outputs)` from Noise spec section 4.3,
    /// returning two or three `HASHLEN`-byte outputs.
    func hkdf(chainingKey: [UInt8], inputKeyMaterial: [UInt8], outputs: Int) -> [[UInt8]] {
        precondition(outputs == 2 || outputs == 3, "Noise HKDF yields two or three outputs")
        var tempKey = hmac(key: chainingKey, data: inputKeyMaterial)
        let output1 = hmac(key: tempKey, data: [0x01])
        var input2 = output1 + [0x02]
        let output2 = hmac(key: tempKey, data: input2)
        var result = [output1, output2]
        if outputs == 3 {
            var input3 = output2 + [0x03]
            result.append(hmac(key: tempKey, data: input3))
            noiseWipe(&input3)
        }
        noiseWipe(&input2)
        noiseWipe(&tempKey)
        return result
    }
}
