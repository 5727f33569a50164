import Foundation
import PlacesAccess
import PlacesCrypto
import Testing

@testable import PlacesModel
@testable import PlacesStore

// `Store.syncStates()`, the read of every document's vector and every itinerary's
// participants at an unlock, must give what the per-document reads give: a difference would
// make a restarted daemon summarize or push a trip to the wrong people.
@Suite("Sync state read for all documents at once")
struct SyncStateTests {
    @Test(
        "vectors and participants match the per-document reads: several authors, a removal, a grant ahead of its member"
    )
    func matchesPerDocumentReads() throws {
        let f = try Fixture()
        let editor = try SigningKeyPair(), viewer = try SigningKeyPair(), invited = try SigningKeyPair()
        _ = try share(f, with: editor, role: "editor")
        _ = try ownerWrite(
            f, [.create(entity: viewer.publicKey.hex, kind: .member)] + Edits.role(viewer.publicKey.hex, "viewer"),
            timeMs: 3)
        let all = try f.store.ops(of: f.doc).map(\.encoded)
        // The editor writes; the owner takes the op: the vector has two authors.
        let editorStore = try replica(of: f)
        _ = try editorStore.ingest(all, doc: f.doc, keyring: f.keyring)
        let edit = try editorStore.append(
            [Store.Edit(doc: f.doc, changes: Edits.addStop(sid("s1"), name: "Quay"), timeMs: 4)], identity: editor,
            keyring: f.keyring)
        #expect(try f.store.ingest(edit.map(\.encoded), doc: f.doc, keyring: f.keyring).rejected == nil)
        _ = try ownerWrite(f, Edits.role(viewer.publicKey.hex, "removed"), timeMs: 5)
        // A grant of the newest epoch to someone whose member op has not arrived.
        try f.store.saveGrant(
            try KeyGrant.issue(key: SecretBox.randomKey(), doc: f.doc, epoch: 0, to: invited.publicKey, by: f.identity))
        // A second itinerary with the owner alone, and a third with no ops at all.
        let lone = DocumentID(bytes: SecureRandom.bytes(16))!, empty = DocumentID(bytes: SecureRandom.bytes(16))!
        var keyring = f.keyring
        for doc in [lone, empty] {
            let key = try SecretBox.randomKey()
            try f.store.createDocument(
                doc, kind: .itinerary, owner: f.identity.publicKey,
                sealedKey: try SealedBox.seal(key, to: f.identity.publicKey), timeMs: 0)
            keyring.insert(key, doc: doc, epoch: 0)
        }
        _ = try f.store.append(
            [Store.Edit(doc: lone, changes: [.create(entity: lone.hex, kind: .itinerary)], timeMs: 1)],
            identity: f.identity, keyring: keyring)

        let (vectors, participants) = try f.store.syncStates()
        for doc in [f.doc, lone] {
            let single = try f.store.versionVector(of: doc)
            #expect(vectors[doc] == single)
        }
        #expect(vectors[f.doc]?.seqs.count == 2)
        let none = try f.store.versionVector(of: empty)
        #expect(vectors[empty] == nil && none == VersionVector())
        for doc in [f.doc, lone, empty] {
            let read = try #require(participants[doc])
            #expect(read.owner == f.identity.publicKey.bytes)
            let members = try f.store.members(of: doc).map(\.key)
            let vouched = try f.store.grantVouchedMembers(of: doc)
            #expect(Set(read.members) == Set(members))
            #expect(Set(read.vouched.map(HexCoding.encode)) == Set(vouched.map(HexCoding.encode)))
        }
        // What a user would see: the editor is a participant, the removed viewer is not, the
        // invited member counts through the grant.
        let trip = try #require(participants[f.doc])
        #expect(trip.members == [editor.publicKey.hex])
        #expect(trip.vouched == [invited.publicKey.bytes])
        #expect(participants[lone]?.members.isEmpty == true)
    }
}

@Suite("Root names of many documents")
struct RootNamesTests {
    @Test("names read for many documents at once are those read a few at a time; a name of another JSON type is none")
    func manyMatchFew() throws {
        let f = try Fixture()
        var keyring = f.keyring
        var docs = [DocumentID]()
        for i in 0..<100 {
            let doc = DocumentID(bytes: SecureRandom.bytes(16))!
            let key = try SecretBox.randomKey()
            try f.store.createDocument(
                doc, kind: .itinerary, owner: f.identity.publicKey,
                sealedKey: try SealedBox.seal(key, to: f.identity.publicKey), timeMs: 0)
            keyring.insert(key, doc: doc, epoch: 0)
            // Every tenth root's name is a number; every seventh trip has no root yet.
            if i % 7 != 3 {
                let name: JSONValue = i % 10 == 0 ? .int(7) : .string("Trip \(i) “Lisboa”")
                _ = try f.store.append(
                    [
                        Store.Edit(
                            doc: doc,
                            changes: [
                                .create(entity: doc.hex, kind: .itinerary),
                                .set(entity: doc.hex, kind: .itinerary, field: "name", value: name, old: nil),
                            ], timeMs: 1)
                    ], identity: f.identity, keyring: keyring)
            }
            docs.append(doc)
        }
        let asked = Array(docs.prefix(90))
        let many = try f.store.rootNames(of: asked)
        var few = [DocumentID: String]()
        for start in stride(from: 0, to: asked.count, by: 30) {
            few.merge(try f.store.rootNames(of: Array(asked[start..<min(start + 30, asked.count)]))) { $1 }
        }
        #expect(many == few)
        #expect(many.count == 90 - 13 - 7)
        #expect(many[docs[1]] == "Trip 1 “Lisboa”" && many[docs[0]] == nil && many[docs[3]] == nil)
        #expect(many[docs[95]] == nil)
    }
}
