// The trip folder's kinds (issue 13): the items of an itinerary, one kind per type, and its
// checklist. Declared like the shipped kinds in Schema+Shipped.swift; `Protocol/op-format.md`
// §5 documents them (a test checks the tables against these declarations).

extension EntityKind {
    /// A stay: `start` is check-in, `end` check-out.
    public static let lodging = EntityKind(declaring: "lodging")
    /// A leg from `location.*` to `to.*`, departing in `timeZone` and arriving in `endTimeZone`.
    public static let transport = EntityKind(declaring: "transport")
    /// A restaurant, café or bar.
    public static let food = EntityKind(declaring: "food")
    /// A tour, a museum, a booked thing to do.
    public static let activity = EntityKind(declaring: "activity")
    /// A line of the itinerary's shared checklist (packing, to do).
    public static let checklistItem = EntityKind(declaring: "checklistItem")

    /// The kinds an item of a trip folder can be, in section order.
    public static let tripItems: [EntityKind] = [.lodging, .transport, .food, .activity]
}

/// The registers every item kind has, declared once (`TripItemDeclaration` gives each kind
/// typed keys for them).
public enum TripItemSpecs {
    public static let title = FieldSpec("title", .text(maxLength: 200, required: true))
    public static let start = FieldSpec("start", .localDateTime)
    public static let end = FieldSpec("end", .localDateTime)
    public static let timeZone = FieldSpec("timeZone", .timeZone, label: "time zone")
    public static let locationName = FieldSpec("location.name", .text(maxLength: 200, required: false), label: "place")
    public static let locationAddress = FieldSpec(
        "location.address", .text(maxLength: 500, required: false), label: "address")
    public static let locationLatitude = FieldSpec("location.latitude", .optional(.latitude), label: "latitude")
    public static let locationLongitude = FieldSpec("location.longitude", .optional(.longitude), label: "longitude")
    public static let price = FieldSpec("price", .money)
    public static let notes = FieldSpec("notes", .text(maxLength: 10_000, required: false))
    public static let url = FieldSpec("url", .url, label: "link")

    /// The common registers with the kind's words for its start and end, then `position`.
    static func common(start startLabel: String, end endLabel: String) -> [FieldSpec] {
        [
            title, FieldSpec(start.name, start.rule, label: startLabel), FieldSpec(end.name, end.rule, label: endLabel),
            timeZone, locationName, locationAddress, locationLatitude, locationLongitude, price, notes, url,
        ]
    }
}

/// A kind of trip item: typed keys for the common registers.
public protocol TripItemDeclaration: EntityDeclaration {}

extension TripItemDeclaration {
    public static var title: FieldKey<Self, String> { FieldKey(TripItemSpecs.title) }
    public static var start: FieldKey<Self, String> { FieldKey(TripItemSpecs.start) }
    public static var end: FieldKey<Self, String> { FieldKey(TripItemSpecs.end) }
    public static var timeZone: FieldKey<Self, String> { FieldKey(TripItemSpecs.timeZone) }
    public static var price: FieldKey<Self, Money> { FieldKey(TripItemSpecs.price) }
    public static var position: FieldKey<Self, String> { FieldKey(FieldSpec.position) }
}

/// A stay.
public enum LodgingFields: TripItemDeclaration {
    public static let confirmationCode = FieldKey<Self, String>(
        "confirmationCode", .text(maxLength: 100, required: false), label: "confirmation code")
    public static let contact = FieldKey<Self, String>("contact", .text(maxLength: 500, required: false))

    public static let schema = EntitySchema(
        .lodging, id: .random,
        fields: TripItemSpecs.common(start: "check-in", end: "check-out") + [
            confirmationCode, contact, FieldSpec.position,
        ])
}

/// A leg of the journey.
public enum TransportFields: TripItemDeclaration {
    /// The ways to travel a transport item can have.
    public static let modes: Set<String> = ["flight", "train", "bus", "car", "ferry", "other"]

    public static let mode = FieldKey<Self, String>("mode", .oneOf(modes))
    public static let endTimeZone = FieldKey<Self, String>("endTimeZone", .timeZone, label: "arrival time zone")
    public static let toName = FieldKey<Self, String>(
        "to.name", .text(maxLength: 200, required: false), label: "destination")
    public static let toAddress = FieldKey<Self, String>(
        "to.address", .text(maxLength: 500, required: false), label: "destination address")
    public static let toLatitude = FieldKey<Self, Double>(
        "to.latitude", .optional(.latitude), label: "destination latitude")
    public static let toLongitude = FieldKey<Self, Double>(
        "to.longitude", .optional(.longitude), label: "destination longitude")
    public static let carrier = FieldKey<Self, String>("carrier", .text(maxLength: 100, required: false))
    public static let number = FieldKey<Self, String>("number", .text(maxLength: 50, required: false))
    public static let bookingReference = FieldKey<Self, String>(
        "bookingReference", .text(maxLength: 100, required: false), label: "booking reference")

    public static let schema = EntitySchema(
        .transport, id: .random,
        fields: TripItemSpecs.common(start: "departure", end: "arrival") + [
            mode, endTimeZone, toName, toAddress, toLatitude, toLongitude, carrier, number, bookingReference,
            FieldSpec.position,
        ])
}

/// Somewhere to eat or drink.
public enum FoodFields: TripItemDeclaration {
    public static let recommendation = FieldKey<Self, String>(
        "recommendation", .text(maxLength: 2_000, required: false))
    public static let rating = FieldKey<Self, Double>("rating", .rating)

    public static let schema = EntitySchema(
        .food, id: .random,
        fields: TripItemSpecs.common(start: "time", end: "end time") + [recommendation, rating, FieldSpec.position])
}

/// Something to do.
public enum ActivityFields: TripItemDeclaration {
    public static let description = FieldKey<Self, String>("description", .text(maxLength: 10_000, required: false))
    public static let booked = FieldKey<Self, Bool>("booked", .bool)
    /// Another item or place to go of the same itinerary (may dangle after a delete).
    public static let linkedItem = FieldKey<Self, String>("linkedItem", .optional(.entityID), label: "linked item")

    public static let schema = EntitySchema(
        .activity, id: .random,
        fields: TripItemSpecs.common(start: "start", end: "end") + [
            description, booked, linkedItem, FieldSpec.position,
        ])
}

/// A line of the shared checklist.
public enum ChecklistItemFields: EntityDeclaration {
    public static let text = FieldKey<Self, String>("text", .text(maxLength: 500, required: true))
    public static let checked = FieldKey<Self, Bool>("checked", .bool)
    /// The member it is assigned to (their public key in hex).
    public static let assignee = FieldKey<Self, String>("assignee", .optional(.key))
    /// Which list it is on ("Packing", "To do").
    public static let list = FieldKey<Self, String>("list", .text(maxLength: 100, required: false))
    public static let position = FieldKey<Self, String>(FieldSpec.position)

    public static let schema = EntitySchema(
        .checklistItem, id: .random, fields: [text, checked, assignee, list, position])
}
