import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Issue 29 under attack: a peer on the same café Wi-Fi (`AdversarialPeer`, speaking the real
/// handshake and sync protocol) against real daemons, with forged device certificates and
/// revocations in its `Hello`, pairing messages out of turn, and replayed proofs
/// (`Protocol/devices.md` §5–§7). Each test asserts what a user would notice.
enum DeviceAttack {
    /// A daemon's `Hello` with device records.
    static func hello(cert: [UInt8] = [], revocations: [[UInt8]] = []) -> Places_Sync_V1_Hello {
        var hello = AdversarialPeer.hello()
        hello.features = AdversarialPeer.features
        hello.deviceCert = Data(cert)
        hello.deviceRevocations = revocations.map { Data($0) }
        return hello
    }

    /// The documents of `owner` offered in `messages`.
    static func offered(_ messages: [WireMessage], ownedBy owner: PublicKey) -> [Data] {
        messages.compactMap { message in
            guard case .offer(let offer)? = message.kind, offer.owner == Data(owner.bytes) else { return nil }
            return offer.doc
        }
    }

    /// A pairing message on the wire.
    static func pairing(_ message: PairingMessage) -> WireMessage { message.wire }

    /// The pairing answers in `messages`.
    static func pairingAnswers(_ messages: [WireMessage]) -> [PairingMessage] {
        messages.compactMap { PairingMessage($0) }
    }

    /// A node with something in its library (what only its own devices may hold).
    static func ana() throws -> (node: SyncNode, person: SigningKeyPair) {
        let node = try SyncNode("Ana")
        _ = try node.d.call(
            Place.self, "POST", "/v1/places", json: #"{"name":"Time Out Market","latitude":38.707,"longitude":-9.146}"#)
        return (node, try KeyFileTest.identity(node.dir.path))
    }
}

/// A value handed to a detached task (the test's daemon handle, its answer).
struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

@Suite("Hostile peers against devices (issue 29)", .serialized)
struct HostileDevicePeerTests {
    // MARK: 1. Certificates in Hello

    @Test(
        "a Hello with Ana's certificate of another key, garbage or a bad signature gets nothing of hers and is closed")
    func forgedCertificates() async throws {
        let (ana, person) = try DeviceAttack.ana()
        let phone = try SigningKeyPair()
        let phoneCert = try DeviceCertificate.issue(
            device: phone.publicKey, admin: true, issuedMs: nowMs(), by: person)
        // Control: the phone itself, with its certificate, is Ana's: offered her library.
        let sibling = try AdversarialPeer(identity: phone).connect(
            to: ana.address, hello: DeviceAttack.hello(cert: phoneCert.encoded))
        #expect(!DeviceAttack.offered(try sibling.drain(for: 2), ownedBy: person.publicKey).isEmpty)
        sibling.close()

        var badSignature = phoneCert.encoded
        badSignature[badSignature.count - 1] ^= 0x01
        let cases: [(String, [UInt8])] = [
            ("Ana's certificate of another key", phoneCert.encoded),
            ("garbage of the right size", SecureRandom.bytes(DeviceCertificate.size)),
            ("a certificate of another key with a flipped signature bit", badSignature),
        ]
        for (what, cert) in cases {
            let mallory = try AdversarialPeer()
            let session = try mallory.connect(to: ana.address, hello: DeviceAttack.hello(cert: cert))
            let got = try session.drain(for: 2)
            #expect(DeviceAttack.offered(got, ownedBy: person.publicKey).isEmpty, "\(what): offered Ana's documents")
            #expect(!got.contains { if case .offer? = $0.kind { true } else { false } }, "\(what): got offers")
            // devices.md §6: a certificate that fails closes the session (`bad-certificate`).
            #expect(session.waitUntilClosed(timeout: 3), "\(what): the session stayed open")
            session.close()
        }
        #expect(ana.serving("forged certificates"))
    }

    @Test("a revoked device's own certificate, or a stranger presenting it, is closed with nothing of Ana's")
    func revokedCertificate() async throws {
        let (ana, person) = try DeviceAttack.ana()
        let phone = try SigningKeyPair(), tablet = try SigningKeyPair()
        let phoneCert = try DeviceCertificate.issue(
            device: phone.publicKey, admin: false, issuedMs: nowMs(), by: person)
        let tabletCert = try DeviceCertificate.issue(
            device: tablet.publicKey, admin: false, issuedMs: nowMs(), by: person)
        let revocation = try DeviceRevocation.issue(device: phone.publicKey, revokedMs: nowMs(), by: person)
        // The tablet tells Ana's daemon the phone is revoked (devices.md §6).
        let tabletSession = try AdversarialPeer(identity: tablet).connect(
            to: ana.address, hello: DeviceAttack.hello(cert: tabletCert.encoded, revocations: [revocation.encoded]))
        #expect(!DeviceAttack.offered(try tabletSession.drain(for: 1.5), ownedBy: person.publicKey).isEmpty)
        try await eventually("Ana's daemon learns the revocation") { ana.d.log.contains("learned a device revocation") }

        for (what, key) in [
            ("the revoked phone", phone), ("a stranger with the phone's certificate", try SigningKeyPair()),
        ] {
            let session = try AdversarialPeer(identity: key).connect(
                to: ana.address, hello: DeviceAttack.hello(cert: phoneCert.encoded))
            let got = try session.drain(for: 2)
            #expect(DeviceAttack.offered(got, ownedBy: person.publicKey).isEmpty, "\(what): offered Ana's documents")
            #expect(session.waitUntilClosed(timeout: 3), "\(what): the session stayed open")
            session.close()
        }
        // The tablet keeps working.
        let again = try AdversarialPeer(identity: tablet).connect(
            to: ana.address, hello: DeviceAttack.hello(cert: tabletCert.encoded))
        #expect(!DeviceAttack.offered(try again.drain(for: 1.5), ownedBy: person.publicKey).isEmpty)
        #expect(ana.serving("revoked certificates"))
    }

    // MARK: 2. Revocations in Hello

    @Test(
        "revocations of Ana's device forged by a stranger, or signed as its own, are ignored: her device keeps working")
    func forgedRevocations() async throws {
        let (ana, person) = try DeviceAttack.ana()
        let phone = try SigningKeyPair()
        let phoneCert = try DeviceCertificate.issue(
            device: phone.publicKey, admin: false, issuedMs: nowMs(), by: person)
        let mallory = try AdversarialPeer()
        // Mallory signs "Mallory revokes the phone's key" (a valid record of its own), and a
        // copy claiming Ana as the person (its signature then fails).
        let own = try DeviceRevocation.issue(device: phone.publicKey, revokedMs: nowMs(), by: mallory.identity)
        var claimed = own.encoded
        claimed.replaceSubrange(1..<33, with: person.publicKey.bytes)
        // And 64 revocations of random keys, signed by itself: nothing a daemon keeps for a stranger.
        let flood = try (0..<62).map { _ in
            try DeviceRevocation.issue(device: try SigningKeyPair().publicKey, revokedMs: nowMs(), by: mallory.identity)
                .encoded
        }
        let session = try mallory.connect(
            to: ana.address, hello: DeviceAttack.hello(revocations: [own.encoded, claimed] + flood))
        _ = try session.drain(for: 1.5)
        session.close()
        // The phone still connects as Ana and is offered her library.
        let phoneSession = try AdversarialPeer(identity: phone).connect(
            to: ana.address, hello: DeviceAttack.hello(cert: phoneCert.encoded))
        let got = try phoneSession.drain(for: 2)
        #expect(!DeviceAttack.offered(got, ownedBy: person.publicKey).isEmpty, "the phone was shut out")
        #expect(!phoneSession.closed, "the phone's session was closed")
        #expect(!ana.d.log.contains("learned a device revocation"), "a stranger's revocation was kept")
        let list = try ana.d.call(DeviceList.self, "GET", "/v1/devices")
        #expect(list.devices.allSatisfy { $0.revokedAt == nil })
        #expect(ana.serving("forged revocations"))
    }

    // MARK: 3. Pairing

    /// A pairing code of `node` (`POST /v1/devices/pairings`), parsed.
    static func pairingCode(_ node: SyncNode) throws -> (id: String, code: PairingCode) {
        let made = try node.d.call(PairingCreated.self, "POST", "/v1/devices/pairings", json: "{}")
        return (made.id, try PairingCode(parsing: made.code))
    }

    static func pairings(_ node: SyncNode) throws -> [PairingInfo] {
        try node.d.call(PairingList.self, "GET", "/v1/devices/pairings").pairings
    }

    @Test("pair requests with a replayed, unknown or used proof are refused; a second request closes the session")
    func pairingAttacks() async throws {
        let (ana, person) = try DeviceAttack.ana()
        let (id, code) = try Self.pairingCode(ana)

        // A proof for a code Ana never made: refused as unknown.
        let mallory = try AdversarialPeer()
        let m1 = try mallory.connect(to: ana.address, hello: DeviceAttack.hello())
        let forged = try PairingProof.proof(
            secret: SecureRandom.bytes(16), handshakeHash: m1.handshakeHash, device: mallory.identity.publicKey,
            person: person.publicKey)
        try m1.send(DeviceAttack.pairing(.request(proof: forged, name: "Mallory")))
        let unknown = DeviceAttack.pairingAnswers(try m1.drain(for: 1.5))
        #expect(unknown.contains { if case .refused("unknown-code", _) = $0 { true } else { false } }, "\(unknown)")
        m1.close()

        // The joiner's real proof, on its session: waiting.
        let joiner = try AdversarialPeer()
        let j1 = try joiner.connect(to: ana.address, hello: DeviceAttack.hello())
        let proof = try PairingProof.proof(
            secret: code.secret, handshakeHash: j1.handshakeHash, device: joiner.identity.publicKey,
            person: person.publicKey)

        // The same proof replayed by Mallory first (someone who saw it): refused, the code unused.
        let m2 = try mallory.connect(to: ana.address, hello: DeviceAttack.hello())
        try m2.send(DeviceAttack.pairing(.request(proof: proof, name: "Mallory")))
        let replayed = DeviceAttack.pairingAnswers(try m2.drain(for: 1.5))
        #expect(replayed.contains { if case .refused("unknown-code", _) = $0 { true } else { false } }, "\(replayed)")
        #expect(try Self.pairings(ana).first { $0.id == id }?.state == "waiting")
        m2.close()

        try j1.send(DeviceAttack.pairing(.request(proof: proof, name: "Phone")))
        let waiting = DeviceAttack.pairingAnswers(try j1.drain(for: 1.5))
        #expect(waiting.contains(.waiting), "\(waiting)")
        #expect(try Self.pairings(ana).first { $0.id == id }?.state == "confirm")

        // A second request on the session: devices.md §7, one per session; a second closes it.
        try j1.send(DeviceAttack.pairing(.request(proof: proof, name: "Phone again")))
        #expect(j1.waitUntilClosed(timeout: 3), "a second pair request left the session open")
        j1.close()
        // The pairing in confirm is not taken by another proof of the same code: `used`.
        let other = try AdversarialPeer()
        let o1 = try other.connect(to: ana.address, hello: DeviceAttack.hello())
        let otherProof = try PairingProof.proof(
            secret: code.secret, handshakeHash: o1.handshakeHash, device: other.identity.publicKey,
            person: person.publicKey)
        try o1.send(DeviceAttack.pairing(.request(proof: otherProof, name: "Thief")))
        let used = DeviceAttack.pairingAnswers(try o1.drain(for: 1.5))
        #expect(used.contains { if case .refused("used", _) = $0 { true } else { false } }, "\(used)")
        o1.close()
        let listed = try #require(try Self.pairings(ana).first { $0.id == id })
        #expect(listed.state == "confirm" && listed.deviceName == "Phone")
        #expect(try ana.d.call(DeviceList.self, "GET", "/v1/devices").devices.count == 1)
        #expect(ana.serving("pairing attacks"))
    }

    @Test("1,000 pair requests in a row: the session is closed, no state grows, the daemon serves others")
    func pairRequestFlood() async throws {
        let (ana, person) = try DeviceAttack.ana()
        let (id, _) = try Self.pairingCode(ana)
        let mallory = try AdversarialPeer()
        let session = try mallory.connect(to: ana.address, hello: DeviceAttack.hello())
        var flood = [WireMessage]()
        for i in 0..<1_000 {
            flood.append(DeviceAttack.pairing(.request(proof: SecureRandom.bytes(32), name: "flood \(i)")))
        }
        try? session.send(flood)
        let answers = DeviceAttack.pairingAnswers(try session.drain(for: 3))
        #expect(answers.count <= 1, "\(answers.count) answers to one session's pair requests")
        #expect(session.waitUntilClosed(timeout: 3), "the flood's session stayed open")
        session.close()
        let pairings = try Self.pairings(ana)
        #expect(pairings.count == 1 && pairings.first?.id == id && pairings.first?.state == "waiting")
        // Others are still served: Ana's own device is offered her library.
        let phone = try SigningKeyPair()
        let cert = try DeviceCertificate.issue(device: phone.publicKey, admin: false, issuedMs: nowMs(), by: person)
        let sibling = try AdversarialPeer(identity: phone).connect(
            to: ana.address, hello: DeviceAttack.hello(cert: cert.encoded))
        #expect(!DeviceAttack.offered(try sibling.drain(for: 2), ownedBy: person.publicKey).isEmpty)
        #expect(ana.serving("a pair request flood"))
    }

    @Test("PairWaiting, PairRefused and PairAccepted sent to a daemon that is not joining are ignored")
    func unsolicitedPairingAnswers() async throws {
        let (ana, person) = try DeviceAttack.ana()
        let mallory = try AdversarialPeer()
        let stranger = try SigningKeyPair()
        let cert = try DeviceCertificate.issue(
            device: stranger.publicKey, admin: true, issuedMs: nowMs(), by: mallory.identity)
        let sealed = try mallory.identity.withSecretKey { try SealedBox.seal($0, to: stranger.publicKey) }
        let session = try mallory.connect(to: ana.address, hello: DeviceAttack.hello())
        try session.send([
            DeviceAttack.pairing(.waiting),
            DeviceAttack.pairing(.refused(code: "used", reason: "nope")),
            DeviceAttack.pairing(.accepted(certificate: cert.encoded, personName: "Mallory", sealedPersonKey: sealed)),
        ])
        _ = try session.drain(for: 1.5)
        session.close()
        let status = try ana.d.call(Status.self, "GET", "/v1/status")
        #expect(status.loggedIn && status.id == person.publicKey.humanID && status.device == nil)
        #expect(try ana.d.call(Profile.self, "GET", "/v1/profile").name == "Ana")
        #expect(ana.serving("unsolicited pairing answers"))
    }

    @Test("a joining daemon refuses a PairAccepted certifying another key or by another person, and stays unpaired")
    func wrongCertificateToJoiner() async throws {
        // Mallory holds the person key of the code it hands out, and answers as the issuer.
        let mallory = try AdversarialPeer()
        let code = try PairingCode.make(person: mallory.identity.publicKey, nowMs: nowMs(), hints: [])
        let other = try SigningKeyPair()
        let cases: [(String, (PublicKey) throws -> [UInt8])] = [
            (
                "a certificate of another key",
                { _ in
                    try DeviceCertificate.issue(
                        device: other.publicKey, admin: false, issuedMs: nowMs(), by: mallory.identity
                    )
                    .encoded
                }
            ),
            (
                "a certificate by another person",
                { device in
                    try DeviceCertificate.issue(device: device, admin: false, issuedMs: nowMs(), by: other).encoded
                }
            ),
        ]
        for (what, certificate) in cases {
            let blank = try BlankNode()
            let listen = try #require(try blank.status.listen)
            // The join blocks until the issuer answers: it runs beside the issuer's script.
            let daemon = Unchecked(blank.d)
            let join = Task.detached {
                Unchecked(
                    try daemon.value.send(
                        "POST", "/v1/devices/join",
                        json: #"{"code":"\#(code.text)","name":"Phone","noPassphrase":true,"waitSeconds":20}"#))
            }
            // The joining daemon has its device key once the join started.
            var device: PublicKey?
            try await eventually("the blank daemon is joining") {
                device = try blank.status.device?.id.flatMap { try? HumanID.decode($0) }
                return device != nil
            }
            let joiner = try #require(device)
            let session = try mallory.connect(to: listen, hello: DeviceAttack.hello())
            let request = try #require(
                try session.wait(timeout: 5) { if case .pairRequest? = $0.kind { true } else { false } })
            guard case .request(let proof, _)? = PairingMessage(request) else {
                Issue.record("\(what): no pair request")
                continue
            }
            #expect(
                PairingProof.isValid(
                    proof, secret: code.secret, handshakeHash: session.handshakeHash, device: joiner,
                    person: mallory.identity.publicKey))
            try session.send([
                DeviceAttack.pairing(.waiting),
                DeviceAttack.pairing(
                    .accepted(certificate: try certificate(joiner), personName: "Mallory", sealedPersonKey: [])),
            ])
            let answered = try await join.value.value
            #expect(answered.status == 202, "\(what): \(answered.text)")
            try await eventually("\(what): the join is refused") { try blank.status.device?.state == "refused" }
            let status = try blank.status
            #expect(!status.loggedIn && status.id == nil, "\(what): the daemon took an identity")
            session.close()
            #expect(blank.d.isServing)
        }
    }
}
