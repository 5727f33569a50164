import Foundation
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesDaemon
@testable import PlacesStore

/// What a device takes from a sibling's library entity (`Protocol/devices.md` §4.4): only a
/// well-formed entity at its row's id; a setting kept under another setting's id, a `local.`
/// setting or a friend without a state is never applied.
@Suite("A sibling's friends and settings are applied only when well formed")
struct PersonEntryTests {
    static let doc = DocumentID(bytes: [UInt8](repeating: 7, count: 16))!

    static func record(
        _ kind: EntityKind, _ row: Store.PersonRow, id: EntityID? = nil, _ json: String, deleted: Bool = false
    )
        -> Store.EntityRecord
    {
        Store.EntityRecord(
            doc: doc, id: id ?? Engine.personEntity(row) ?? "", kind: kind, dataJSON: json, position: nil,
            deleted: deleted, ref: nil, createdBy: nil, createdMs: nil, updatedMs: nil)
    }

    @Test("well-formed entities become rows; tombstones remove them")
    func wellFormed() throws {
        let bruno = HexCoding.encode(try SigningKeyPair().publicKey.bytes)
        let friend = Store.PersonRow(.friend, bruno)
        let entry = Engine.personEntry(
            Self.record(
                .friend, friend,
                #"{"person":"\#(bruno)","state":"friend","name":"Bruno","since":"2027-05-01T10:00:00.000Z"}"#))
        #expect(entry?.row == friend)
        #expect(entry?.value == .friend(state: .friend, name: "Bruno", sinceMs: 1_809_165_600_000))
        let setting = Store.PersonRow(.setting, "discover.sort")
        let gone = Engine.personEntry(
            Self.record(.setting, setting, #"{"key":"discover.sort","value":"ascending"}"#, deleted: true))
        #expect(gone?.row == setting && gone?.value == nil)
    }

    @Test("an entity away from its row's id, a local setting or a malformed one is not applied")
    func refused() throws {
        let other = Store.PersonRow(.setting, "favorites.sharing")
        #expect(
            Engine.personEntry(
                Self.record(
                    .setting, Store.PersonRow(.setting, "discover.sort"), id: Engine.personEntity(other),
                    #"{"key":"discover.sort","value":"ascending"}"#)) == nil)
        let local = Store.PersonRow(.setting, "local.device")
        #expect(Engine.personEntry(Self.record(.setting, local, #"{"key":"local.device","value":"x"}"#)) == nil)
        let carla = HexCoding.encode(try SigningKeyPair().publicKey.bytes)
        let friend = Store.PersonRow(.friend, carla)
        #expect(Engine.personEntry(Self.record(.friend, friend, #"{"person":"\#(carla)","name":"Carla"}"#)) == nil)
        // A contact's entity read as a friend: its id is not the friend row's.
        #expect(
            Engine.personEntry(
                Self.record(
                    .friend, friend, id: Engine.personEntity(Store.PersonRow(.contact, carla)),
                    #"{"person":"\#(carla)","state":"friend","since":"2027-05-01T10:00:00Z"}"#)) == nil)
    }
}
