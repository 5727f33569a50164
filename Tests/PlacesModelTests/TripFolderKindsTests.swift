import Testing

@testable import PlacesModel

/// The trip folder's kinds are declarations only: validation of peers' ops and local writes,
/// merge and activity words all come from `Schema+TripFolder.swift`.
@Suite struct TripFolderKindsTests {
    let doc = DocumentID(hex: "0123456789abcdef0123456789abcdef")!
    let hotel = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    let eur120 = Money(amountMinor: 12_000, currency: "EUR")

    func refusal(_ change: Change) -> String? {
        Schema.shipped.refusal(of: change, rootID: doc.hex, documentKind: "itinerary")
    }

    @Test func opsFromPeersAreValidatedByTheDeclaration() {
        var write = EntityWrite<LodgingFields>.create(hotel)
        write.set(LodgingFields.title, to: "Casa do Conto")
        write.set(LodgingFields.price, to: eur120)
        write.set(LodgingFields.start, to: "2027-05-01T15:00")
        write.set(LodgingFields.timeZone, to: "Europe/Lisbon")
        for change in write.changes { #expect(refusal(change) == nil) }

        let tooDear = Change.set(LodgingFields.price, of: hotel, to: Money(amountMinor: -1, currency: "EUR"))
        #expect(refusal(tooDear) == "'price.amountMinor' must be between 0 and 10^12")
        let badTime = Change.set(LodgingFields.end, of: hotel, to: "2027-05-01T24:00")
        #expect(
            refusal(badTime)
                == "'end' must be a date (YYYY-MM-DD) or a local date and time (YYYY-MM-DDTHH:MM)")
        let badZone = Change.set(LodgingFields.timeZone, of: hotel, to: "Europe/Lisbon; DROP")
        #expect(refusal(badZone) == "'timeZone' must be an IANA time zone name such as Europe/Lisbon")
        let unknown = Change.set(entity: hotel, kind: .lodging, field: "stars", value: .int(5), old: nil)
        #expect(refusal(unknown) == "a lodging has no field 'stars'")
        let foreignField = Change.set(entity: hotel, kind: .food, field: "mode", value: .string("train"), old: nil)
        #expect(refusal(foreignField) == "a food has no field 'mode'")
        let badMode = Change.set(TransportFields.mode, of: hotel, to: "rocket")
        #expect(refusal(badMode) == "'mode' must be one of bus, car, ferry, flight, other, train")
        let rating = Change.set(FoodFields.rating, of: hotel, to: 5.5)
        #expect(refusal(rating) == "'rating' must be a number from 0 to 5")
        #expect(
            refusal(.create(LodgingFields.self, doc.hex))
                == "a lodging entity id must be 32 lowercase hex characters other than the document id")
        // Optional coordinates may be cleared; present ones are in range.
        let cleared = Change.set(
            entity: hotel, kind: .food, field: "location.latitude", value: .null, old: .number(41.1))
        #expect(refusal(cleared) == nil)
        let far = Change.set(entity: hotel, kind: .food, field: "location.latitude", value: .number(91), old: nil)
        #expect(refusal(far) == "'location.latitude' 91.0 is out of range: it must be between -90 and 90")
    }

    @Test func localWritesAreValidatedByTheDeclaration() throws {
        let stored = try ActivityFields.schema.validatedFields(
            ["title": .string("  Tram 28 "), "booked": .bool(false), "location.latitude": .int(38)], creating: true)
        #expect(stored.map(\.0) == ["booked", "location.latitude", "title"])
        #expect(stored.last?.1 == .string("Tram 28"))
        #expect(throws: FieldError("title", "'title' is required")) {
            try FoodFields.schema.validatedFields(["notes": .string("x")], creating: true)
        }
        #expect(throws: FieldError("mode", "'mode' is required")) {
            try TransportFields.schema.validatedFields(["title": .string("Train")], creating: true)
        }
    }

    @Test func mergeFollowsTheDeclaredRules() {
        let other = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
        var first = EntityWrite<ActivityFields>.create(hotel)
        first.set(ActivityFields.title, to: "Tram 28")
        first.set(ActivityFields.position, to: "m")
        var second = EntityWrite<ActivityFields>.create(other)
        second.set(ActivityFields.title, to: "Fado")
        second.set(ActivityFields.position, to: "h")
        var edit = EntityWrite<ActivityFields>.update(hotel)
        edit.set(ActivityFields.price, to: eur120)

        var a = DocumentState(), b = DocumentState()
        a.apply(lamport: 1, author: "aa", changes: first.changes + second.changes)
        a.apply(lamport: 2, author: "bb", changes: edit.changes)
        b.apply(lamport: 2, author: "bb", changes: edit.changes)
        b.apply(lamport: 1, author: "aa", changes: first.changes + second.changes)
        #expect(a == b)
        #expect(a.items(of: .activity).map(\.id) == [other, hotel])
        #expect(a.entities[hotel]?.fields[ActivityFields.price] == eur120)
        #expect(ActivityAction.ofSet(kind: .food, field: "position", value: .string("p")) == .moved)
    }

    @Test func activityReadsInTheDeclaredWords() {
        let row = ActivityWording.Row(
            action: "edited", kind: "lodging", entity: hotel, author: "aa", field: "start",
            old: .string("2027-05-01"), new: .string("2027-05-02"))
        #expect(
            ActivityWording.summary(row, who: "Ana", subject: "", entityName: "the stay at Casa")
                == "Ana changed the check-in of the stay at Casa from “2027-05-01” to “2027-05-02”")
        var cleared = row
        (cleared.kind, cleared.field, cleared.new) = ("transport", "bookingReference", .null)
        #expect(
            ActivityWording.summary(cleared, who: "Ana", subject: "", entityName: "the train Porto")
                == "Ana cleared the booking reference of the train Porto")
    }
}

@Suite struct TripFolderActivityWordsTests {
    func line(
        _ action: String, _ kind: String, field: String? = nil, old: JSONValue? = nil, new: JSONValue? = nil,
        fields: [String: JSONValue]
    ) -> String {
        ActivityWording.summary(
            .init(action: action, kind: kind, entity: "e1", author: "aa", field: field, old: old, new: new),
            who: "Bruno", subject: "", entityName: ActivityWording.itemPhrase(kind: kind, fields: fields))
    }

    @Test func itemsAreNamedByWhatTheyAre() {
        let train: [String: JSONValue] = [
            "title": .string("Lisbon → Porto"), "mode": .string("train"), "start": .string("2027-05-03T09:10"),
        ]
        #expect(line("created", "transport", fields: train) == "Bruno added the train Lisbon → Porto on 3 May")
        #expect(line("deleted", "transport", fields: train) == "Bruno removed the train Lisbon → Porto on 3 May")
        let stay: [String: JSONValue] = ["title": .string("Casa Porto"), "start": .string("2027-05-01")]
        #expect(
            line(
                "edited", "lodging", field: "end", old: .string("2027-05-04"), new: .string("2027-05-05"), fields: stay)
                == "Bruno changed the check-out of the stay at Casa Porto from 1 May from “2027-05-04” to “2027-05-05”")
        #expect(line("moved", "activity", fields: ["title": .string("Fado")]) == "Bruno moved Fado")
        let sunscreen: [String: JSONValue] = ["text": .string("Sunscreen")]
        #expect(
            line("edited", "checklistItem", field: "checked", new: .bool(true), fields: sunscreen)
                == "Bruno ticked “Sunscreen” on the checklist")
        #expect(line("created", "checklistItem", fields: sunscreen) == "Bruno added “Sunscreen” on the checklist")
    }
}
