import Foundation
import PlacesCrypto
import Testing

@testable import PlacesModel
@testable import PlacesStore

/// The rule of a trip's conversation (`Protocol/sync.md` §8.1, "Trip messages"): every
/// member writes messages — viewers too, and nothing else for them — and only the author
/// writes a message, whoever receives the op and in whatever order.
@Suite("Store: trip messages are written by their authors only")
struct TripMessageRuleTests {
    /// A message by `author` (person key hex) with text, its id made of the author and a nonce.
    static func message(by author: SigningKeyPair, _ text: String, nonce: [UInt8]? = nil) -> (EntityID, [Change]) {
        let nonce = nonce ?? SecureRandom.bytes(16)
        let id = Store.tripMessageID(author: author.publicKey.bytes, nonce: nonce)!
        return (
            id,
            [
                .create(entity: id, kind: .message),
                .set(entity: id, kind: .message, field: "text", value: .string(text), old: nil),
                .set(entity: id, kind: .message, field: "author", value: .string(author.publicKey.hex), old: nil),
                .set(entity: id, kind: .message, field: "nonce", value: .string(HexCoding.encode(nonce)), old: nil),
            ]
        )
    }

    /// The author's delete for everyone: author and nonce restated, text cleared, tombstone.
    static func deletion(_ id: EntityID, author: String, nonce: String) -> [Change] {
        [
            .set(entity: id, kind: .message, field: "author", value: .string(author), old: .string(author)),
            .set(entity: id, kind: .message, field: "nonce", value: .string(nonce), old: .string(nonce)),
            .set(entity: id, kind: .message, field: "text", value: .null, old: nil),
            .tombstone(entity: id, kind: .message),
        ]
    }

    static func text(_ store: Store, _ f: Fixture, _ id: EntityID) throws -> String? {
        guard let record = try store.entity(in: f.doc, id: id), record.kind == .message, !record.deleted else {
            return nil
        }
        let fields = try JSONDecoder().decode([String: JSONValue].self, from: Data(record.dataJSON.utf8))
        return fields["text"]?.stringValue
    }

    @Test("a viewer writes its own messages, and nothing of anyone else's nor any other entity")
    func viewerWritesOnlyItsMessages() throws {
        let f = try Fixture()
        // One viewer per hostile op: a refused op would break the chain of the next one.
        let viewers = try (0..<6).map { _ in try Participant(f) }
        let setup =
            [try ownerWrite(f, Edits.itinerary(f) + Edits.addStop(sid("s1"), name: "Lunch"), timeMs: 1)]
            + (try viewers.enumerated().map { i, v in
                try ownerWrite(f, Edits.add(v.key, as: "viewer"), timeMs: 2 + Int64(i))
            })
        let ownerNonce = SecureRandom.bytes(16)
        let (ownerMessage, ownerChanges) = Self.message(by: f.identity, "meet at 8", nonce: ownerNonce)
        let said = try ownerWrite(f, ownerChanges, timeMs: 10)
        for viewer in viewers { try viewer.receive(setup + [said]) }

        // Its own message: stored, shown, and not an activity line.
        let (mine, mineChanges) = Self.message(by: viewers[0].identity, "on my way")
        let own = try viewers[0].write(mineChanges, timeMs: 11)
        try accept(f.store, [own], keyring: f.keyring)
        #expect(try Self.text(f.store, f, mine) == "on my way")
        #expect(
            try f.store.tripMessages(in: f.doc, before: nil, limit: 10).map(\.id).sorted()
                == [mine, ownerMessage].sorted())
        #expect(try !f.store.activity(of: f.doc).contains { $0.kind == "message" }, "messages are not activity")

        // Signed as the owner's: an id made of the owner's key, with the owner as author.
        let (_, forgedChanges) = Self.message(by: f.identity, "the trip is cancelled")
        let forged = try viewers[1].write(forgedChanges, timeMs: 12)
        #expect(try refusal(f.store, forged, keyring: f.keyring)?.contains("only by its author") == true)

        // Its own key as author, but the id of the owner's message: the id does not match.
        let takeover = try viewers[2].write(
            [
                .set(entity: ownerMessage, kind: .message, field: "text", value: .string("cancelled"), old: nil),
                .set(entity: ownerMessage, kind: .message, field: "author", value: .string(viewers[2].key), old: nil),
                .set(
                    entity: ownerMessage, kind: .message, field: "nonce", value: .string(HexCoding.encode(ownerNonce)),
                    old: nil),
            ], timeMs: 13)
        #expect(try refusal(f.store, takeover, keyring: f.keyring)?.contains("made of its author") == true)

        // Deleting the owner's message for everyone, restating the owner's name: refused.
        let delete = try viewers[3].write(
            Self.deletion(ownerMessage, author: f.identity.publicKey.hex, nonce: HexCoding.encode(ownerNonce)),
            timeMs: 14)
        #expect(try refusal(f.store, delete, keyring: f.keyring)?.contains("only by its author") == true)
        // A bare tombstone: refused too.
        let bare = try viewers[4].write([.tombstone(entity: ownerMessage, kind: .message)], timeMs: 15)
        #expect(try refusal(f.store, bare, keyring: f.keyring) != nil)
        #expect(try Self.text(f.store, f, ownerMessage) == "meet at 8", "nothing of it changed")

        // Any other entity: refused, as before; a message and a stop in one op: refused whole.
        let rename = try viewers[5].write(Edits.rename(sid("s1"), "Dinner"), timeMs: 16)
        #expect(try refusal(f.store, rename, keyring: f.keyring) == "viewers cannot edit")
        let (_, sneaky) = Self.message(by: viewers[0].identity, "and a stop")
        let mixed = try viewers[0].write(sneaky + Edits.addStop(sid("v1"), name: "Bar"), timeMs: 17)
        #expect(try refusal(f.store, mixed, keyring: f.keyring) == "viewers cannot edit")
        #expect(try stopName(f.store, f.doc, sid("s1")) == "Lunch")
    }

    @Test("the owner cannot write a member's message; the author deletes its own for everyone")
    func ownerAndAuthor() throws {
        let f = try Fixture()
        let editor = try Participant(f)
        let setup = try share(f, with: editor.identity, role: "editor")
        try editor.receive(setup)
        let nonce = SecureRandom.bytes(16)
        let (id, changes) = Self.message(by: editor.identity, "tickets bought", nonce: nonce)
        let said = try editor.write(changes, timeMs: 4)
        try accept(f.store, [said], keyring: f.keyring)

        // The owner, who may write anything else, may not write the editor's message.
        let store = try replica(of: f)
        _ = try store.ingest((setup + [said]).map(\.encoded), doc: f.doc, keyring: f.keyring)
        let overwrite = try f.store.append(
            [
                Store.Edit(
                    doc: f.doc,
                    changes: [.set(entity: id, kind: .message, field: "text", value: .string("no"), old: nil)],
                    timeMs: 5)
            ], identity: f.identity, keyring: f.keyring)[0]
        #expect(try refusal(store, overwrite, keyring: f.keyring)?.contains("only by its author") == true)
        #expect(try Self.text(store, f, id) == "tickets bought")

        // The author's own delete for everyone: "message deleted" on every replica.
        let deleted = try editor.write(
            Self.deletion(id, author: editor.key, nonce: HexCoding.encode(nonce)), timeMs: 6)
        try accept(store, [deleted], keyring: f.keyring)
        let record = try #require(try store.entity(in: f.doc, id: id))
        #expect(record.deleted && record.kind == .message)
        #expect(try Self.text(store, f, id) == nil)
    }

    @Test("a removed member's message written after its removal is refused")
    func removedMember() throws {
        let f = try Fixture()
        let viewer = try Participant(f)
        let setup = try share(f, with: viewer.identity, role: "viewer")
        let removal = try ownerWrite(f, Edits.role(viewer.key, "removed"), timeMs: 3)
        try viewer.receive(setup + [removal])
        let (_, changes) = Self.message(by: viewer.identity, "still here?")
        let late = try viewer.write(changes, timeMs: 4)
        #expect(try refusal(f.store, late, keyring: f.keyring) == "the author is not a member")
    }

    @Test("the rule reads only the op: ids, authors and nonces of every shape")
    func ruleShapes() throws {
        let ana = try SigningKeyPair(), bruno = try SigningKeyPair()
        let nonce = SecureRandom.bytes(16)
        let (id, changes) = Self.message(by: ana, "hi", nonce: nonce)
        #expect(Store.tripMessageRefusal(OpBody(timeMs: 1, changes: changes), person: ana.publicKey.hex) == nil)
        #expect(Store.tripMessageRefusal(OpBody(timeMs: 1, changes: changes), person: bruno.publicKey.hex) != nil)
        // Without the nonce, or with another one: refused.
        #expect(
            Store.tripMessageRefusal(OpBody(timeMs: 1, changes: Array(changes.dropLast())), person: ana.publicKey.hex)
                != nil)
        let other =
            changes.dropLast() + [
                .set(
                    entity: id, kind: .message, field: "nonce",
                    value: .string(HexCoding.encode(SecureRandom.bytes(16))),
                    old: nil)
            ]
        #expect(Store.tripMessageRefusal(OpBody(timeMs: 1, changes: Array(other)), person: ana.publicKey.hex) != nil)
        #expect(Store.tripMessageID(author: ana.publicKey.bytes, nonce: [1, 2]) == nil)
        // Ops without messages are not its business.
        #expect(Store.tripMessageRefusal(OpBody(timeMs: 1, changes: Edits.rename(sid("s"), "x")), person: "zz") == nil)
    }
}
