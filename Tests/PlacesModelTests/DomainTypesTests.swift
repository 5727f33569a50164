import Testing

@testable import PlacesModel

/// The typed domain keeps the exact strings ops, the store and the API use, and the typed
/// builders write exactly the changes the hand-built ones did.
@Suite struct DomainTypesTests {
    @Test func rawStringsAreTheStoredOnes() {
        #expect(Role.allCases.map(\.rawValue) == ["owner", "editor", "viewer", "removed", "left"])
        #expect(Role.text(nil) == "none")
        #expect(Role.text(.editor) == "editor")
        #expect(LinkState.allCases.map(\.rawValue) == ["live", "expired", "used-up", "revoked"])
        #expect(
            ActivityAction.allCases.map(\.rawValue) == [
                "created", "edited", "deleted", "restored", "moved", "joined", "shared", "unshared", "left", "viewed",
            ])
        #expect(
            EventType.allCases.map(\.rawValue) == [
                "hello", "changed", "login", "logout", "peer", "shared", "viewed", "invited",
            ])
        #expect(FieldRule.fields[.member]?["role"] == .oneOf(["editor", "viewer", "removed", "left"]))
        #expect(FieldRule.fields[.link]?["role"] == .oneOf(["editor", "viewer"]))
    }

    @Test func linkStatePrecedence() {
        #expect(LinkState.of(revoked: true, expiresAtMs: 0, uses: 1, redeemed: 1, nowMs: 5) == .revoked)
        #expect(LinkState.of(revoked: false, expiresAtMs: 5, uses: 1, redeemed: 1, nowMs: 5) == .expired)
        #expect(LinkState.of(revoked: false, expiresAtMs: 6, uses: 1, redeemed: 1, nowMs: 5) == .usedUp)
        #expect(LinkState.of(revoked: false, expiresAtMs: nil, uses: nil, redeemed: 9, nowMs: 5) == .live)
    }

    @Test func idsConvertWithoutLoss() throws {
        let hex = String(repeating: "ab", count: 32)
        let member = try #require(MemberID(entity: hex))
        #expect(member.entityID == hex && member.bytes.count == 32)
        #expect(MemberID(bytes: member.bytes) == member)
        #expect(MemberID(entity: hex.uppercased()) == nil)  // ops carry lowercase only
        #expect(MemberID(hex: hex.uppercased()) == member)  // the API accepts either case
        #expect(LinkID(entity: hex) == nil)
        #expect(ItemID(entity: String(repeating: "0f", count: 16))?.hex == String(repeating: "0f", count: 16))
        let doc = try #require(DocumentID(hex: String(repeating: "01", count: 16)))
        #expect(doc.rootEntityID == doc.hex)
    }

    @Test func typedBuildersWriteTheSameChanges() {
        let id = String(repeating: "c", count: 32)
        var stop = EntityWrite<StopFields>.create(id)
        stop.set(StopFields.placeID, to: "p1")
        stop.set(StopFields.position, to: "h")
        stop.set(StopFields.latitude, to: 45.0)
        stop.set("address", to: .null)
        #expect(
            stop.changes == [
                .create(entity: id, kind: .stop),
                .set(entity: id, kind: .stop, field: "placeId", value: .string("p1"), old: nil),
                .set(entity: id, kind: .stop, field: "position", value: .string("h"), old: nil),
                .set(entity: id, kind: .stop, field: "latitude", value: .int(45), old: nil),
                .set(entity: id, kind: .stop, field: "address", value: .null, old: nil),
            ])
        #expect(
            Change.tombstone(entity: id, kind: .place)
                == .set(entity: id, kind: .place, field: "deleted", value: .bool(true), old: .bool(false)))
        #expect(
            Change.set(LinkFields.uses, of: id, to: 3)
                == .set(entity: id, kind: .link, field: "uses", value: .number(Double(3)), old: nil))
        #expect(
            Change.set(MemberFields.role, of: id, to: .left, old: .editor)
                == .set(entity: id, kind: .member, field: "role", value: .string("left"), old: .string("editor")))
        #expect(
            Change.set(ItineraryFields.notes, of: id, to: nil)
                == .set(
                    entity: id, kind: .itinerary, field: "notes", value: .null, old: nil))
    }

    @Test func shippedActivityWordingIsUnchanged() {
        func line(_ action: String, _ kind: String, field: String? = nil, old: JSONValue? = nil, new: JSONValue?)
            -> String
        {
            ActivityWording.summary(
                .init(
                    action: action, kind: kind, entity: "e1234567890", author: "aa", field: field, old: old, new: new),
                who: "Ana", subject: "Bruno", entityName: "Belém")
        }
        #expect(
            line("edited", "itinerary", field: "lodgingPrice", old: .string("a"), new: .string("b"))
                == "Ana changed lodgingPrice from “a” to “b”")
        #expect(
            line("edited", "itinerary", field: "lodging.name", new: .string("Casa"))
                == "Ana set lodging.name to “Casa”")
        #expect(line("edited", "place", field: "notes", old: .string("a"), new: .null) == "Ana cleared notes")
        #expect(line("shared", "link", new: .string("editor")) == "Ana made an editor link (e1234567)")
        #expect(line("shared", "member", new: .string("viewer")) == "Ana shared the itinerary with Bruno as viewer")
        #expect(line("edited", "member", field: "role", new: .string("viewer")) == "Ana made Bruno viewer")
        #expect(line("created", "itinerary", new: .string("Lisbon")) == "Ana created the itinerary “Lisbon”")
        #expect(line("deleted", "stop", new: .bool(true)) == "Ana removed “Belém” from the places to go")
        #expect(line("moved", "stop", new: .string("h")) == "Ana moved “Belém” in the places to go")
    }
}
