import Foundation
import PlacesAccess
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync

/// A key grant issued by a device carries the device's certificate (`Protocol/devices.md`
/// §4.3): it speaks for the certificate's person only when the certificate is for the very key
/// that signed, and a grant whose `issuer_cert` is not a certificate is dropped at decode.
@Suite("Key grants issued by a device")
struct DeviceGrantTests {
    let person: SigningKeyPair
    let device: SigningKeyPair
    let member: SigningKeyPair
    let doc = DocumentID(bytes: [UInt8](repeating: 3, count: 16))!
    let cert: DeviceCertificate

    init() throws {
        person = try SigningKeyPair()
        device = try SigningKeyPair()
        member = try SigningKeyPair()
        cert = try DeviceCertificate.issue(device: device.publicKey, admin: false, issuedMs: 1_000, by: person)
    }

    @Test("a device's grant with its certificate speaks for its person and survives the wire")
    func certifiedGrant() throws {
        let grant = try KeyGrant.issue(
            key: SecretBox.randomKey(), doc: doc, epoch: 2, to: member.publicKey, by: device, certificate: cert)
        #expect(grant.isValid && grant.issuerPerson == person.publicKey.bytes)
        let back = try #require(Replicator.grant(Replicator.wire(grant)))
        #expect(back == grant && back.issuerPerson == person.publicKey.bytes)
        // Without a certificate the grant speaks for its signer alone.
        let plain = try KeyGrant.issue(key: SecretBox.randomKey(), doc: doc, epoch: 2, to: member.publicKey, by: device)
        #expect(plain.isValid && plain.issuerPerson == device.publicKey.bytes)
    }

    @Test("a certificate for another key, or bytes that are no certificate, do not make a grant count")
    func refusedCertificates() throws {
        // Signed by another key than the certificate's device: not valid.
        let other = try SigningKeyPair()
        var stolen = try KeyGrant.issue(
            key: SecretBox.randomKey(), doc: doc, epoch: 1, to: member.publicKey, by: other, certificate: cert)
        #expect(!stolen.isValid)
        stolen.issuerCert = nil
        #expect(stolen.isValid && stolen.issuerPerson == other.publicKey.bytes)
        // An issuer_cert that is not a certificate (flipped signature byte, truncated): dropped.
        var wire = Replicator.wire(
            try KeyGrant.issue(
                key: SecretBox.randomKey(), doc: doc, epoch: 1, to: member.publicKey, by: device, certificate: cert))
        var bytes = [UInt8](wire.issuerCert)
        bytes[bytes.count - 1] ^= 0x01
        wire.issuerCert = Data(bytes)
        #expect(Replicator.grant(wire) == nil)
        wire.issuerCert = Data(bytes.prefix(100))
        #expect(Replicator.grant(wire) == nil)
    }
}
