import PlacesCrypto
import PlacesModel

/// A document key for one epoch, sealed to one member and signed by the owner
/// (`Protocol/sync.md`, KeyGrant). Any member may forward it; only the member can open it.
public struct KeyGrant: Sendable, Hashable {
    public var doc: DocumentID
    public var epoch: UInt32
    public var member: [UInt8]
    public var sealedKey: [UInt8]
    public var issuer: [UInt8]
    public var signature: [UInt8]
    /// When `issuer` is a device (`Protocol/devices.md` §4.3): its certificate. The grant then
    /// speaks for the certificate's person.
    public var issuerCert: DeviceCertificate?

    public init(
        doc: DocumentID, epoch: UInt32, member: [UInt8], sealedKey: [UInt8], issuer: [UInt8], signature: [UInt8],
        issuerCert: DeviceCertificate? = nil
    ) {
        self.doc = doc
        self.epoch = epoch
        self.member = member
        self.sealedKey = sealedKey
        self.issuer = issuer
        self.signature = signature
        self.issuerCert = issuerCert
    }

    /// Who the grant speaks for: the person of the issuing device's certificate, or the issuer.
    public var issuerPerson: [UInt8] { issuerCert?.person.bytes ?? issuer }

    /// The bytes the issuer signs.
    public static func signedBytes(doc: DocumentID, epoch: UInt32, member: [UInt8], sealedKey: [UInt8]) -> [UInt8] {
        var out = Array("places/keygrant/1".utf8) + [0]
        out += doc.bytes
        out += [UInt8(epoch >> 24 & 0xff), UInt8(epoch >> 16 & 0xff), UInt8(epoch >> 8 & 0xff), UInt8(epoch & 0xff)]
        out += member
        out += sealedKey
        return out
    }

    /// Seals `key` to `member` and signs the grant as `issuer` (a device, with its `certificate`).
    public static func issue(
        key: [UInt8], doc: DocumentID, epoch: UInt32, to member: PublicKey, by issuer: SigningKeyPair,
        certificate: DeviceCertificate? = nil
    ) throws(CryptoError) -> KeyGrant {
        let sealed = try SealedBox.seal(key, to: member)
        let signature = issuer.sign(signedBytes(doc: doc, epoch: epoch, member: member.bytes, sealedKey: sealed))
        return KeyGrant(
            doc: doc, epoch: epoch, member: member.bytes, sealedKey: sealed, issuer: issuer.publicKey.bytes,
            signature: signature.bytes, issuerCert: certificate)
    }

    /// Whether the signature is the issuer's, and a certificate it carries is the issuer's.
    public var isValid: Bool {
        guard let issuerKey = try? PublicKey(bytes: issuer), let sig = try? Signature(bytes: signature) else {
            return false
        }
        if let issuerCert, issuerCert.device != issuerKey { return false }
        return issuerKey.verify(
            sig, for: KeyGrant.signedBytes(doc: doc, epoch: epoch, member: member, sealedKey: sealedKey))
    }
}
