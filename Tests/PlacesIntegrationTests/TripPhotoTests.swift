import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Photos in a trip's conversation between real daemons (issue 32, `Protocol/sync.md` §7.4):
/// Ana's trip "Porto" has Dana, who joined through a share link and is no friend of Ana's.
/// Ana's photo reaches Dana's daemon from Ana's, and Dana's photo reaches Ana's; Mallory, a
/// member of another of Ana's trips who knows the photo's id, is refused it (and given the
/// photo of her own trip, so the refusal is the membership's); once Dana is removed, a photo
/// Ana sends reaches her no more.
@Suite("Trip message photos between real daemons", .serialized)
struct TripPhotoTests {
    static func send(_ node: SyncNode, _ trip: String, _ text: String, photo: String) throws -> String {
        let r = try node.d.send(
            "POST", "/v1/messages", json: #"{"to":"trip:\#(trip)","text":"\#(text)","photo":"\#(photo)"}"#)
        guard r.status == 201, let id = try TripConversationTests.json(r)["id"]?.stringValue else {
            throw HarnessError("\(node.name): POST /v1/messages → \(r.status): \(r.text)")
        }
        return id
    }

    /// The photo ids of the message with `text` as `node` shows the trip's conversation.
    static func photos(_ node: SyncNode, _ trip: String, of text: String) throws -> [String] {
        let r = try node.d.send("GET", "/v1/conversations/trip:\(trip)/messages?limit=200&peek=true")
        guard r.status == 200 else { return [] }
        let messages = (try TripConversationTests.json(r)["messages"]?.arrayValue ?? [])
            .map(HostileTripMessageTests.object)
        let message = messages.first { $0["text"] == .string(text) }
        return (message?["photos"]?.arrayValue ?? []).compactMap {
            HostileTripMessageTests.object($0)["id"]?.stringValue
        }
    }

    /// What a peer answers to a want of `hash` within 2 seconds: "chunk", "missing", or nothing.
    static func answers(_ session: PeerSession, _ hash: [UInt8]) throws -> [String] {
        try session.send(Replicator.blobWant(hash, offset: 0))
        return try session.drain(for: 2).compactMap { message in
            switch message.kind {
            case .blobChunk(let chunk)? where [UInt8](chunk.hash) == hash: "chunk"
            case .blobMissing(let missing)? where [UInt8](missing.hash) == hash: "missing"
            default: nil
            }
        }
    }

    @Test("a member who joined by link gets a trip photo from its author; a non-member and a removed member do not")
    func tripPhotos() async throws {
        let ana = try SyncNode("Ana"), dana = try SyncNode("Dana")
        try dana.addPeer(ana)
        try ana.addPeer(dana)
        let porto = try ana.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Porto"}"#).id
        let link = try ana.link(porto, #"{"role":"viewer"}"#)
        let joined = try dana.join(try #require(link.url))
        #expect(joined.status == 200, "\(joined.text)")
        #expect(try ana.d.send("GET", "/v1/friends/\(dana.id)").status == 404, "Dana is no friend of Ana's")

        // Ana's photo reaches Dana, whole, from Ana's daemon.
        let river = try PhotoSyncTests.addPhoto(ana, PhotoSyncTests.jpeg(bytes: 700_000, seed: 41))
        _ = try Self.send(ana, porto, "the river", photo: river.id)
        let held = try #require(try PhotoSyncTests.photoBytes(ana, river.id))
        try await eventually("Dana's daemon holds the photo of Ana's message", timeout: .seconds(40)) {
            try PhotoSyncTests.photoBytes(dana, river.id) == held
        }
        #expect(try Self.photos(dana, porto, of: "the river") == [river.id])
        #expect(Blake2b.hash256(held) == HexCoding.decode(river.id), "the bytes hash to the photo's id")

        // A viewer's photo reaches the owner the same way.
        let tiles = try PhotoSyncTests.addPhoto(dana, PhotoSyncTests.jpeg(bytes: 200_000, seed: 42))
        _ = try Self.send(dana, porto, "tiles", photo: tiles.id)
        try await eventually("Ana's daemon holds the photo of Dana's message", timeout: .seconds(40)) {
            try PhotoSyncTests.photoBytes(ana, tiles.id) != nil
        }

        // Mallory is a member of Ana's other trip (so no stranger) and knows the id: refused.
        let lisbon = try ana.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Lisbon"}"#).id
        let mallory = try AdversarialPeer()
        try ana.share(lisbon, with: mallory.humanID, role: "viewer")
        let session = try mallory.connect(
            to: ana.address, hello: AdversarialPeer.cardHello(features: AdversarialPeer.features))
        defer { session.close() }
        let tram = try PhotoSyncTests.addPhoto(ana, PhotoSyncTests.jpeg(bytes: 50_000, seed: 43))
        _ = try Self.send(ana, lisbon, "the tram", photo: tram.id)
        #expect(try Self.answers(session, HexCoding.decode(river.id) ?? []) == ["missing"], "another trip's photo")
        #expect(try Self.answers(session, HexCoding.decode(tiles.id) ?? []) == ["missing"], "Dana's, held by Ana")
        #expect(try Self.answers(session, HexCoding.decode(tram.id) ?? []) == ["chunk"], "her own trip's photo")

        // Dana removed: a photo Ana sends after never reaches her.
        let removed = try ana.d.send("DELETE", "/v1/itineraries/\(porto)/members/\(dana.id)")
        #expect(removed.status == 200, "\(removed.text)")
        let bridge = try PhotoSyncTests.addPhoto(ana, PhotoSyncTests.jpeg(bytes: 60_000, seed: 44))
        _ = try Self.send(ana, porto, "the bridge", photo: bridge.id)
        try await Task.sleep(for: .seconds(3))
        #expect(try PhotoSyncTests.photoBytes(dana, bridge.id) == nil)
        #expect(PhotoSyncTests.blobFiles(dana, bridge.id).isEmpty, "no partial download either")
        #expect(try Self.photos(dana, porto, of: "the bridge").isEmpty)
        #expect(try PhotoSyncTests.photoBytes(dana, river.id) == held, "what she got before stays")
    }
}
