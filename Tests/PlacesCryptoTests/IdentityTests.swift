import Testing

@testable import PlacesCrypto

@Suite("Identity keys, ids and key files")
struct IdentityTests {
    @Test("a signature verifies, and fails for another message or key")
    func signVerify() throws {
        let pair = try SigningKeyPair()
        let sig = pair.sign(Array("hello".utf8))
        #expect(pair.publicKey.verify(sig, for: Array("hello".utf8)))
        #expect(!pair.publicKey.verify(sig, for: Array("hellO".utf8)))
        #expect(!(try SigningKeyPair()).publicKey.verify(sig, for: Array("hello".utf8)))
    }

    @Test("human ids round-trip and look like Syncthing ids")
    func humanIDRoundTrip() throws {
        for _ in 0..<50 {
            let key = try SigningKeyPair().publicKey
            let id = key.humanID
            #expect(id.count == 63)
            #expect(id.split(separator: "-").count == 8)
            #expect(try HumanID.decode(id) == key)
            #expect(try HumanID.decode(id.lowercased().replacingOccurrences(of: "-", with: " ")) == key)
            #expect(try HumanID.decode(key.hex) == key)
        }
    }

    @Test("every single-character typo in an id is rejected")
    func typosRejected() throws {
        let id = Array(try SigningKeyPair().publicKey.humanID)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var rejected = 0, total = 0
        for i in id.indices where id[i] != "-" {
            for c in alphabet where c != id[i] {
                var typo = id
                typo[i] = c
                total += 1
                if (try? HumanID.decode(String(typo))) == nil { rejected += 1 }
            }
        }
        #expect(rejected == total, "\(total - rejected) of \(total) typos were accepted")
        #expect(throws: CryptoError.self) { try HumanID.decode(String(id.dropLast())) }
        #expect(throws: CryptoError.self) { try HumanID.decode("not an id") }
    }

    @Test("a sealed key file opens with its passphrase only, and is bound to its public key")
    func sealedKeyFile() throws {
        let pair = try SigningKeyPair()
        let file = try KeyFile.sealed(pair, passphrase: "correct horse")
        #expect(file.isSealed)
        #expect(try file.open(passphrase: "correct horse").publicKey == pair.publicKey)
        #expect(throws: CryptoError(.wrongPassphrase, "the passphrase is wrong")) {
            try file.open(passphrase: "wrong horse")
        }
        #expect(throws: CryptoError.self) { try file.open(passphrase: nil) }
        var spliced = file
        spliced.publicKey = try SigningKeyPair().publicKey.hex
        #expect(throws: CryptoError.self) { try spliced.open(passphrase: "correct horse") }
        let plain = KeyFile.unsealed(pair)
        #expect(try plain.open(passphrase: nil).publicKey == pair.publicKey)
    }

    @Test("sealed boxes open only for their recipient; secret boxes only with their key and data")
    func boxes() throws {
        let alice = try SigningKeyPair(), bob = try SigningKeyPair()
        let sealed = try SealedBox.seal([1, 2, 3], to: alice.publicKey)
        #expect(try SealedBox.open(sealed, with: alice) == [1, 2, 3])
        #expect(throws: CryptoError.self) { try SealedBox.open(sealed, with: bob) }
        let key = try SecretBox.randomKey()
        let box = try SecretBox.seal([9, 9], key: key, associatedData: [1])
        #expect(try SecretBox.open(box, key: key, associatedData: [1]) == [9, 9])
        #expect(throws: CryptoError.self) { try SecretBox.open(box, key: key, associatedData: [2]) }
        var flipped = box
        flipped[flipped.count - 1] ^= 1
        #expect(throws: CryptoError.self) { try SecretBox.open(flipped, key: key, associatedData: [1]) }
    }

    @Test("nonces drawn together are distinct and each seals a box that opens; a short nonce is refused")
    func batchNonces() throws {
        let key = try SecretBox.randomKey()
        let nonces = SecureRandom.nonces(100)
        #expect(nonces.count == 100 && nonces.allSatisfy { $0.count == SecretBox.nonceBytes })
        #expect(Set(nonces.map(Array.init)).count == 100)
        let boxes = try nonces.map { try SecretBox.seal([7], key: key, nonce: $0) }
        #expect(boxes.map { Array($0.prefix(SecretBox.nonceBytes)) } == nonces.map(Array.init))
        #expect(try boxes.allSatisfy { try SecretBox.open($0, key: key) == [7] })
        #expect(throws: CryptoError.self) { try SecretBox.seal([7], key: key, nonce: nonces[0].prefix(12)) }
        #expect(SecureRandom.nonces(0).isEmpty)
    }
}
