import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// A trip's conversation and its photos against an editor who signs ops and blob wants by
/// hand (issue 32, `Protocol/sync.md` §7.4 and §8.1). Mallory edits Ana's trip "Lisbon"
/// and is no member of Ana's "Porto". Ops on message ids that are not her own, of the old
/// id shape, of another kind with a trip message's shape, or naming 11 photos are refused
/// with their reasons; her own message naming Ana's Porto photo is stored, and still Ana
/// gives her that photo never (only Ana's own messages of a trip Mallory is in give), not
/// even after 300 wants; Ana's photo of Lisbon is given; once Mallory is removed, a photo
/// of Ana's later Lisbon message is not, asked by its id.
@Suite("Hostile trip-conversation photo peers (issue 32)", .serialized)
struct HostileTripPhotoTests {
    /// The descriptor of `photo`, as JSON text of a message's `photos`.
    static func descriptor(_ photo: Photo) -> String {
        #"{"id":"\#(photo.id)","contentType":"\#(photo.contentType)","bytes":\#(photo.bytes),"#
            + #""width":\#(photo.width),"height":\#(photo.height)}"#
    }

    /// Changes writing a trip message `id` with `author`, `nonce`, text "x", `sentAt` and
    /// `photos` (JSON text) when given.
    static func message(_ id: String, author: String, nonce: String, at: String, photos: String? = nil) -> [String] {
        HostileTripMessageTests.message(id, author: author, nonce: nonce, text: "x", sentAt: at)
            + (photos.map { [Wire.set(id, kind: "message", field: "photos", value: $0)] } ?? [])
    }

    @Test(
        "an editor's forged, old-shaped and other-kind message ids and 11 photos are refused; its own message naming another trip's photo gets it from no one"
    )
    func hostileEditorPhotos() async throws {
        var s = try SharedWithAdversary(
            role: "editor", hello: AdversarialPeer.cardHello(features: AdversarialPeer.features))
        let ana = s.owner, lisbon = s.itinerary.id, mallory = s.mallory
        let anaKey = try HumanID.decode(ana.id)
        let porto = try ana.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Porto"}"#).id
        let river = try PhotoSyncTests.addPhoto(ana, PhotoSyncTests.jpeg(bytes: 40_000, seed: 51))
        let tram = try PhotoSyncTests.addPhoto(ana, PhotoSyncTests.jpeg(bytes: 30_000, seed: 52))
        _ = try TripPhotoTests.send(ana, porto, "the river", photo: river.id)
        let tramID = try TripPhotoTests.send(ana, lisbon, "the tram", photo: tram.id)
        let anaMessage = String(tramID.dropLast(32))
        try s.absorb()

        let now = nowMs(), at = rfc3339(ms: now)
        let me = HexCoding.encode(mallory.key)
        let nonce = SecureRandom.bytes(16), nonceHex = HexCoding.encode(nonce)
        let mine = Store.tripMessageID(author: mallory.key, nonce: nonce) ?? ""
        let other = Store.tripMessageID(author: mallory.key, nonce: SecureRandom.bytes(16)) ?? ""
        let photos =
            "["
            + (0..<11).map { i in
                Self.descriptor(
                    Photo(
                        id: HexCoding.encode(Blake2b.hash256([UInt8(i)])), contentType: "image/jpeg", bytes: 1_000,
                        width: 10, height: 10))
            }.joined(separator: ",") + "]"
        let attacks: [(what: String, reason: String, changes: [String])] = [
            (
                "Ana's tram message tombstoned, restating her as its author", "written only by its author",
                [
                    Wire.set(anaMessage, kind: "message", field: "author", value: Wire.string(anaKey.hex)),
                    Wire.set(
                        anaMessage, kind: "message", field: "nonce",
                        value: Wire.string(HexCoding.encode(SecureRandom.bytes(16)))),
                    Wire.set(anaMessage, kind: "message", field: "text", value: "null"),
                    #"{"op":"set","entity":"\#(anaMessage)","kind":"message","field":"deleted","value":true}"#,
                ]
            ),
            (
                "her own message restated as Ana's after her own name", "written only by its author",
                Self.message(mine, author: me, nonce: nonceHex, at: at)
                    + [Wire.set(mine, kind: "message", field: "author", value: Wire.string(anaKey.hex))]
            ),
            (
                "a message whose id is not made of its nonce", "made of its author and its 'nonce'",
                Self.message(other, author: me, nonce: nonceHex, at: at)
            ),
            (
                "a message of the old 32-hex shape", "must be 48 lowercase hex",
                Self.message(String(mine.prefix(32)), author: me, nonce: nonceHex, at: at)
            ),
            (
                "a receipt with a trip message's id", "holds no receipt entities",
                [Wire.create(mine, kind: "receipt")]
            ),
            (
                "a checklist item with a trip message's id", "must be 32 lowercase hex",
                [Wire.create(mine, kind: "checklistItem")]
            ),
            (
                "a message naming 11 photos", "at most 10 photos",
                Self.message(mine, author: me, nonce: nonceHex, at: at, photos: photos)
            ),
        ]
        for attack in attacks {
            let stored = try s.attempt { try mallory.nextOp(in: $0, body: Wire.body(timeMs: "\(now)", attack.changes)) }
            guard ana.serving("an op with \(attack.what)") else { return }
            #expect(!stored, "\(attack.what) was stored")
        }
        let refusals = ana.d.log.split(separator: "\n").filter { $0.contains("rejected an op from a peer") }
        for attack in attacks {
            #expect(
                refusals.contains { $0.contains(attack.reason) },
                "no refusal saying “\(attack.reason)” for \(attack.what):\n\(refusals.joined(separator: "\n"))")
        }
        #expect(try TripPhotoTests.photos(ana, lisbon, of: "the tram") == [tram.id], "Ana's message stands")

        // Mallory's own message in Lisbon naming the photo of Ana's Porto message: stored
        // (it is hers), and it makes Ana give nothing.
        let named = Self.message(mine, author: me, nonce: nonceHex, at: at, photos: "[\(Self.descriptor(river))]")
        #expect(try s.attempt { try mallory.nextOp(in: $0, body: Wire.body(timeMs: "\(now)", named)) })
        #expect(try TripPhotoTests.photos(ana, lisbon, of: "x") == [river.id], "Mallory's message names it")
        let riverHash = HexCoding.decode(river.id) ?? []
        #expect(try TripPhotoTests.answers(s.session, riverHash) == ["missing"], "Porto's photo, named by Mallory")

        // A flood of wants for it: each answered missing, at once, and Ana keeps serving.
        for _ in 0..<300 { try s.session.send(Replicator.blobWant(riverHash, offset: 0)) }
        let answers = try s.session.drain(for: 3).compactMap { message -> String? in
            switch message.kind {
            case .blobChunk(let chunk)? where [UInt8](chunk.hash) == riverHash: "chunk"
            case .blobMissing(let missing)? where [UInt8](missing.hash) == riverHash: "missing"
            default: nil
            }
        }
        #expect(answers.count == 300 && answers.allSatisfy { $0 == "missing" }, "\(answers.count) answers")
        guard ana.serving("300 wants of a photo not given") else { return }

        // The photo of Ana's own Lisbon message is given: the refusals are the trip's.
        #expect(try TripPhotoTests.answers(s.session, HexCoding.decode(tram.id) ?? []) == ["chunk"])

        // Removed, Mallory asks for the photo of a later Lisbon message by its id: not given.
        let bridge = try PhotoSyncTests.addPhoto(ana, PhotoSyncTests.jpeg(bytes: 20_000, seed: 53))
        _ = try TripPhotoTests.send(ana, lisbon, "the bridge", photo: bridge.id)
        let removed = try ana.d.send("DELETE", "/v1/itineraries/\(lisbon)/members/\(mallory.humanID)")
        #expect(removed.status == 200, "\(removed.text)")
        #expect(try !TripPhotoTests.answers(s.session, HexCoding.decode(bridge.id) ?? []).contains("chunk"))
    }
}
