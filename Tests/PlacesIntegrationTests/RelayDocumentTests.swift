import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesAccess
@testable import PlacesSync
@testable import PlacesTestSupport

/// Issue 30, step 3 (docs/relay-design.md §7) with real daemons: documents kept at a blind
/// relay under owner-signed access lists, carried between members who are never online
/// together, and refused to keys not on the list.
@Suite("Relay: documents through a blind relay (Protocol/relay.md §4–§5)", .serialized)
struct RelayDocumentTests {
    static func add(_ node: SyncNode, _ relay: RelayNode) throws {
        let r = try RelayTests.add(node, try relay.invite())
        guard r.status == 201 else { throw HarnessError("relay add: \(r.text)") }
    }

    /// Ana and Bruno, each trusting the other's daemon (Ana dials Bruno).
    static func friends(_ ana: String = "Ana", _ bruno: String = "Bruno") throws -> (SyncNode, SyncNode) {
        let a = try SyncNode(ana), b = try SyncNode(bruno)
        try a.addPeer(b)
        try b.trust(a)
        return (a, b)
    }

    /// A new trip `name` of `owner`'s, shared with `member` as an editor; its id.
    static func share(_ name: String, from owner: SyncNode, with member: SyncNode) throws -> String {
        let it = try owner.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"\#(name)"}"#)
        let r = try owner.d.send(
            "POST", "/v1/itineraries/\(it.id)/share", json: #"{"member":"\#(member.id)","role":"editor"}"#)
        guard r.status == 200 else { throw HarnessError("share: \(r.text)") }
        return it.id
    }

    /// Every file under `dir` (and the daemon's log beside it) that contains one of `strings`.
    static func leaks(of strings: [String], in dir: String) -> [String] {
        var files = [dir + ".stderr"]
        if let walker = FileManager.default.enumerator(atPath: dir) {
            for case let path as String in walker { files.append(dir + "/" + path) }
        }
        var found = [String]()
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            for string in strings where data.range(of: Data(string.utf8)) != nil {
                found.append("\(string) in \(file)")
            }
        }
        return found
    }

    @Test("Ana and Bruno, never online together, converge through the relay; the relay holds none of their strings")
    func neverOnlineTogether() async throws {
        let tag = String(UUID().uuidString.prefix(8))
        let relay = try RelayNode()
        let ana = try SyncNode("Ana\(tag)"), bruno = try SyncNode("Bruno\(tag)")
        try ana.addPeer(bruno)
        try bruno.trust(ana)
        let tripName = "Lisboa-\(tag)-trip"
        let it = try ana.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"\#(tripName)"}"#)
        let shared = try ana.d.send(
            "POST", "/v1/itineraries/\(it.id)/share", json: #"{"member":"\#(bruno.id)","role":"editor"}"#)
        #expect(shared.status == 200, "\(shared.text)")
        try await eventually("Bruno holds the trip") {
            try bruno.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)").name == tripName
        }
        try Self.add(ana, relay)
        try Self.add(bruno, relay)
        try await eventually("the relay keeps the trip") { try relay.summary.documents == 1 && relay.summary.bytes > 0 }
        // The relay's key is never a grant's member: sharing with it is refused.
        let relayID = try relay.d.call(Status.self, "GET", "/v1/status").id ?? ""
        let toRelay = try ana.d.send(
            "POST", "/v1/itineraries/\(it.id)/share", json: #"{"member":"\#(relayID)","role":"viewer"}"#)
        #expect(toRelay.status == 400, "\(toRelay.text)")

        // Bruno goes away; Ana edits and goes away once the relay holds her edit.
        bruno.stop()
        let bytesBefore = try relay.summary.bytes
        let anaNote = "ana-note-\(tag)-xyz"
        _ = try ana.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(it.id)", json: #"{"notes":"\#(anaNote)"}"#)
        try await eventually("the relay holds Ana's edit") { try relay.summary.bytes > bytesBefore }
        try await eventually("Ana sees what the relay keeps of hers") {
            let mine = try ana.d.call(RelayList.self, "GET", "/v1/relays").relays.first
            return (mine?.documents ?? 0) >= 1 && (mine?.bytes ?? 0) > 0
        }
        ana.stop()

        // Bruno comes back: the edit reaches him from the relay alone (Ana is offline).
        try bruno.start()
        try await eventually("Bruno has Ana's edit through the relay", timeout: .seconds(20)) {
            try bruno.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)").notes == anaNote
        }
        let brunoName = "Reply-\(tag)-from-bruno"
        let bytesBeforeReply = try relay.summary.bytes
        _ = try bruno.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(it.id)", json: #"{"name":"\#(brunoName)"}"#)
        try await eventually("the relay holds Bruno's reply") { try relay.summary.bytes > bytesBeforeReply }
        bruno.stop()

        try ana.start()
        try await eventually("Ana has Bruno's reply through the relay", timeout: .seconds(20)) {
            try ana.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)").name == brunoName
        }
        let summary = try relay.summary
        #expect(summary.users == 2 && summary.documents == 1 && summary.bytes > 0)

        // Nothing the members wrote is readable at the relay: database, WAL, logs.
        let secrets = [tripName, anaNote, brunoName, "Ana\(tag)", "Bruno\(tag)"]
        let found = Self.leaks(of: secrets, in: relay.dir.path)
        #expect(found.isEmpty, "\(found)")
        relay.d.stop()
        let afterStop = Self.leaks(of: secrets, in: relay.dir.path)
        #expect(afterStop.isEmpty, "\(afterStop)")
        // The members' own data dirs do hold them (the scan would see them).
        #expect(!Self.leaks(of: [anaNote], in: ana.dir.path).isEmpty)
    }
}

extension RelayDocumentTests {
    @Test(
        "a stranger neither pulls nor pushes, a list not signed by the owner is refused, a removed member loses access")
    func hostile() async throws {
        let tag = String(UUID().uuidString.prefix(8))
        let relay = try RelayNode()
        let ana = try SyncNode("Ana"), bruno = try SyncNode("Bruno"), carl = try SyncNode("Carl")
        for node in [bruno, carl] {
            try ana.addPeer(node)
            try node.trust(ana)
        }
        let it = try ana.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Porto-\#(tag)"}"#)
        for node in [bruno, carl] {
            let r = try ana.d.send(
                "POST", "/v1/itineraries/\(it.id)/share", json: #"{"member":"\#(node.id)","role":"editor"}"#)
            #expect(r.status == 200, "\(r.text)")
        }
        try await eventually("Bruno and Carl hold the trip") {
            try bruno.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)").name == "Porto-\(tag)"
                && carl.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)").name == "Porto-\(tag)"
        }
        for node in [ana, bruno, carl] { try Self.add(node, relay) }
        try await eventually("the relay keeps the trip") { try relay.summary.documents == 1 && relay.summary.bytes > 0 }
        let doc = try #require(DocumentID(hex: it.id))
        let opsBefore = try #require(try relay.d.call(Status.self, "GET", "/v1/status").opCount)

        // A stranger: its offer pulls nothing, its ops are stored nowhere, its own list for the
        // document (signed by itself, not the owner) is refused.
        let mallory = try AdversarialPeer()
        let session = try mallory.connect(to: relay.address)
        let forged = try RelayAccess.issue(
            doc: doc, epoch: 99, issuedMs: 1, keys: [mallory.identity.publicKey], by: mallory.identity)
        var offer = Wire.offer(doc: doc, owner: mallory.identity.publicKey.bytes)
        offer.offer.relayAccess = Data(forged.encoded)
        try session.send(offer)
        try session.send(Wire.offer(doc: doc, owner: mallory.identity.publicKey.bytes))
        let op = try mallory.op(
            doc: doc, seq: 1, lamport: 1, deps: [], key: SecureRandom.bytes(32),
            body: Wire.body([Wire.create(doc.hex, kind: "itinerary")]))
        try session.send(ops: [op], doc: doc)
        let answers = try session.drain(for: 1.0)
        #expect(
            !answers.contains {
                switch $0.kind {
                case .ops, .offer: true
                default: false
                }
            }, "\(answers.map(\.kind))")
        #expect(try relay.d.call(Status.self, "GET", "/v1/status").opCount == opsBefore)
        #expect(relay.log.contains("refused an access list not signed by the document's owner"))

        // Carl is removed while away; the owner's rotation signs a list without him. Bruno is
        // away too, so that the edit can reach him only through the relay (the rounds counted below).
        carl.stop()
        bruno.stop()
        let removed = try ana.d.send("DELETE", "/v1/itineraries/\(it.id)/members/\(carl.id)")
        #expect(removed.status == 200, "\(removed.text)")
        let secret = "after-carl-\(tag)"
        _ = try ana.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(it.id)", json: #"{"notes":"\#(secret)"}"#)
        try await eventually("the relay holds the edit made after the removal") {
            try relay.d.call(Status.self, "GET", "/v1/status").opCount ?? 0 > opsBefore + 1
        }
        ana.stop()
        // Carl comes back with only the relay reachable: he gets nothing new and pushes nothing.
        func rounds(to node: SyncNode) -> Int {
            relay.log.split(separator: "\n").filter {
                $0.contains("sending a round of ops") && $0.contains(String(node.id.prefix(7)))
            }.count
        }
        func roundsToCarl() -> Int { rounds(to: carl) }
        let roundsBefore = roundsToCarl()
        try carl.start()
        try await eventually("Carl is connected to the relay") {
            try carl.d.call(RelayList.self, "GET", "/v1/relays").relays.first?.state == "connected"
        }
        let opsNow = try relay.d.call(Status.self, "GET", "/v1/status").opCount ?? 0
        _ = try carl.d.send("PATCH", "/v1/itineraries/\(it.id)", json: #"{"notes":"carl-was-here"}"#)
        try await Task.sleep(for: .seconds(3))
        #expect(try carl.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)").notes != secret)
        #expect(try relay.d.call(Status.self, "GET", "/v1/status").opCount == opsNow)
        #expect(roundsToCarl() == roundsBefore, "the relay sent the removed member a round")
        // Bruno, still on the list, gets the edit from the relay alone.
        try bruno.start()
        try await eventually("Bruno has the edit through the relay", timeout: .seconds(20)) {
            try bruno.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)").notes == secret
        }
        // The log line the check on Carl counts is there for a member on the list.
        #expect(rounds(to: bruno) > 0)
    }
}

extension RelayNode {
    /// The relay's log so far (debug level, beside its data dir).
    var log: String {
        String(decoding: FileManager.default.contents(atPath: dir.path + ".stderr") ?? Data(), as: UTF8.self)
    }
}

extension RelayDocumentTests {
    @Test("over its quota a user's ops are refused whole with relay-full: nothing accepted is dropped")
    func quota() async throws {
        let quota: Int64 = 6_000
        let relay = try RelayNode(extraArguments: ["--relay-quota-bytes", "\(quota)"])
        let (ana, bruno) = try Self.friends()
        let trip = try Self.share("Faro", from: ana, with: bruno)
        try Self.add(ana, relay)
        try await eventually("the relay keeps the trip") { try relay.summary.documents == 1 }
        #expect(try relay.summary.quotaBytes == quota)
        var kept = [Int64]()
        for round in 0..<12 {
            let notes = String(repeating: "n", count: 900) + "\(round)"
            _ = try ana.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(trip)", json: #"{"notes":"\#(notes)"}"#)
            try await Task.sleep(for: .milliseconds(150))
            kept.append(try relay.summary.bytes)
        }
        try await eventually("Ana's daemon shows the relay full") {
            try ana.d.call(RelayList.self, "GET", "/v1/relays").relays.first?.state == "full"
        }
        let bytes = try relay.summary.bytes
        #expect(bytes > 0 && bytes <= quota, "\(bytes)")
        // What the relay took it kept: its totals never went down.
        #expect(kept == kept.sorted(), "\(kept)")
        #expect(relay.log.contains("refused ops over the user's quota (relay-full)"))
        let listed = try ana.d.call(RelayList.self, "GET", "/v1/relays").relays.first
        #expect(listed?.quotaBytes == quota && (listed?.bytes ?? 0) <= quota)
    }

    @Test("over the document quota one trip's ops are refused; the user's other trip is still kept")
    func documentQuota() async throws {
        let quota: Int64 = 6_000
        let relay = try RelayNode(extraArguments: ["--relay-document-quota-bytes", "\(quota)"])
        let (ana, bruno) = try Self.friends()
        let trips = try ["Faro", "Lagos"].map { try Self.share($0, from: ana, with: bruno) }
        try Self.add(ana, relay)
        try await eventually("the relay keeps both trips") { try relay.summary.documents == 2 }
        for round in 0..<12 {
            let notes = String(repeating: "n", count: 900) + "\(round)"
            _ = try ana.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(trips[0])", json: #"{"notes":"\#(notes)"}"#)
            try await Task.sleep(for: .milliseconds(150))
        }
        try await eventually("the relay refuses the busy trip's ops") {
            relay.log.contains("refused ops over the document's quota (relay-full)")
        }
        // The other trip is still taken: one busy document does not block its user.
        let before = try relay.summary.bytes
        _ = try ana.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(trips[1])", json: #"{"notes":"calm"}"#)
        try await eventually("the relay keeps the other trip's edit") { try relay.summary.bytes > before }
        #expect(try relay.summary.bytes <= 2 * quota)
    }
}
