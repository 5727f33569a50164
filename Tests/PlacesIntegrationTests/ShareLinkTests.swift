import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesTestSupport
import Synchronization
import Testing

extension SyncNode {
    /// Makes a share link; returns the `ShareLinkInfo` with its url.
    func link(_ itinerary: String, _ body: String) throws -> ShareLinkInfo {
        try d.call(ShareLinkInfo.self, "POST", "/v1/itineraries/\(itinerary)/links", json: body)
    }

    /// Redeems a link through the control API; returns the HTTP status and body text. A join
    /// that should succeed waits as long as the daemon's default (a CI run under load once
    /// took over 10 s to be let in).
    func join(_ url: String, wait: Int = 15) throws -> (status: Int, text: String) {
        let r = try d.send("POST", "/v1/join", json: #"{"link":"\#(url)","waitSeconds":\#(wait)}"#)
        return (r.status, r.text)
    }

    func notes(_ itinerary: String) -> String? {
        (try? d.call(Itinerary.self, "GET", "/v1/itineraries/\(itinerary)"))?.notes
    }

    func problemCode(_ text: String) -> String? {
        (try? JSONDecoder().decode(Problem.self, from: Data(text.utf8)))?.code
    }
}

/// Collects the lines of a daemon's `GET /v1/events` stream on a thread of its own.
final class EventRecorder: Sendable {
    let lines = Mutex<[String]>([])

    init(_ node: SyncNode) {
        let client = node.d.client
        Thread { [self] in
            _ = try? client.streamLines("/v1/events") { line in
                self.lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) }
                return true
            }
        }.start()
    }

    var events: [Event] {
        lines.withLock { $0 }.compactMap { try? JSONDecoder().decode(Event.self, from: Data($0.utf8)) }
    }
}

@Suite("Share links between real daemons", .serialized)
struct ShareLinkTests {
    @Test(
        "viewer and editor links work; a viewer cannot edit; a view reaches the owner; bad links are refused precisely")
    func linksAndRoles() async throws {
        let a = try SyncNode("Ana"), b = try SyncNode("Bruno"), c = try SyncNode("Carla"), d = try SyncNode("Dora")
        let it = try a.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Lisbon"}"#)
        let events = EventRecorder(a)

        // A viewer link, redeemed with the real CLI.
        let viewer = try a.link(it.id, #"{"role":"viewer","expires":"7d"}"#)
        #expect(viewer.state == "live" && viewer.role == "viewer")
        let url = try #require(viewer.url)
        #expect(url.hasPrefix("places://join/\(it.id)#"))
        let joined = try b.d.cli(["join", url, "--wait", "10"])
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stdout.contains("joined “Lisbon” as viewer"))

        // The viewer reads but cannot edit; a viewer cannot make links either.
        let edit = try b.d.send("PATCH", "/v1/itineraries/\(it.id)", json: #"{"notes":"mine now"}"#)
        #expect(edit.status == 403 && b.problemCode(edit.text) == "read-only")
        let viewerLink = try b.d.send("POST", "/v1/itineraries/\(it.id)/links", json: #"{"role":"viewer"}"#)
        #expect(viewerLink.status == 403)

        // The viewer opened the itinerary (GET above and in `join`): the owner hears of it,
        // once (views are coalesced), and the activity shows it.
        _ = b.notes(it.id)
        try await eventually("the owner gets a viewed event") {
            events.events.contains { $0.type == "viewed" && $0.summary == "Bruno viewed “Lisbon”" }
        }
        let activity = try a.d.call(ActivityList.self, "GET", "/v1/itineraries/\(it.id)/activity")
        #expect(activity.activity.filter { $0.action == "viewed" }.map(\.summary) == ["Bruno viewed the itinerary"])
        #expect(activity.activity.contains { $0.summary == "Bruno joined through a link as viewer (let in by Ana)" })

        // A one-use editor link: Carla joins and edits; everyone sees the edit.
        let editor = try a.link(it.id, #"{"role":"editor","uses":1}"#)
        let carla = try c.join(try #require(editor.url))
        #expect(carla.status == 200, "\(carla.text)")
        let r = try c.d.send("PATCH", "/v1/itineraries/\(it.id)", json: #"{"notes":"book the tram"}"#)
        #expect(r.status == 200)
        try await eventually("the owner and the viewer see the editor's edit") {
            a.notes(it.id) == "book the tram" && b.notes(it.id) == "book the tram"
        }

        // Bad links for Dora, each refused with its own code; nothing joined.
        let usedUp = try d.join(try #require(editor.url))
        #expect(usedUp.status == 410 && d.problemCode(usedUp.text) == "link-used-up", "\(usedUp.text)")
        let forCarla = try a.link(it.id, #"{"role":"viewer","audience":"\#(c.id)"}"#)
        let wrongAudience = try d.join(try #require(forCarla.url))
        #expect(wrongAudience.status == 403 && d.problemCode(wrongAudience.text) == "link-refused")
        var forged = Array(url)
        let i = forged.count - 12
        forged[i] = forged[i] == "A" ? "B" : "A"
        let tampered = try d.join(String(forged))
        #expect(tampered.status == 403 && d.problemCode(tampered.text) == "link-forged", "\(tampered.text)")
        let soon = RFC3339Test.string(Date().addingTimeInterval(1.5))
        let expiring = try a.link(it.id, #"{"role":"viewer","expires":"\#(soon)"}"#)
        try await Task.sleep(for: .seconds(2))
        let expired = try d.join(try #require(expiring.url))
        #expect(expired.status == 410 && d.problemCode(expired.text) == "link-expired")
        let truncated = try d.join(String(url.dropLast(20)))
        #expect(truncated.status == 400 && d.problemCode(truncated.text) == "invalid-link")
        #expect(try d.d.call(ItineraryList.self, "GET", "/v1/itineraries").count == 0)

        // An editor's viewer link, redeemed while only the editor's daemon is reachable.
        let byCarla = try c.link(it.id, #"{"role":"viewer"}"#)
        try c.addPeer(a)
        a.stop()
        let dora = try d.join(try #require(byCarla.url))
        #expect(dora.status == 200, "\(dora.text)")
        #expect(d.notes(it.id) == "book the tram")
        try a.start()
        try await eventually("the owner lists Dora as a viewer who joined through Carla's link") {
            let members = try a.d.call(MemberList.self, "GET", "/v1/itineraries/\(it.id)/members")
            return members.members.contains { $0.name == "Dora" && $0.role == "viewer" && $0.link == byCarla.id }
        }

        // Shared with me / mine.
        let shared = try b.d.call(ItineraryList.self, "GET", "/v1/itineraries?scope=shared")
        #expect(shared.itineraries.map(\.id) == [it.id])
        #expect(try b.d.call(ItineraryList.self, "GET", "/v1/itineraries?scope=mine").count == 0)
    }

    @Test("unsharing rotates the key: the removed daemon gets nothing new and cannot read the new epoch")
    func unshareRotatesKey() async throws {
        let a = try SyncNode("Ana"), b = try SyncNode("Bruno"), c = try SyncNode("Carla")
        let it = try a.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Porto"}"#)
        let viewer = try a.link(it.id, #"{"role":"viewer"}"#)
        let editor = try a.link(it.id, #"{"role":"editor"}"#)
        #expect(try b.join(try #require(viewer.url)).status == 200)
        #expect(try c.join(try #require(editor.url)).status == 200)

        let unshare = try a.d.cli(["unshare", it.id, "--member", b.id])
        #expect(unshare.status == 0, "\(unshare.stderr)")
        #expect(!unshare.stdout.contains("Bruno"))
        _ = try a.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(it.id)", json: #"{"notes":"after Bruno left"}"#)
        try await eventually("the remaining editor sees the new edit") { c.notes(it.id) == "after Bruno left" }
        // Bruno's daemon got word of the removal (it was connected) and no longer shows it.
        try await eventually("the removed viewer no longer lists the itinerary") {
            try b.d.call(ItineraryList.self, "GET", "/v1/itineraries").count == 0
        }
        #expect(try b.d.send("GET", "/v1/itineraries/\(it.id)").status == 404)

        // Revoking a link removes whoever joined through it.
        let revoked = try a.d.call(MemberList.self, "DELETE", "/v1/itineraries/\(it.id)/links/\(editor.id)")
        #expect(revoked.members.map(\.role) == ["owner"])
        #expect(revoked.links.first { $0.id == editor.id }?.state == "revoked")
        _ = try a.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(it.id)", json: #"{"notes":"only Ana"}"#)
        try await eventually("the removed editor no longer lists the itinerary") {
            try c.d.call(ItineraryList.self, "GET", "/v1/itineraries").count == 0
        }
        // The revoked link lets nobody in any more.
        let again = try b.join(try #require(editor.url), wait: 5)
        #expect(again.status == 410 && b.problemCode(again.text) == "link-revoked", "\(again.text)")

        // On disk: the owner wrote epochs 1 and 2; Bruno holds only epoch 0's key, which
        // opens none of the later ops.
        a.stop()
        b.stop()
        c.stop()
        let doc = try #require(DocumentID(hex: it.id))
        let ownerOps = try Store(path: a.dir.path + "/places.sqlite").ops(of: doc)
        #expect(Set(ownerOps.map(\.header.epoch)) == [0, 1, 2])
        // Bruno (removed at epoch 0) and Carla (removed at epoch 1) hold only the keys of
        // the epochs they were members in, and none of the ops written after.
        for (node, lastEpoch) in [(b, UInt32(0)), (c, UInt32(1))] {
            let identity = try KeyFileTest.identity(node.dir.path)
            let store = try Store(path: node.dir.path + "/places.sqlite")
            let keys = try store.sealedKeys().filter { $0.doc == doc }
            #expect(keys.map(\.epoch).sorted() == Array(0...lastEpoch), "\(node.name)")
            #expect(try store.ops(of: doc).allSatisfy { $0.header.epoch <= lastEpoch }, "\(node.name)")
            for op in ownerOps where op.header.epoch > lastEpoch {
                for sealed in keys {
                    let key = try SealedBox.open(sealed.sealed, with: identity)
                    let opened = try? SecretBox.open(
                        op.ciphertext, key: key, associatedData: OpCrypto.associatedData(op.header))
                    #expect(opened == nil, "\(node.name) opened an op of epoch \(op.header.epoch)")
                }
            }
        }
    }

    @Test("an edit concurrent with its author's removal is dropped on every daemon; earlier edits stay")
    func concurrentEditAndRemoval() async throws {
        // Ana and Bruno reach each other only through Carla's box.
        let a = try SyncNode("Ana"), b = try SyncNode("Bruno"), c = try SyncNode("Carla")
        try a.addPeer(c)
        try b.addPeer(c)
        let it = try a.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Faro"}"#)
        let carlaJoined = try c.join(try #require(try a.link(it.id, #"{"role":"viewer"}"#).url))
        #expect(carlaJoined.status == 200, "\(carlaJoined.text)")
        let brunoJoined = try b.join(try #require(try a.link(it.id, #"{"role":"editor"}"#).url))
        #expect(brunoJoined.status == 200, "\(brunoJoined.text)")
        // The join dialled Ana directly (the link's address); a restart leaves Bruno with
        // his static peer, Carla, only.
        b.stop()
        try b.start()
        _ = try b.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(it.id)", json: #"{"notes":"before"}"#)
        try await eventually("the owner has Bruno's first edit, through Carla") { a.notes(it.id) == "before" }

        // Carla's box is off: Bruno edits and Ana removes him, neither seeing the other.
        c.stop()
        _ = try b.d.call(
            Itinerary.self, "PATCH", "/v1/itineraries/\(it.id)", json: #"{"notes":"concurrent","transportation":"car"}"#
        )
        _ = try a.d.call(MemberList.self, "DELETE", "/v1/itineraries/\(it.id)/members/\(b.id)")
        try c.start()
        try await eventually("Ana and Carla converge") {
            let (x, y) = (try a.itineraryJSON(it.id), try c.itineraryJSON(it.id))
            return x != nil && x == y && c.notes(it.id) == "before"
        }
        try await Task.sleep(for: .seconds(1.5))
        for node in [a, c] {
            let shown = try node.d.call(Itinerary.self, "GET", "/v1/itineraries/\(it.id)")
            #expect(shown.notes == "before" && shown.transportation == nil, "\(node.name)")
        }
        #expect(try a.itineraryJSON(it.id) == (try c.itineraryJSON(it.id)))
    }
}

enum RFC3339Test {
    static func string(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: date)
    }
}

enum KeyFileTest {
    /// The identity of a daemon whose key file is unsealed (`noPassphrase`).
    static func identity(_ dataDir: String) throws -> SigningKeyPair {
        let data = try Data(contentsOf: URL(fileURLWithPath: dataDir + "/identity.key"))
        return try JSONDecoder().decode(KeyFile.self, from: data).open(passphrase: nil)
    }
}

@Suite("Share links: leaving, deleting, unreachable members", .serialized)
struct ShareLinkLifecycleTests {
    @Test("a member's delete leaves (it stays for the others); the owner's delete removes it for everyone")
    func leaveAndDelete() async throws {
        let a = try SyncNode("Ana"), b = try SyncNode("Bruno"), c = try SyncNode("Carla")
        let it = try a.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Braga"}"#)
        let share = try a.d.cli(["share", it.id, "--role", "editor", "--qr"])
        #expect(share.status == 0, "\(share.stderr)")
        let lines = share.stdout.split(separator: "\n")
        let url = String(try #require(lines.first))
        #expect(url.hasPrefix("places://join/") && share.stdout.contains("█"))
        #expect(share.stderr.contains("editor link"))
        #expect(try b.join(url).status == 200)
        #expect(try c.join(url).status == 200)

        let left = try c.d.cli(["itinerary", "delete", it.id])
        #expect(left.status == 0 && left.stdout.contains("left itinerary"), "\(left.stdout)")
        #expect(try c.d.call(ItineraryList.self, "GET", "/v1/itineraries").count == 0)
        try await eventually("the others see Carla leave") {
            let members = try a.d.call(MemberList.self, "GET", "/v1/itineraries/\(it.id)/members")
            return members.members.map(\.name) == ["Ana", "Bruno"]
        }
        let stillThere = try b.d.send("GET", "/v1/itineraries/\(it.id)").status
        #expect(stillThere == 200)
        let activity = try a.d.call(ActivityList.self, "GET", "/v1/itineraries/\(it.id)/activity")
        #expect(activity.activity.contains { $0.summary == "Carla left the itinerary" })

        let deleted = try a.d.cli(["itinerary", "delete", it.id])
        #expect(deleted.status == 0 && deleted.stdout.contains("for every member"))
        try await eventually("the owner's delete reaches Bruno") {
            try b.d.send("GET", "/v1/itineraries/\(it.id)").status == 404
        }
    }

    @Test("a link whose members are all unreachable fails after the wait, and nothing is kept")
    func unreachableMembers() async throws {
        let a = try SyncNode("Ana"), b = try SyncNode("Bruno")
        let it = try a.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Evora"}"#)
        let link = try #require(try a.link(it.id, #"{"role":"viewer"}"#).url)
        a.stop()
        let started = ContinuousClock.now
        let r = try b.join(link, wait: 2)
        #expect(r.status == 504 && b.problemCode(r.text) == "no-member-reachable", "\(r.text)")
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(try b.d.call(ItineraryList.self, "GET", "/v1/itineraries").count == 0)
        // Once the owner is back, the same link works.
        try a.start()
        #expect(try b.join(link).status == 200)
    }
}
