import Foundation
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesTestSupport
import Testing

@testable import PlacesDaemon

/// `SyncComponent`'s itinerary list and root names, kept per commit generation: a peer list
/// or a session's opening after any write must see that write.
@Suite("Sync component: itineraries and names kept until a commit")
struct SyncComponentKeptListsTests {
    @Test(
        "a rename, a new trip and a trip's first name show at the next read; a read with no write between gives the same"
    )
    func keptUntilCommit() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let store = try Store(path: dir.path + "/places.sqlite")
        let identity = try SigningKeyPair()
        var keyring = Keyring()
        func trip(_ name: String?) throws -> DocumentID {
            let doc = DocumentID(bytes: SecureRandom.bytes(16))!
            let key = try SecretBox.randomKey()
            try store.createDocument(
                doc, kind: .itinerary, owner: identity.publicKey,
                sealedKey: try SealedBox.seal(key, to: identity.publicKey), timeMs: 0)
            keyring.insert(key, doc: doc, epoch: 0)
            if let name { try rename(doc, name, create: true) }
            return doc
        }
        func rename(_ doc: DocumentID, _ name: String, create: Bool = false) throws {
            let set = Change.set(entity: doc.hex, kind: .itinerary, field: "name", value: .string(name), old: nil)
            _ = try store.append(
                [
                    Store.Edit(
                        doc: doc, changes: create ? [.create(entity: doc.hex, kind: .itinerary), set] : [set], timeMs: 1
                    )
                ],
                identity: identity, keyring: keyring)
        }
        var sync = SyncComponent()
        let lisbon = try trip("Lisbon")
        #expect(sync.itineraryRecords(store).map(\.id) == [lisbon])
        #expect(sync.rootNames(of: [lisbon], store) == [lisbon: "Lisbon"])
        #expect(sync.rootNames(of: [lisbon], store) == [lisbon: "Lisbon"])
        try rename(lisbon, "Porto")
        #expect(sync.rootNames(of: [lisbon], store)[lisbon] == "Porto")
        let unnamed = try trip(nil)
        #expect(Set(sync.itineraryRecords(store).map(\.id)) == [lisbon, unnamed])
        #expect(sync.rootNames(of: [lisbon, unnamed], store)[unnamed] == nil)
        try rename(unnamed, "Faro", create: true)
        #expect(sync.rootNames(of: [lisbon, unnamed], store) == [lisbon: "Porto", unnamed: "Faro"])
        try store.close()
    }
}
