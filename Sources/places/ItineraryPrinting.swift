import Foundation
import PlacesAPI
import PlacesModel

/// The itinerary fields of issue 13, read from the same body as ``Itinerary`` (which the
/// daemon side extends): absent fields stay nil, so an older daemon still prints.
struct ItineraryTripFields: Decodable {
    var timeZone: String?
    var travelMode: String?
    /// Issue 14: the currency balances are in, and the trip's exchange rates.
    var settlementCurrency: String?
    var rates: [String: String]?
    var itemCount: Int?
    var costs: ItineraryCosts?
    /// The day of each place to go that has one (`Stop.day`), by stop id.
    var places: [StopDay]?

    /// A place to go's id and planned day.
    struct StopDay: Decodable {
        var id: String
        var day: String?
    }

    /// Reads them from a reply; nil when the body does not have this shape.
    init?(_ reply: APIClient.Reply) {
        guard let fields = try? JSONDecoder().decode(Self.self, from: Data(reply.response.body)) else { return nil }
        self = fields
    }
}

/// Prints every field of an itinerary, its numbered places to go and its costs; `trip` adds
/// the trip fields of issue 13 (time zone, travel mode, item count, costs per section).
func printItinerary(_ itinerary: Itinerary, trip: ItineraryTripFields? = nil) {
    var fields = Fields()
    fields["id"] = itinerary.id
    fields["name"] = itinerary.name
    fields["dates"] = Format.dateRange(itinerary.startDate, itinerary.endDate)
    fields["transportation"] = itinerary.transportation
    if let lodging = itinerary.lodging {
        fields["lodging"] = [lodging.name, lodging.address].compactMap { $0 }.joined(separator: ", ")
        if lodging.checkIn != nil || lodging.checkOut != nil {
            fields["check-in/out"] = "\(lodging.checkIn ?? "?") → \(lodging.checkOut ?? "?")"
        }
    }
    fields["travel price"] = itinerary.travelPrice?.description
    fields["lodging price"] = itinerary.lodgingPrice?.description
    fields["time zone"] = trip?.timeZone
    fields["travel mode"] = trip?.travelMode
    fields["settlement currency"] = trip?.settlementCurrency
    if let rates = trip?.rates, !rates.isEmpty, let base = trip?.settlementCurrency {
        fields["exchange rates"] = rates.keys.sorted().map { "1 \($0) = \(rates[$0] ?? "?") \(base)" }
            .joined(separator: " · ")
    }
    if let costs = trip?.costs {
        let sections: [(String, [Money]?)] = [
            ("lodging", costs.lodging), ("transport", costs.transport), ("food", costs.food),
            ("activities", costs.activity),
        ]
        let parts = sections.compactMap { name, amounts in
            amounts.flatMap { $0.isEmpty ? nil : "\(name) \(Format.money($0))" }
        }
        fields["costs"] = parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
    fields["total cost"] = Format.money(itinerary.totalCost)
    fields["items"] = trip?.itemCount.map { "\($0) (`places item list \(Format.shortID(itinerary.id))`)" }
    fields["owner"] = itinerary.owner
    fields["role"] = itinerary.role
    fields["created"] = Format.time(itinerary.createdAt)
    fields["updated"] = itinerary.updatedAt.map(Format.time)
    fields["notes"] = itinerary.notes
    fields.print()
    print("")
    guard !itinerary.places.isEmpty else {
        return print("no places to go yet: `places itinerary add-place \(Format.shortID(itinerary.id)) PLACE`")
    }
    print("Places to go:")
    var days: [String: String] = [:]
    for stop in trip?.places ?? [] { days[stop.id] = stop.day }
    // The DAY column only once some place to go has a day.
    var table =
        days.isEmpty
        ? Table("#", "STOP", "NAME", "LOCATION", "ADDRESS", alignments: [.right])
        : Table("#", "STOP", "NAME", "DAY", "LOCATION", "ADDRESS", alignments: [.right])
    for stop in itinerary.places.sorted(by: { $0.position < $1.position }) {
        var row = ["\(stop.position).", Format.shortID(stop.id), stop.name]
        if !days.isEmpty { row.append(days[stop.id] ?? "") }
        row += [Format.coordinates(stop.latitude, stop.longitude), stop.address ?? ""]
        table.rows.append(row)
    }
    table.print()
}
