import Testing

@testable import PlacesModel

// A kind declared in a test only, the way the next issue adds its first one: one `EntityKind`
// name and one `…Fields` namespace, listed in a document. Everything below is derived from
// these lines; nothing else in the model knows about lodging. (It is not in `Schema.shipped`:
// peers would accept it before the feature lands.)
extension EntityKind {
    static let lodging = EntityKind(declaring: "lodging")
}

enum LodgingFields: EntityDeclaration {
    static let name = FieldKey<Self, String>(
        "name", .text(maxLength: 200, required: true), column: "name", label: "lodging name")
    static let address = FieldKey<Self, String>(
        "address", .text(maxLength: 500, required: false), label: "lodging address")
    static let latitude = FieldKey<Self, Double>("latitude", .latitude, column: "latitude")
    static let longitude = FieldKey<Self, Double>("longitude", .longitude, column: "longitude")
    static let checkIn = FieldKey<Self, String>("checkIn", .date, label: "check-in")
    static let checkOut = FieldKey<Self, String>("checkOut", .date, label: "check-out")
    static let confirmationCode = FieldKey<Self, String>(
        "confirmationCode", .text(maxLength: 100, required: false), label: "confirmation code")
    static let contact = FieldKey<Self, String>("contact", .text(maxLength: 500, required: false))
    static let url = FieldKey<Self, String>("url", .url, label: "lodging link")
    static let price = FieldKey<Self, Money>("price", .money, label: "lodging price")
    static let notes = FieldKey<Self, String>("notes", .text(maxLength: 10_000, required: false))
    static let position = FieldKey<Self, String>(FieldSpec.position)

    static let schema = EntitySchema(
        .lodging, id: .random,
        fields: [
            name, address, latitude, longitude, checkIn, checkOut, confirmationCode, contact, url, price, notes,
            position,
        ])
}

/// The shipped itinerary document with lodging items added.
let schemaWithLodging = Schema([
    DocumentSchema("itinerary", entities: Schema.shipped.document("itinerary")!.entities + [LodgingFields.schema]),
    Schema.shipped.document("library")!, Schema.shipped.document("profile")!,
])

@Suite struct LodgingKindTests {
    let doc = DocumentID(hex: "0123456789abcdef0123456789abcdef")!
    let hotel = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    let eur120 = Money(amountMinor: 12_000, currency: "EUR")

    func refusal(_ change: Change, in schema: Schema = schemaWithLodging) -> String? {
        schema.refusal(of: change, rootID: doc.hex, documentKind: "itinerary")
    }

    @Test func opsFromPeersAreValidatedByTheDeclaration() {
        var write = EntityWrite<LodgingFields>.create(hotel)
        write.set(LodgingFields.name, to: "Casa do Conto")
        write.set(LodgingFields.latitude, to: 41.15)
        write.set(LodgingFields.price, to: eur120)
        write.set(LodgingFields.checkIn, to: "2027-05-01")
        for change in write.changes { #expect(refusal(change) == nil) }

        let tooDear = Change.set(LodgingFields.price, of: hotel, to: Money(amountMinor: -1, currency: "EUR"))
        #expect(refusal(tooDear) == "'price.amountMinor' must be between 0 and 10^12")
        let badDate = Change.set(LodgingFields.checkOut, of: hotel, to: "2027-02-30")
        #expect(refusal(badDate) == "'checkOut' must be a date written YYYY-MM-DD")
        let untrimmed = Change.set(LodgingFields.name, of: hotel, to: " Casa ")
        #expect(refusal(untrimmed) == "'name' is not written as a local write stores it")
        let unknown = Change.set(entity: hotel, kind: .lodging, field: "stars", value: .int(5), old: nil)
        #expect(refusal(unknown) == "a lodging has no field 'stars'")
        #expect(
            refusal(.create(LodgingFields.self, doc.hex))
                == "a lodging entity id must be 32 lowercase hex characters other than the document id")
        // The shipped schema does not hold the kind: a peer's lodging op is refused today.
        #expect(
            refusal(write.changes[0], in: .shipped) == "a itinerary document holds no lodging entities")
    }

    @Test func localWritesAreValidatedByTheDeclaration() throws {
        let stored = try LodgingFields.schema.validatedFields(
            ["name": .string("  Casa do Conto "), "latitude": .int(41), "longitude": .double(-8.6)], creating: true)
        #expect(stored.map(\.0) == ["latitude", "longitude", "name"])
        #expect(stored.last?.1 == .string("Casa do Conto"))
        #expect(throws: FieldError("latitude", "'latitude' is required")) {
            try LodgingFields.schema.validatedFields(["name": .string("Casa"), "longitude": .int(1)], creating: true)
        }
        #expect(throws: FieldError("deleted", "unknown field 'deleted'; the fields are: \(requestFieldList)")) {
            try LodgingFields.schema.validatedFields(["deleted": .bool(true)], creating: false)
        }
    }

    var requestFieldList: String {
        "address, checkIn, checkOut, confirmationCode, contact, latitude, longitude, name, notes, price, url"
    }

    @Test func mergeFollowsTheDeclaredRules() {
        let other = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
        var first = EntityWrite<LodgingFields>.create(hotel)
        first.set(LodgingFields.name, to: "Casa")
        first.set(LodgingFields.position, to: "m")
        var second = EntityWrite<LodgingFields>.create(other)
        second.set(LodgingFields.name, to: "Hotel Boa Vista")
        second.set(LodgingFields.position, to: "h")
        var edit = EntityWrite<LodgingFields>.update(hotel)
        edit.set(LodgingFields.price, to: eur120)
        var remove = EntityWrite<LodgingFields>.update(other)
        remove.delete()

        var a = DocumentState(), b = DocumentState()
        a.apply(lamport: 1, author: "aa", changes: first.changes + second.changes)
        a.apply(lamport: 2, author: "bb", changes: edit.changes)
        b.apply(lamport: 2, author: "bb", changes: edit.changes)
        b.apply(lamport: 1, author: "aa", changes: first.changes + second.changes)
        #expect(a == b)
        #expect(a.items(of: .lodging).map(\.id) == [other, hotel])  // by position "h" < "m"
        a.apply(lamport: 3, author: "aa", changes: remove.changes)
        #expect(a.items(of: .lodging).map(\.id) == [hotel])
        #expect(a.entities[hotel]?.fields[LodgingFields.price] == eur120)

        // Activity reads writes by their declared merge rule.
        #expect(
            ActivityAction.ofSet(kind: .lodging, field: "deleted", value: .bool(true), schema: schemaWithLodging)
                == .deleted)
        #expect(
            ActivityAction.ofSet(kind: .lodging, field: "position", value: .string("p"), schema: schemaWithLodging)
                == .moved)
        #expect(
            ActivityAction.ofSet(kind: .lodging, field: "price", value: eur120.jsonValue, schema: schemaWithLodging)
                == .edited)
        // The store promotes the declared columns (the same ones as the shipped kinds).
        #expect(schemaWithLodging.promotedColumns == Schema.shipped.promotedColumns)
    }

    @Test func activityReadsInTheDeclaredWords() {
        let row = ActivityWording.Row(
            action: "edited", kind: "lodging", entity: hotel, author: "aa", field: "price", old: eur120.jsonValue,
            new: Money(amountMinor: 9_500, currency: "EUR").jsonValue)
        #expect(
            ActivityWording.summary(row, who: "Ana", subject: "", entityName: "Casa", schema: schemaWithLodging)
                == "Ana changed lodging price from “120.00 EUR” to “95.00 EUR”")
        var cleared = row
        (cleared.field, cleared.new) = ("confirmationCode", .null)
        #expect(
            ActivityWording.summary(cleared, who: "Ana", subject: "", entityName: "Casa", schema: schemaWithLodging)
                == "Ana cleared confirmation code")
    }
}
