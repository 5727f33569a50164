import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Synchronization
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Friend-request floods (`sync.md` §7.1 bounds, applied to requests by §7.3: 8 per owner, 256
/// in all, dropped and logged "until the user answers").
extension HostileSocialPeerTests {
    /// Sends one honest friend request from each of `count` fresh identities, from 4 threads
    /// with at most 3 connections open each (the daemon allows 16 per address).
    static func requestFlood(_ v: SocialVictim, count: Int) throws {
        let workers = 4
        let address = v.node.address, reader = v.key
        let failure = Mutex<String?>(nil)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            do {
                var open = [PeerSession]()
                for i in stride(from: worker, to: count, by: workers) {
                    let peer = try AdversarialPeer()
                    let session = try peer.connectSocial(to: address, name: "Stranger \(i)")
                    var outbox = try OutboxDraft(author: peer, reader: reader.bytes)
                    try outbox.append(outbox.rootChanges)
                    try session.send(try outbox.offer(to: reader))
                    open.append(session)
                    if open.count >= 3 { open.removeFirst().close() }
                }
                for session in open {
                    _ = try session.drain(for: 0.05)
                    session.close()
                }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
        }
        if let failure = failure.withLock({ $0 }) { throw HarnessError("the request flood failed: \(failure)") }
    }

    @Test("friend requests from one identity and from 300 fresh ones: at most 1 and 256 kept; a friend is served")
    func friendRequestFlood() async throws {
        let v = try SocialVictim()
        let eve = try await v.befriend(try AdversarialPeer(), name: "Eve")
        // One identity asks again and again, with fresh grants, and under ids not its own.
        let m = try AdversarialPeer()
        let ms = try m.connectSocial(to: v.node.address, name: "Mallory")
        for _ in 0..<10 {
            var outbox = try OutboxDraft(author: m, reader: v.key.bytes)
            try outbox.append(outbox.rootChanges)
            try ms.send(try outbox.offer(to: v.key))
            var other = try OutboxDraft(
                author: m, reader: v.key.bytes, doc: DocumentID(bytes: SecureRandom.bytes(16)).orThrow("id"))
            try other.append(other.rootChanges)
            try ms.send(try other.offer(to: v.key))
        }
        _ = try ms.settle()
        #expect(
            v.friendInvitations().filter { $0["from"] as? String == m.humanID }.count == 1,
            "one identity has \(v.friendInvitations().count) friend requests")

        let started = ContinuousClock.now
        try Self.requestFlood(v, count: 300)
        try await eventually("the flood's requests are recorded", timeout: .seconds(15)) {
            v.friendInvitations().count >= 256
        }
        try await Task.sleep(for: .milliseconds(500))
        print("friend-request flood: 300 identities in \(ContinuousClock.now - started)")
        guard v.node.serving("a friend-request flood") else { return }
        let all = v.node.invitations() ?? []
        #expect(all.count == 256, "\(all.count) invitations kept (sync.md §7.1: 256 in all)")
        #expect(v.logged("dropped a friend request: too many are waiting"))
        let notes = try v.d.call(NotificationList.self, "GET", "/v1/notifications")
        #expect(notes.notifications.count <= 1_000, "\(notes.notifications.count) notifications kept")

        // The friend is served: a post of hers shows, the API answers at once.
        let probe = ContinuousClock.now
        #expect(try v.d.call(FriendList.self, "GET", "/v1/friends").friends.map(\.id) == [eve.humanID])
        #expect(ContinuousClock.now - probe < .seconds(1))
        try eve.push(Wire.post(text: "Eve after the flood"))
        try await eventually("Eve's post shows after the flood", timeout: .seconds(10)) {
            try v.feed().map(\.text) == ["Eve after the flood"]
        }
    }

    @Test("after the user declines a flood of requests, a new friend request is listed again")
    func declinedFloodDoesNotBlock() async throws {
        let v = try SocialVictim()
        try Self.requestFlood(v, count: 256)
        try await eventually("the flood fills the invitations", timeout: .seconds(15)) {
            v.friendInvitations().count == 256
        }
        for invitation in v.friendInvitations() {
            let id = try (invitation["id"] as? String).orThrow("invitation id")
            let r = try v.d.send("POST", "/v1/invitations/\(id)/decline")
            #expect(r.status == 200, "\(r.text)")
        }
        #expect(v.friendInvitations().isEmpty)
        // The user answered every request: a new one is kept (`sync.md` §7.1: dropped only
        // "until the user answers").
        let ana = try AdversarialPeer()
        let session = try ana.connectSocial(to: v.node.address, name: "Ana")
        var outbox = try OutboxDraft(author: ana, reader: v.key.bytes)
        try outbox.append(outbox.rootChanges)
        try v.deliver(outbox, from: session, seconds: 0.5)
        guard v.node.serving("a declined flood") else { return }
        #expect(
            v.friendInvitations().map { $0["from"] as? String } == [ana.humanID],
            "a new friend request is dropped after 256 declined ones: declined invitations count against the cap")
    }
}
