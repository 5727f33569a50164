import PlacesCrypto
import Testing

/// The verifier the store's ingest uses: libsodium's answers, a table for the keys that sign
/// most, and bounds on what made-up keys can make it hold.
@Suite("Signature verifier")
struct SignatureVerifierTests {
    @Test("a key gets a table after three verified signatures, and every answer is libsodium's before and after")
    func tableAfterThree() throws {
        let verifier = SignatureVerifier()
        let key = try SigningKeyPair()
        for i in 0..<8 {
            let message = Array("op \(i)".utf8)
            let signature = key.sign(message)
            var forged = signature.bytes
            forged[40] ^= 0x01
            let bad = try Signature(bytes: forged)
            #expect(verifier.verify(signature, by: key.publicKey, for: message))
            #expect(!verifier.verify(bad, by: key.publicKey, for: message))
            #expect(!verifier.verify(signature, by: key.publicKey, for: message + [0]))
            #expect(verifier.hasTable(for: key.publicKey) == (i >= SignatureVerifier.verifiedBeforeTable - 1))
        }
    }

    @Test("signatures that fail never earn a key a table")
    func failuresDoNotCount() throws {
        let verifier = SignatureVerifier()
        let key = try SigningKeyPair()
        let other = try SigningKeyPair()
        for i in 0..<20 {
            let message = Array("op \(i)".utf8)
            #expect(!verifier.verify(other.sign(message), by: key.publicKey, for: message))
        }
        #expect(!verifier.hasTable(for: key.publicKey))
        #expect(verifier.tableCount == 0)
    }

    @Test("at most maxTables keys have a table; the least recently used one gives way")
    func boundedTables() throws {
        let verifier = SignatureVerifier()
        var keys = [SigningKeyPair]()
        for _ in 0..<(SignatureVerifier.maxTables + 5) {
            let key = try SigningKeyPair()
            keys.append(key)
            for i in 0..<SignatureVerifier.verifiedBeforeTable {
                let message = Array("op \(i)".utf8)
                #expect(verifier.verify(key.sign(message), by: key.publicKey, for: message))
            }
            // The first key stays in use: it is never the least recently used.
            let first = Array("first".utf8)
            #expect(verifier.verify(keys[0].sign(first), by: keys[0].publicKey, for: first))
        }
        #expect(verifier.tableCount == SignatureVerifier.maxTables)
        #expect(verifier.hasTable(for: keys[0].publicKey))
        #expect(!verifier.hasTable(for: keys[1].publicKey))
        #expect(verifier.hasTable(for: keys[keys.count - 1].publicKey))
    }
}
