import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Issue 32 with real daemons: a trip message's photo is also kept at the trip's relays as an
/// encrypted copy under the itinerary (`Protocol/relay.md` §8), so members who are never
/// online together get each other's photos. Only Ana added the relay; Bruno, an editor, reads
/// it from the trip (§5.1). A member removed before a message gets neither the message nor
/// its photo from the relay, and a member announcing names of photos it did not write there
/// takes no one's photo and makes no one see other bytes, even when it names one first and
/// sends bytes of its own.
@Suite("Relay: trip message photos through the trip's relays (Protocol/relay.md §8)", .serialized)
struct RelayTripPhotoTests {
    /// Ana's trip shared with Bruno (editor) and with each of `others` (`(id, role)`), kept
    /// at `relay`, which only Ana added; `readers` (daemons among `others`) are dialled by Ana.
    /// Returns once Bruno and `readers` hold an edit Ana made after naming the relay in the
    /// trip (so they know it).
    static func tripOnRelay(
        _ tag: String, _ relay: RelayNode, others: [(String, String)] = [], readers: [SyncNode] = []
    ) async throws -> (SyncNode, SyncNode, String) {
        let (ana, bruno) = try RelayDocumentTests.friends("Ana\(tag)", "Bruno\(tag)")
        for node in readers {
            try ana.addPeer(node)
            try node.trust(ana)
        }
        let trip = try RelayDocumentTests.share("Sintra-\(tag)", from: ana, with: bruno)
        for (id, role) in others { try ana.share(trip, with: id, role: role) }
        try RelayDocumentTests.add(ana, relay)
        try await eventually("the relay keeps the trip", timeout: .seconds(20)) {
            try relay.summary.documents == 1 && relay.summary.bytes > 0
        }
        let marker = "relay-named-\(tag)"
        _ = try ana.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(trip)", json: #"{"notes":"\#(marker)"}"#)
        for node in [bruno] + readers {
            try await eventually("\(node.name) holds the trip with its relay", timeout: .seconds(30)) {
                (try? node.d.call(Itinerary.self, "GET", "/v1/itineraries/\(trip)").notes) == marker
            }
        }
        return (ana, bruno, trip)
    }

    /// The relay name of `photo` under the trip `trip`, computed here from relay.md §8.
    static func name(_ photo: String, _ trip: String) throws -> [UInt8] {
        let doc = try #require(DocumentID(bytes: HexCoding.decode(trip) ?? []))
        return try RelayFeedTests.relayName(photo: photo, doc: doc)
    }

    static func count(_ line: String, in log: String) -> Int { log.components(separatedBy: line).count - 1 }

    /// A scripted member's upload of the copy `name` under `trip` to a relay (relay.md §8):
    /// it announces the name, waits for the relay's wants and sends chunks of its own bytes.
    struct ScriptedCopy {
        let session: PeerSession
        let name: [UInt8]
        let total: UInt64

        /// Sends `RelayBlobs { doc: trip, names: [name] }`.
        init(announcing name: [UInt8], under trip: String, total: UInt64, on session: PeerSession) throws {
            (self.session, self.name, self.total) = (session, name, total)
            var announce = WireMessage()
            announce.relayBlobs.doc = Data(try #require(HexCoding.decode(trip)))
            announce.relayBlobs.names = [Data(name)]
            try session.send(announce)
        }

        /// Whether the relay wants the copy from `offset` within 5 s.
        func wanted(at offset: UInt64) throws -> Bool {
            try session.wait(timeout: 5) { message in
                guard case .blobWant(let want)? = message.kind else { return false }
                return [UInt8](want.hash) == name && want.offset == offset
            } != nil
        }

        /// Sends `count` random bytes at `offset`.
        func send(at offset: UInt64, count: Int, last: Bool) throws {
            var chunk = WireMessage()
            chunk.blobChunk.hash = Data(name)
            chunk.blobChunk.offset = offset
            chunk.blobChunk.data = Data(SecureRandom.bytes(count))
            chunk.blobChunk.last = last
            chunk.blobChunk.total = total
            try session.send(chunk)
        }
    }

    /// `author` (online) writes `text` in the trip with a new photo and goes away once the
    /// relay keeps its copy (the relay's `copies`-th); `reader` (away until then) comes back
    /// with only the relay to reach and gets the message and then the photo's bytes.
    static func relayed(
        from author: SyncNode, to reader: SyncNode, _ text: String, bytes: Int, seed: UInt32, trip: String,
        relay: RelayNode, copies: Int
    ) async throws -> (photo: Photo, bytes: [UInt8], text: String) {
        let photo = try PhotoSyncTests.addPhoto(author, PhotoSyncTests.jpeg(bytes: bytes, seed: seed))
        let original = try #require(try PhotoSyncTests.photoBytes(author, photo.id))
        _ = try TripPhotoTests.send(author, trip, text, photo: photo.id)
        try await eventually("the relay keeps the copy of \(author.name)'s photo", timeout: .seconds(30)) {
            Self.count("photo copy kept", in: relay.log) == copies
        }
        author.stop()
        try reader.start()
        try await eventually("\(reader.name) sees the message through the relay", timeout: .seconds(30)) {
            try TripPhotoTests.photos(reader, trip, of: text) == [photo.id]
        }
        try await eventually("the photo's bytes reach \(reader.name) through the relay", timeout: .seconds(30)) {
            try PhotoSyncTests.photoBytes(reader, photo.id) == original
        }
        return (photo, original, text)
    }

    @Test("photos of trip messages reach a member never online with their author, both ways; the relay reads none")
    func neverOnlineTogether() async throws {
        let tag = String(UUID().uuidString.prefix(8))
        let relay = try RelayNode()
        let (ana, bruno, trip) = try await Self.tripOnRelay(tag, relay)

        // Bruno is away; Ana writes in the trip with a photo, and goes away once the relay
        // keeps its copy. Bruno comes back with only the relay (which he never added) to reach.
        bruno.stop()
        let (dusk, duskBytes, duskText) = try await Self.relayed(
            from: ana, to: bruno, "dusk-\(tag) at Cabo da Roca", bytes: 600_000, seed: 61, trip: trip, relay: relay,
            copies: 1)
        #expect(bruno.d.log.contains("received a photo through a relay"))
        #expect(try bruno.d.call(RelayList.self, "GET", "/v1/relays").relays.isEmpty, "Bruno added no relay")

        // Bruno answers with a photo of his own through the relay the trip names, and goes away.
        let (tiles, tilesBytes, tilesText) = try await Self.relayed(
            from: bruno, to: ana, "tiles-\(tag) in Pena", bytes: 250_000, seed: 62, trip: trip, relay: relay,
            copies: 2)

        // The relay keeps two copies, and neither a photo's bytes nor its id, nor the texts.
        let copies = FileManager.default.enumerator(atPath: relay.dir.path + "/relay-blobs")?.allObjects ?? []
        #expect(copies.count == 2, "\(copies)")
        relay.d.stop()
        #expect(RelayDocumentTests.leaks(of: [duskText, tilesText, dusk.id, tiles.id], in: relay.dir.path).isEmpty)
        for bytes in [duskBytes, tilesBytes] {
            let middle = bytes.count / 2
            #expect(RelayFeedTests.files(holding: Data(bytes[middle..<(middle + 48)]), in: relay.dir.path).isEmpty)
        }
    }

    @Test(
        "a removed member gets neither the message nor its photo from the relay; names a member announces for another's photo take nothing"
    )
    func removedAndHostileMembers() async throws {
        let tag = String(UUID().uuidString.prefix(8))
        let relay = try RelayNode()
        let carla = try SyncNode("Carla\(tag)")
        let mallory = try AdversarialPeer()
        // Carla is a viewer Ana reaches directly; Mallory an editor who signs by hand.
        let (ana, bruno, trip) = try await Self.tripOnRelay(
            tag, relay, others: [(carla.id, "viewer"), (mallory.humanID, "editor")], readers: [carla])

        // Bruno is away. Mallory, on the trip's list, reaches the relay and is given a copy of
        // Ana's photo.
        bruno.stop()
        let session = try mallory.connect(
            to: relay.address, hello: AdversarialPeer.cardHello(features: AdversarialPeer.features))
        defer { session.close() }
        let river = try PhotoSyncTests.addPhoto(ana, PhotoSyncTests.jpeg(bytes: 120_000, seed: 63))
        let riverBytes = try #require(try PhotoSyncTests.photoBytes(ana, river.id))
        _ = try TripPhotoTests.send(ana, trip, "river-\(tag)", photo: river.id)
        try await eventually("the relay keeps the copy of Ana's first photo", timeout: .seconds(30)) {
            Self.count("photo copy kept", in: relay.log) == 1
        }
        let riverName = try Self.name(river.id, trip)
        #expect(try TripPhotoTests.answers(session, riverName) == ["chunk"], "a key on the list is given the copy")

        // She announces Ana's photo as her own, and a name of no photo: the first is held
        // whole already and wanted from no one; the second is kept and wanted from her.
        let bogus = SecureRandom.bytes(32)
        var announce = WireMessage()
        announce.relayBlobs.doc = Data(try #require(HexCoding.decode(trip)))
        announce.relayBlobs.names = [Data(riverName), Data(bogus)]
        try session.send(announce)
        let wanted = try session.drain(for: 3).compactMap { message -> [UInt8]? in
            if case .blobWant(let want)? = message.kind { return [UInt8](want.hash) }
            return nil
        }
        #expect(wanted.contains(bogus), "the name of no photo is wanted from its announcer")
        #expect(!wanted.contains(riverName), "Ana's copy is never wanted from Mallory")

        // Carla and Mallory are removed while Carla is away; Ana's next photo is not theirs.
        carla.stop()
        for id in [carla.id, mallory.humanID] {
            let removed = try ana.d.send("DELETE", "/v1/itineraries/\(trip)/members/\(id)")
            #expect(removed.status == 200, "\(removed.text)")
        }
        // Once the list signed after her removal reached the relay, Mallory is on no list there:
        // a stranger, whose wants are not answered. Her session is closed as a stranger too,
        // at the relay's next stranger check (10 s after it opened): if that check comes first,
        // her wants never reach the relay, and the close is the refusal.
        let mallorysID = "peer.id=\(mallory.humanID.prefix(7))"
        try await eventually("the relay refuses Mallory the copy once the new list reached it", timeout: .seconds(20)) {
            let answers = (try? TripPhotoTests.answers(session, riverName)) ?? []
            let refused =
                RelayHostileTests.logged(relay, mallorysID, "ignored a photo want from a stranger")
                || RelayHostileTests.logged(relay, mallorysID, "peer session closed", "sync.reason=stranger")
            return !answers.contains("chunk") && refused
        }
        let bridge = try PhotoSyncTests.addPhoto(ana, PhotoSyncTests.jpeg(bytes: 90_000, seed: 64))
        let bridgeBytes = try #require(try PhotoSyncTests.photoBytes(ana, bridge.id))
        let bridgeText = "bridge-\(tag)"
        _ = try TripPhotoTests.send(ana, trip, bridgeText, photo: bridge.id)
        try await eventually("the relay keeps the copy of Ana's second photo", timeout: .seconds(30)) {
            Self.count("photo copy kept", in: relay.log) == 2
        }
        // Asked by name on a new session (if the relay lets one open), the copy is not given.
        if let again = try? mallory.connect(
            to: relay.address, hello: AdversarialPeer.cardHello(features: AdversarialPeer.features))
        {
            defer { again.close() }
            let answers = (try? TripPhotoTests.answers(again, try Self.name(bridge.id, trip))) ?? []
            #expect(!answers.contains("chunk"), "a removed member is given no copy, even by name")
        }
        ana.stop()

        // Bruno, still a member, gets both from the relay alone: Ana's bytes, whatever Mallory
        // announced.
        try bruno.start()
        try await eventually("Bruno gets Ana's photos through the relay", timeout: .seconds(30)) {
            try PhotoSyncTests.photoBytes(bruno, bridge.id) == bridgeBytes
                && PhotoSyncTests.photoBytes(bruno, river.id) == riverBytes
        }
        #expect(try TripPhotoTests.photos(bruno, trip, of: bridgeText) == [bridge.id])
        bruno.stop()

        // Carla, removed while away, comes back with only the relay: neither message nor photo.
        let carlaLine = "peer.id=\(carla.id.prefix(7))"
        let before = Self.count(carlaLine, in: relay.log)
        try carla.start()
        try await eventually("Carla's daemon reaches for the relay the trip names", timeout: .seconds(30)) {
            Self.count(carlaLine, in: relay.log) > before
        }
        try await Task.sleep(for: .seconds(5))
        #expect(try TripPhotoTests.photos(carla, trip, of: "river-\(tag)") == [river.id], "what she had before stays")
        #expect(try TripPhotoTests.photos(carla, trip, of: bridgeText).isEmpty)
        let conversation = try carla.d.send("GET", "/v1/conversations/trip:\(trip)/messages?limit=200&peek=true")
        #expect(!conversation.text.contains(bridgeText), "the message after her removal never reached her")
        #expect(try PhotoSyncTests.photoBytes(carla, bridge.id) == nil)
        #expect(PhotoSyncTests.blobFiles(carla, bridge.id).isEmpty, "no partial download either")
    }

    @Test(
        "a member that names another's photo at the relay first and sends bytes of its own does not spoil the author's copy"
    )
    func claimedFirst() async throws {
        let tag = String(UUID().uuidString.prefix(8))
        let relay = try RelayNode()
        let mallory = try AdversarialPeer()
        let (ana, bruno, trip) = try await Self.tripOnRelay(tag, relay, others: [(mallory.humanID, "editor")])
        bruno.stop()
        let session = try mallory.connect(
            to: relay.address, hello: AdversarialPeer.cardHello(features: AdversarialPeer.features))
        defer { session.close() }

        // Ana added a photo she is about to send; Mallory knows its id and announces its name
        // under the trip first. The relay wants it from her, and takes her first bytes.
        let view = try PhotoSyncTests.addPhoto(ana, PhotoSyncTests.jpeg(bytes: 300_000, seed: 65))
        let viewBytes = try #require(try PhotoSyncTests.photoBytes(ana, view.id))
        let copy = try ScriptedCopy(
            announcing: try Self.name(view.id, trip), under: trip, total: UInt64(viewBytes.count), on: session)
        #expect(try copy.wanted(at: 0), "the relay wants the copy from the first to announce it")
        try copy.send(at: 0, count: 4_096, last: false)
        #expect(try copy.wanted(at: 4_096), "Mallory's bytes were taken as the copy's start")

        // Ana sends her message and announces the copy: what Mallory gave is dropped, and her
        // next chunk is refused.
        let announcedBefore = Self.count("photos announced to a relay", in: ana.d.log)
        _ = try TripPhotoTests.send(ana, trip, "view-\(tag)", photo: view.id)
        try await eventually("Ana announces her copy to the relay", timeout: .seconds(20)) {
            Self.count("photos announced to a relay", in: ana.d.log) > announcedBefore
        }
        try await Task.sleep(for: .milliseconds(500))
        try copy.send(at: 4_096, count: 4_096, last: false)
        try await eventually("the relay keeps Ana's copy", timeout: .seconds(30)) {
            Self.count("photo copy kept", in: relay.log) == 1
        }
        #expect(relay.log.contains("not a copy wanted from this key"), "Mallory's later chunk is refused")
        ana.stop()

        // Bruno, with only the relay to reach, gets Ana's bytes.
        try bruno.start()
        try await eventually("Bruno gets Ana's photo, not Mallory's bytes, through the relay", timeout: .seconds(30)) {
            try PhotoSyncTests.photoBytes(bruno, view.id) == viewBytes
        }
    }
}
