import Foundation
import PlacesAccess
import PlacesCrypto
import PlacesModel

/// A pairing this admin device issued (`Protocol/devices.md` §5): waiting for a device to
/// join with its code, then for the user to confirm the check code.
struct Pairing: Sendable {
    enum State: String, Sendable {
        case waiting, confirm, done, expired, cancelled
    }

    var id: String
    var secret: [UInt8]
    var code: String
    var expiresMs: Int64
    var state: State
    /// The name the joining device gave, its key and the check code of its session.
    var deviceName: String?
    var device: PublicKey?
    var checkCode: String?
    /// When the user asked for an admin device at `places device add`.
    var admin: Bool
}

/// This daemon joining a person as a new device (`places device join`): its fresh key, the
/// code, and how far it got.
struct JoiningDevice: Sendable {
    enum State: String, Sendable {
        /// Looking for the issuer (its hints, static peers, discovery).
        case connecting
        /// The issuer has the request; both sides show the check code.
        case pairing
        case paired
        case refused
    }

    var code: PairingCode
    var key: SigningKeyPair
    var name: String
    /// The passphrase its key file is sealed with (an admin device seals the person's key
    /// with it too); nil for an unsealed (headless) key file.
    var passphrase: String?
    var state: State = .connecting
    /// The check code, once the issuer said it has the request (shown only then).
    var checkCode: String?
    /// The check code of the session the request went on, before the issuer's answer.
    var pendingCheckCode: String?
    /// The issuer's device key and where it listens, once connected.
    var issuer: PublicKey?
    var issuerAddress: String?
    var refusal: String?
    /// The addresses dialled for the join (forgotten when it ends, unless they lead to a sibling).
    var dialled: [(host: String, port: Int)] = []
}

/// Devices (issue 29): the pairings this device issued, the join in progress when this daemon
/// is a new device, and what connected peers said of their devices. A component of the engine
/// (docs/devices-design.md §1): `Engine+Devices` and `Engine+Pairing` hold the rules.
struct DeviceComponent: EngineComponent {
    /// Pairings kept at once; a new one past it cancels the oldest (`devices.md` §7).
    static let maxPairings = 8

    private(set) var pairings: [Pairing] = []
    var joining: JoiningDevice?
    /// Connected peers' device certificates (valid, for the session's key, not revoked).
    private var certificates: [PublicKey: DeviceCertificate] = [:]
    /// The handshake hashes of each connected peer's sessions (pairing proofs bind to one).
    private var handshakes: [PublicKey: [[UInt8]]] = [:]
    /// When each peer device was last connected, ms since 1970 (`GET /v1/devices`' lastSeen).
    private(set) var lastSeen: [PublicKey: Int64] = [:]
    /// Grants this device issued to its siblings, by sibling, document and epoch: an offer
    /// carries the same grant every time (a fresh one, sealed anew, would be a new grant to
    /// the sibling, which offers the document back: an endless exchange).
    private var siblingGrants: [SiblingGrantKey: KeyGrant] = [:]
    static let maxSiblingGrants = 100_000

    struct SiblingGrantKey: Hashable {
        var sibling: PublicKey
        var doc: DocumentID
        var epoch: UInt32
    }

    /// Pairings and grants belong to the identity that made them.
    mutating func didChangeIdentity() {
        pairings.removeAll()
        siblingGrants.removeAll()
    }

    /// The grant of `doc`'s `epoch` key to `sibling` issued before, or the one `issue` makes.
    mutating func siblingGrant(
        to sibling: PublicKey, doc: DocumentID, epoch: UInt32, issue: () -> KeyGrant?
    ) -> KeyGrant? {
        let key = SiblingGrantKey(sibling: sibling, doc: doc, epoch: epoch)
        if let held = siblingGrants[key] { return held }
        guard let grant = issue() else { return nil }
        if siblingGrants.count >= Self.maxSiblingGrants { siblingGrants.removeAll() }
        siblingGrants[key] = grant
        return grant
    }

    // MARK: Peers

    mutating func peerConnected(
        _ peer: PublicKey, certificate: DeviceCertificate?, handshakeHash: [UInt8], nowMs: Int64
    ) {
        certificates[peer] = certificate
        if !handshakeHash.isEmpty { handshakes[peer, default: []].append(handshakeHash) }
        handshakes[peer] = handshakes[peer].map { Array($0.suffix(2)) }
        lastSeen[peer] = nowMs
    }

    mutating func peerDisconnected(_ peer: PublicKey, lastSession: Bool, nowMs: Int64) {
        lastSeen[peer] = nowMs
        guard lastSession else { return }
        certificates[peer] = nil
        handshakes[peer] = nil
    }

    /// The person a connected peer acts for: its certificate's, or itself.
    func person(of peer: PublicKey) -> PublicKey { certificates[peer]?.person ?? peer }

    /// The certificate a connected peer presented, if any.
    func certificate(of peer: PublicKey) -> DeviceCertificate? { certificates[peer] }

    /// Connected peers acting for one of `persons` (the persons themselves included).
    func devices(of persons: Set<PublicKey>) -> Set<PublicKey> {
        var out = persons
        for (device, certificate) in certificates where persons.contains(certificate.person) { out.insert(device) }
        return out
    }

    /// Forgets a revoked device's certificate (its sessions are being closed).
    mutating func revoked(_ device: PublicKey) { certificates[device] = nil }

    /// The handshake hashes of `peer`'s open sessions.
    func handshakeHashes(of peer: PublicKey) -> [[UInt8]] { handshakes[peer] ?? [] }

    // MARK: Pairings issued here

    /// Adds a pairing, cancelling the oldest past `maxPairings`; expired ones are marked.
    mutating func add(_ pairing: Pairing, nowMs: Int64) {
        expire(nowMs: nowMs)
        pairings.append(pairing)
        let open = pairings.filter { $0.state == .waiting || $0.state == .confirm }
        if open.count > Self.maxPairings, let oldest = open.first {
            update(oldest.id) { $0.state = .cancelled }
        }
        // Finished pairings are kept for listing, a few at most.
        if pairings.count > 4 * Self.maxPairings { pairings.removeFirst(pairings.count - 4 * Self.maxPairings) }
    }

    /// Marks pairings past their time as expired.
    mutating func expire(nowMs: Int64) {
        for i in pairings.indices
        where pairings[i].expiresMs <= nowMs
            && (pairings[i].state == .waiting || pairings[i].state == .confirm)
        {
            pairings[i].state = .expired
        }
    }

    func pairing(_ id: String) -> Pairing? { pairings.first { $0.id == id } }

    mutating func update(_ id: String, _ change: (inout Pairing) -> Void) {
        guard let i = pairings.firstIndex(where: { $0.id == id }) else { return }
        change(&pairings[i])
    }
}
