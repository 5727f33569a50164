import Foundation
import PlacesModel
import PlacesStore
import PlacesTrips

/// The trip folder's items as the control API shows them (`TripItem` in
/// `Protocol/control-api.yaml`) and as the planning code reads them (`PlacesTrips.TripItem`).
///
/// The API object is derived from the declared registers: a register whose name has a dot
/// (`location.latitude`, `to.name`) is a field of a nested object, every other one a
/// top-level field, so a field added to a kind's declaration shows up without code here.
enum TripItemViews {
    /// The nested objects of an item (stored flattened, like an itinerary's `lodging`).
    static let groups: Set<String> = ["location", "to"]

    /// The ids of the itinerary's own `lodging` and `transportation` fields shown as items.
    static let legacyLodgingID = "legacy-lodging"
    static let legacyTransportID = "legacy-transport"

    /// Every item register of a nested object, by name: `location.name` → (`location`, `name`).
    static let nestedNames: [String: (String, String)] = {
        var out = [String: (String, String)]()
        for kind in EntityKind.tripItems {
            for field in kind.schema?.fields ?? [] {
                guard let dot = field.name.firstIndex(of: "."), groups.contains(String(field.name[..<dot])) else {
                    continue
                }
                out[field.name] = (String(field.name[..<dot]), String(field.name[field.name.index(after: dot)...]))
            }
        }
        return out
    }()

    /// The registers of a location group, named once (`location.name`, …).
    struct LocationKeys: Sendable {
        let name, address, latitude, longitude: String
        init(_ group: String) {
            (name, address, latitude, longitude) = (
                "\(group).name", "\(group).address", "\(group).latitude", "\(group).longitude"
            )
        }
    }
    static let locationKeys = LocationKeys("location")
    static let toKeys = LocationKeys("to")

    /// The API `type` of an item kind.
    static func type(of kind: EntityKind) -> String { kind.rawValue }

    /// The item kind of an API `type`; nil for any other string.
    static func kind(ofType type: String) -> EntityKind? {
        EntityKind.tripItems.first { $0.rawValue == type }
    }

    /// The API object of an item (`fields`: its parsed data, when the caller has it).
    static func json(_ record: Store.EntityRecord, fields: [String: JSONValue]? = nil) -> JSONValue {
        let f = fields ?? Views.fields(record)
        var object: [String: JSONValue] = [
            "id": .string(record.id), "type": .string(type(of: record.kind)),
            "createdAt": .string(RFC3339.string(ms: record.createdMs ?? 0)),
        ]
        if let updated = record.updatedMs { object["updatedAt"] = .string(RFC3339.string(ms: updated)) }
        var nested = [String: [String: JSONValue]]()
        // Only the kind's own registers: a hostile editor's change may declare another kind
        // for this entity (kinds that share the id shape are told apart by the store, which
        // keeps one kind per entity, `Materializer`), leaving registers of that kind here.
        let declared = record.kind.schema?.fieldsByName ?? [:]
        for (name, value) in f
        where !value.isNull && name != FieldSpec.deleted.name && name != FieldSpec.position.name
            && declared[name] != nil
        {
            if let (group, key) = nestedNames[name] {
                nested[group, default: [:]][key] = value
            } else {
                object[name] = value
            }
        }
        for (group, fields) in nested { object[group] = .object(fields) }
        // Every item has a title; one whose kind a peer's change turned (see above) may not.
        if object["title"] == nil { object["title"] = .string(f["name"]?.stringValue ?? "Untitled") }
        return .object(object)
    }

    /// A place to go as a day view shows it (`type` = `place`).
    static func stopJSON(_ record: Store.EntityRecord, fields: [String: JSONValue]? = nil) -> JSONValue {
        let f = fields ?? Views.fields(record)
        typealias S = StopFields
        var location: [String: JSONValue] = [:]
        location["name"] = f[S.name.name]
        location["address"] = f[S.address.name]
        location["latitude"] = f[S.latitude.name]
        location["longitude"] = f[S.longitude.name]
        var object: [String: JSONValue] = [
            "id": .string(record.id), "type": .string("place"), "title": f[S.name.name] ?? .string(""),
            "location": .object(location.filter { !$0.value.isNull }),
            "createdAt": .string(RFC3339.string(ms: record.createdMs ?? 0)),
        ]
        if let day = f[S.day.name], !day.isNull { object["start"] = day }
        if let place = f[S.placeID.name], !place.isNull { object["placeId"] = place }
        if let updated = record.updatedMs { object["updatedAt"] = .string(RFC3339.string(ms: updated)) }
        return .object(object)
    }

    /// The itinerary's own `lodging.*` and `transportation` fields as read-only items (trips
    /// made before trip folders show them in the Lodging and Transportation sections).
    static func legacyItems(root: Store.EntityRecord) -> [(json: JSONValue, item: PlacesTrips.TripItem)] {
        let f = Views.fields(root)
        typealias I = ItineraryFields
        var out = [(json: JSONValue, item: PlacesTrips.TripItem)]()
        let lodgingName = f[I.lodgingName], lodgingAddress = f[I.lodgingAddress]
        let checkIn = f[I.lodgingCheckIn], checkOut = f[I.lodgingCheckOut], lodgingPrice = f[I.lodgingPrice]
        if lodgingName != nil || lodgingAddress != nil || checkIn != nil || checkOut != nil || lodgingPrice != nil {
            let title = lodgingName ?? lodgingAddress ?? "Lodging"
            var object: [String: JSONValue] = [
                "id": .string(legacyLodgingID), "type": .string("lodging"), "title": .string(title),
                "legacy": .bool(true), "createdAt": .string(RFC3339.string(ms: root.createdMs ?? 0)),
            ]
            if let checkIn { object["start"] = .string(checkIn) }
            if let checkOut { object["end"] = .string(checkOut) }
            if let lodgingAddress { object["location"] = .object(["address": .string(lodgingAddress)]) }
            if let lodgingPrice { object["price"] = lodgingPrice.jsonValue }
            let item = PlacesTrips.TripItem(
                id: legacyLodgingID, type: .lodging, title: title, start: checkIn.flatMap { LocalDateTime($0) },
                end: checkOut.flatMap { LocalDateTime($0) },
                location: lodgingAddress.map { TripLocation(address: $0) }, price: lodgingPrice)
            out.append((.object(object), item))
        }
        let transportation = f[I.transportation], travelPrice = f[I.travelPrice]
        if transportation != nil || travelPrice != nil {
            let firstLine = transportation?.split(whereSeparator: \.isNewline).first.map(String.init)
            let title = String((firstLine ?? "Transportation").prefix(200))
            var object: [String: JSONValue] = [
                "id": .string(legacyTransportID), "type": .string("transport"), "title": .string(title),
                "mode": .string("other"), "legacy": .bool(true),
                "createdAt": .string(RFC3339.string(ms: root.createdMs ?? 0)),
            ]
            if let transportation { object["notes"] = .string(transportation) }
            if let travelPrice { object["price"] = travelPrice.jsonValue }
            let item = PlacesTrips.TripItem(
                id: legacyTransportID, type: .transport, title: title, price: travelPrice, mode: "other",
                notes: transportation)
            out.append((.object(object), item))
        }
        return out
    }

    /// The planning code's view of an item.
    static func tripItem(_ record: Store.EntityRecord, fields: [String: JSONValue]? = nil) -> PlacesTrips.TripItem? {
        guard let kind = kind(ofType: record.kind.rawValue), let type = TripItemType(rawValue: kind.rawValue) else {
            return nil
        }
        let f = fields ?? Views.fields(record)
        func string(_ name: String) -> String? { f[name]?.stringValue }
        func location(_ keys: LocationKeys) -> TripLocation? {
            let l = TripLocation(
                name: string(keys.name), address: string(keys.address), latitude: f[keys.latitude]?.doubleValue,
                longitude: f[keys.longitude]?.doubleValue)
            return l == TripLocation() ? nil : l
        }
        let detail: String? =
            switch type {
            case .activity: string(ActivityFields.description.name)
            case .food: string(FoodFields.recommendation.name)
            case .lodging: string(LodgingFields.confirmationCode.name).map { "Confirmation \($0)" }
            case .transport:
                [string(TransportFields.carrier.name), string(TransportFields.number.name)].compactMap { $0 }
                    .joined(separator: " ").nilIfEmpty
            case .place: nil
            }
        return PlacesTrips.TripItem(
            id: record.id, type: type, title: string("title") ?? "",
            start: string("start").flatMap { LocalDateTime($0) },
            end: string("end").flatMap { LocalDateTime($0) }, timeZone: string("timeZone"),
            endTimeZone: string(TransportFields.endTimeZone.name), location: location(locationKeys),
            to: location(toKeys),
            price: f["price"].flatMap { Money($0) }, position: record.position, mode: string(TransportFields.mode.name),
            linkedItem: string(ActivityFields.linkedItem.name), notes: string("notes"), url: string("url"),
            detail: detail, booked: f[ActivityFields.booked.name] == .bool(true))
    }

    /// The planning code's view of a place to go.
    static func tripItem(stop record: Store.EntityRecord, fields: [String: JSONValue]? = nil) -> PlacesTrips.TripItem {
        let f = fields ?? Views.fields(record)
        typealias S = StopFields
        return PlacesTrips.TripItem(
            id: record.id, type: .place, title: f[S.name] ?? "", start: f[S.day].flatMap { LocalDateTime($0) },
            location: TripLocation(
                name: f[S.name], address: f[S.address], latitude: f[S.latitude], longitude: f[S.longitude]),
            position: record.position)
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
