import Foundation
import PlacesCrypto
import Testing

@testable import PlacesModel
@testable import PlacesStore

/// The person's own tables and their marks (`Protocol/devices.md` §4.4): every change through
/// the store's API is marked for the library, in the same transaction; what another device
/// wrote is applied without a mark, so it is never written back.
@Suite("Friends, contacts, saved trips and settings are marked for the person's other devices")
struct PersonStateTests {
    @Test("each change is marked with its current value; a removal is marked with none")
    func changesAreMarked() throws {
        let f = try Fixture()
        let bruno = try SigningKeyPair().publicKey.bytes
        let trip = DocumentID(bytes: SecureRandom.bytes(16))!
        try f.store.clearPersonMarks([])
        #expect(!f.store.personStateMarked)
        try f.store.setFriend(bruno, state: .requested, name: "Bruno", timeMs: 1_000)
        try f.store.addContact(bruno, name: "Bruno", timeMs: 1_001)
        try f.store.setSaved(trip, true, timeMs: 1_002)
        try f.store.setPreference("discover.sort", "ascending")
        try f.store.setPreference("local.only-here", "x")
        #expect(f.store.personStateMarked)
        let marked = Dictionary(
            uniqueKeysWithValues: try f.store.markedPersonRows(limit: 10).map { ($0.row, $0.value) })
        let hex = HexCoding.encode(bruno)
        #expect(marked.count == 4, "a local. setting is never marked: \(marked.keys)")
        #expect(marked[Store.PersonRow(.friend, hex)] == .friend(state: .requested, name: "Bruno", sinceMs: 1_000))
        #expect(marked[Store.PersonRow(.contact, hex)] == .contact(name: "Bruno", addedMs: 1_001))
        #expect(marked[Store.PersonRow(.saved, trip.hex)] == .saved(savedMs: 1_002))
        #expect(marked[Store.PersonRow(.setting, "discover.sort")] == .setting("ascending"))

        try f.store.clearPersonMarks(Array(marked.keys))
        #expect(!f.store.personStateMarked)
        #expect(try f.store.removeContact(bruno))
        let removal = try f.store.markedPersonRows(limit: 10)
        #expect(
            removal.count == 1 && removal.first?.row == Store.PersonRow(.contact, hex) && removal.first?.value == nil)
    }

    @Test("another device's values are applied without a mark; a malformed row key is skipped")
    func adoptionMarksNothing() throws {
        let f = try Fixture()
        try f.store.clearPersonMarks([])
        let carla = HexCoding.encode(try SigningKeyPair().publicKey.bytes)
        let changed = try f.store.adoptPersonState([
            (Store.PersonRow(.friend, carla), .friend(state: .friend, name: "Carla", sinceMs: 5)),
            (Store.PersonRow(.contact, carla), .contact(name: "Carla", addedMs: 6)),
            (Store.PersonRow(.setting, "discover.sort"), .setting("descending")),
            (Store.PersonRow(.setting, "local.device"), .setting("not applied")),
            (Store.PersonRow(.contact, "not hex"), .contact(name: "?", addedMs: 7)),
            (Store.PersonRow(.saved, carla), .contact(name: "a value of another table", addedMs: 8)),
        ])
        #expect(Set(changed.map(\.table)) == [.friend, .contact, .setting] && changed.count == 3)
        #expect(try f.store.friends().map(\.state) == [.friend])
        #expect(try f.store.preference("discover.sort") == "descending")
        #expect(try f.store.preference("local.device") == nil)
        #expect(try f.store.markedPersonRows(limit: 10).isEmpty)
        // The same values again change nothing; a removal removes.
        #expect(
            try f.store.adoptPersonState([(Store.PersonRow(.contact, carla), .contact(name: "Carla", addedMs: 6))])
                .isEmpty)
        #expect(try f.store.adoptPersonState([(Store.PersonRow(.contact, carla), nil)]).count == 1)
        #expect(try f.store.contacts().isEmpty)
    }
}
