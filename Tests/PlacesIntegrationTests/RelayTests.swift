import Foundation
import PlacesAPI
import PlacesControlClient
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesAccess
@testable import PlacesSync
@testable import PlacesTestSupport

/// `placesd --relay` on loopback: a blind relay with no identity and no content API.
final class RelayNode {
    let dir = TempDir()
    let d: DaemonProcess
    private(set) var address = ""
    let extraArguments: [String]

    init(extraArguments: [String] = []) throws {
        d = DaemonProcess(dataDir: dir.path)
        self.extraArguments = extraArguments
        try start()
    }

    func start() throws {
        try d.start(
            extraArguments: [
                "--relay", "--listen", address.isEmpty ? "127.0.0.1:0" : address, "--no-discovery",
            ] + extraArguments)
        let deadline = ContinuousClock.now + .seconds(10)
        repeat {
            address = try d.call(Status.self, "GET", "/v1/status").listen ?? ""
            if !address.hasSuffix(":0") { break }
            Thread.sleep(forTimeInterval: 0.02)
        } while ContinuousClock.now < deadline
    }

    func invite() throws -> String { try d.call(RelayInvitation.self, "POST", "/v1/relay/invitations").link }

    var summary: RelaySummary { get throws { try d.call(RelaySummary.self, "GET", "/v1/relay") } }

    /// The relay's key, from its unsealed key file (what lets a test mint links as the relay).
    func key() throws -> SigningKeyPair {
        let data = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/relay.key"))
        return try JSONDecoder().decode(KeyFile.self, from: data).open(passphrase: nil)
    }
}

/// Issue 30, steps 1–2 (docs/relay-design.md §7) with real daemons: the relay's composition,
/// its links redeemed over Noise, and the links a relay must refuse.
@Suite("Relay: placesd --relay and relay links (Protocol/relay.md)", .serialized)
struct RelayTests {
    static func add(_ node: SyncNode, _ link: String, wait: Int = 15) throws -> ControlClient.Response {
        try node.d.send("POST", "/v1/relays", json: #"{"link":"\#(link)","waitSeconds":\#(wait)}"#)
    }

    static func code(_ r: ControlClient.Response) -> String? {
        (try? JSONDecoder().decode(Problem.self, from: Data(r.body)))?.code
    }

    @Test("a relay answers role relay, refuses every content route, and counts what it keeps")
    func composition() throws {
        let relay = try RelayNode()
        let status = try relay.d.call(Status.self, "GET", "/v1/status")
        #expect(status.role == "relay" && status.loggedIn == false && status.id?.isEmpty == false)
        for (method, path) in [
            ("GET", "/v1/itineraries"), ("POST", "/v1/itineraries"), ("GET", "/v1/places"), ("GET", "/v1/favorites"),
            ("POST", "/v1/init"), ("GET", "/v1/profile"), ("GET", "/v1/relays"),
        ] {
            let r = try relay.d.send(method, path, json: method == "POST" ? "{}" : nil)
            #expect(r.status == 409 && Self.code(r) == "relay-role", "\(method) \(path): \(r.text)")
        }
        #expect(try relay.d.send("GET", "/v1/nothing-here").status == 404)
        #expect(try relay.summary == RelaySummary(users: 0, documents: 0, bytes: 0, quotaBytes: 0))
        // No person's key is ever made on a relay.
        #expect(!FileManager.default.fileExists(atPath: relay.dir.path + "/identity.key"))
        // A person's daemon has no relay routes of its own.
        let ana = try SyncNode("Ana")
        let r = try ana.d.send("GET", "/v1/relay")
        #expect(r.status == 409 && Self.code(r) == "not-a-relay")
    }

    @Test("the first redeemer owns the relay, the next is a user; a used link is refused; all survive a restart")
    func redeem() async throws {
        let relay = try RelayNode()
        let ana = try SyncNode("Ana")
        let bruno = try SyncNode("Bruno")
        let link = try relay.invite()
        #expect(link.hasPrefix("places://relay/"))
        let added = try Self.add(ana, link)
        #expect(added.status == 201, "\(added.text)")
        let info = try JSONDecoder().decode(RelayInfo.self, from: Data(added.body))
        let relayID = try relay.d.call(Status.self, "GET", "/v1/status").id
        #expect(info.id == relayID && info.address == relay.address && info.role == "owner")
        #expect(info.state == "connected")
        // The same link again, from Ana or from Bruno: used.
        for node in [ana, bruno] {
            let again = try Self.add(node, link)
            #expect(again.status == 410 && Self.code(again) == "link-used-up", "\(again.text)")
        }
        let second = try Self.add(bruno, try relay.invite())
        #expect(second.status == 201, "\(second.text)")
        #expect(try JSONDecoder().decode(RelayInfo.self, from: Data(second.body)).role == "user")
        #expect(try relay.summary.users == 2)
        #expect(try relay.summary.quotaBytes == 2 << 30)

        let listed = try ana.d.call(RelayList.self, "GET", "/v1/relays").relays
        #expect(listed.count == 1 && listed.first?.id == relayID && listed.first?.state == "connected")
        #expect(listed.first?.lastSync != nil && listed.first?.documents == 0 && listed.first?.bytes == 0)

        // The relay keeps its users and its key; Ana dials it again on her own.
        relay.d.stop()
        try relay.start()
        #expect(try relay.d.call(Status.self, "GET", "/v1/status").id == relayID)
        #expect(try relay.summary.users == 2)
        try await eventually("Ana's daemon is connected to the relay again", timeout: .seconds(15)) {
            try ana.d.call(RelayList.self, "GET", "/v1/relays").relays.first?.state == "connected"
        }

        // Removing it: gone from the list, the session closed.
        let removed = try ana.d.send("DELETE", "/v1/relays/\(relayID?.prefix(7) ?? "")")
        #expect(removed.status == 204, "\(removed.text)")
        #expect(try ana.d.call(RelayList.self, "GET", "/v1/relays").relays.isEmpty)
        #expect(try ana.d.send("DELETE", "/v1/relays/\(relayID?.prefix(7) ?? "")").status == 404)
    }

    @Test("forged, malformed, expired and foreign links are refused with a precise problem; nothing is kept")
    func hostileLinks() throws {
        let relay = try RelayNode()
        let ana = try SyncNode("Ana")
        let link = try RelayLink(parsing: try relay.invite())
        // One bit flipped in the signed part: the signature fails, refused before any dialling.
        var token = link.token
        token[20] ^= 1
        let forged = try Self.add(ana, RelayLink.prefix + Base64URL.encode(token))
        #expect(forged.status == 403 && Self.code(forged) == "link-forged", "\(forged.text)")
        for text in [
            "places://relay/", "places://relay/AAAA", "hello", link.text + "AA", String(link.text.dropLast(3)),
        ] {
            let r = try Self.add(ana, text)
            #expect(r.status == 400 && Self.code(r) == "invalid-link", "\(text): \(r.text)")
        }
        // Signed by the relay's own key, but expired.
        let key = try relay.key()
        let expired = try RelayLink.issue(by: key, addresses: [relay.address], expiresMs: 1_000)
        let late = try Self.add(ana, expired.text)
        #expect(late.status == 410 && Self.code(late) == "link-expired", "\(late.text)")
        // Validly signed by the relay but never issued by it: the relay says so.
        let unknown = try RelayLink.issue(
            by: key, addresses: [relay.address], expiresMs: Int64(Date().timeIntervalSince1970 * 1000) + 60_000)
        let refused = try Self.add(ana, unknown.text)
        #expect(refused.status == 403 && Self.code(refused) == "link-refused", "\(refused.text)")
        // Another key claiming the relay's address: the Noise session is not with that key, so
        // the link is never sent, and the user is told the relay did not answer.
        let impostor = try RelayLink.issue(
            by: try SigningKeyPair(), addresses: [relay.address],
            expiresMs: Int64(Date().timeIntervalSince1970 * 1000) + 60_000)
        let unanswered = try Self.add(ana, impostor.text, wait: 2)
        #expect(unanswered.status == 504 && Self.code(unanswered) == "relay-unreachable", "\(unanswered.text)")
        #expect(try relay.summary.users == 0)
        #expect(try ana.d.call(RelayList.self, "GET", "/v1/relays").relays.isEmpty)
        // The real link still works afterwards.
        #expect(try Self.add(ana, link.text).status == 201)
    }

    @Test("a stranger speaking the protocol: forged redeem refused, its ops stored nowhere")
    func stranger() throws {
        let relay = try RelayNode()
        let mallory = try AdversarialPeer()
        let session = try mallory.connect(to: relay.address)
        var redeem = WireMessage()
        redeem.relayRedeem.link = Data(repeating: 7, count: 200)
        try session.send(redeem)
        let answer = try session.wait(timeout: 5) { if case .relayRefused = $0.kind { true } else { false } }
        #expect(answer?.relayRefused.code == "forged")
        // An oversized token is out of bounds (relay.md §6): ignored, the session lives on.
        redeem.relayRedeem.link = Data(repeating: 1, count: RelayLink.maxSize + 1)
        try session.send(redeem)
        #expect(try session.wait(timeout: 1) { if case .relayRefused = $0.kind { true } else { false } } == nil)
        // Ops pushed for a document the relay does not keep: nothing stored.
        let doc = DocumentID(bytes: SecureRandom.bytes(16))!
        let op = try mallory.op(
            doc: doc, seq: 1, lamport: 1, deps: [], key: SecureRandom.bytes(32),
            body: Wire.body([Wire.create(doc.hex, kind: "itinerary")]))
        try session.send(ops: [op], doc: doc)
        _ = try session.drain(for: 0.5)
        #expect(try relay.summary == RelaySummary(users: 0, documents: 0, bytes: 0, quotaBytes: 0))
        #expect(try relay.d.call(Status.self, "GET", "/v1/status").opCount == 0)
    }
}
