import Foundation
import PlacesAccess
import PlacesCrypto

/// A pairing message between a new device and the admin device that issued its code
/// (`Protocol/devices.md` §5; `PairRequest`, `PairRefused`, `PairAccepted` in sync.proto), in
/// domain types: what crosses `ReplicationHost`.
public enum PairingMessage: Sendable, Equatable {
    /// The joiner's proof that it holds the code's secret, bound to this session.
    case request(proof: [UInt8], name: String)
    /// The issuer took the request: the user compares the check codes now.
    case waiting
    /// The issuer refused (`code`: `unknown-code`, `used`, `expired`, `wrong-check-code`,
    /// `cancelled`, `not-admin`).
    case refused(code: String, reason: String)
    /// The issuer confirmed: the new device's certificate, the person's name, and for an
    /// admin the person's secret key sealed to the device key.
    case accepted(certificate: [UInt8], personName: String, sealedPersonKey: [UInt8])

    /// Bytes of a proof; most bytes of a name, a code, a reason, a person's name.
    static let proofBytes = 32
    static let maxNameBytes = 256
    static let maxCodeBytes = 32
    static let maxReasonBytes = 500
    static let sealedKeyBytes = 112

    /// The message a peer sent, nil when it breaks the bounds of `devices.md` §7.
    init?(_ message: SyncMessage) {
        switch message.kind {
        case .pairRequest(let request):
            guard request.proof.count == Self.proofBytes, request.name.utf8.count <= Self.maxNameBytes else {
                return nil
            }
            self = .request(proof: [UInt8](request.proof), name: request.name)
        case .pairWaiting: self = .waiting
        case .pairRefused(let refused):
            guard refused.code.utf8.count <= Self.maxCodeBytes, refused.reason.utf8.count <= Self.maxReasonBytes else {
                return nil
            }
            self = .refused(code: refused.code, reason: refused.reason)
        case .pairAccepted(let accepted):
            guard accepted.cert.count == DeviceCertificate.size, accepted.personName.utf8.count <= 100,
                accepted.sealedPersonKey.isEmpty || accepted.sealedPersonKey.count == Self.sealedKeyBytes
            else { return nil }
            self = .accepted(
                certificate: [UInt8](accepted.cert), personName: accepted.personName,
                sealedPersonKey: [UInt8](accepted.sealedPersonKey))
        default: return nil
        }
    }

    /// The wire message.
    var wire: SyncMessage {
        var out = SyncMessage()
        switch self {
        case .request(let proof, let name):
            out.pairRequest.proof = Data(proof)
            out.pairRequest.name = name
        case .waiting: out.pairWaiting = Places_Sync_V1_PairWaiting()
        case .refused(let code, let reason):
            out.pairRefused.code = code
            out.pairRefused.reason = reason
        case .accepted(let certificate, let personName, let sealedPersonKey):
            out.pairAccepted.cert = Data(certificate)
            out.pairAccepted.personName = personName
            out.pairAccepted.sealedPersonKey = Data(sealedPersonKey)
        }
        return out
    }
}

/// What a peer's `Hello` and handshake say of its device (`Protocol/devices.md` §6): its
/// certificate when valid and for the session's key, the valid revocations it carried, and
/// the session's handshake hash (pairing proofs are bound to it).
public struct PeerDevice: Sendable {
    public var certificate: DeviceCertificate?
    /// The `Hello` carried a certificate that fails (§2) or is for another key: the session
    /// is to be closed (`bad-certificate`).
    public var badCertificate: Bool
    public var revocations: [DeviceRevocation]
    public var handshakeHash: [UInt8]

    public init(
        certificate: DeviceCertificate?, badCertificate: Bool = false, revocations: [DeviceRevocation],
        handshakeHash: [UInt8]
    ) {
        self.certificate = certificate
        self.badCertificate = badCertificate
        self.revocations = revocations
        self.handshakeHash = handshakeHash
    }
}
