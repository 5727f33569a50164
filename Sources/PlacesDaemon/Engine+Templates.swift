import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesTrips

/// A trip as a template (issue 17): `POST /v1/itineraries` with `{"from": ID, "startDate"}`
/// makes this person's own itinerary from a published trip they can see, or from one of their
/// itineraries. Days move to the new start; every item keeps its local times in its own time
/// zone; places to go are copied; no members, no expenses, no checklist, and of each item only
/// what a publication copies (`PublishService.copiedFields`), so bookings never carry over.
extension Engine {
    func createItinerary(fromTemplate body: [String: JSONValue]) throws -> Itinerary {
        guard let me else { throw ServiceError.loggedOut }
        if let unknown = body.keys.sorted().first(where: { !["from", "startDate", "name"].contains($0) }) {
            throw ServiceError.invalid(
                unknown, "unknown field '\(unknown.prefix(64))' with 'from': the fields are from, startDate and name")
        }
        guard let reference = body["from"]?.stringValue, !reference.isEmpty else {
            throw ServiceError.invalid(
                "from", "'from' must be the id of a published trip or of one of your itineraries")
        }
        guard let startText = body["startDate"]?.stringValue, let newStart = LocalDate(startText),
            newStart.description == startText
        else { throw ServiceError.invalid("startDate", "'startDate' must be a date written YYYY-MM-DD") }
        var name: String?
        if let value = body["name"], !value.isNull {
            guard let text = value.stringValue, (1...200).contains(text.count) else {
                throw ServiceError.invalid("name", "'name' must be 1 to 200 characters")
            }
            name = text
        }
        // A published trip this person can see, else one of their itineraries.
        let source: Store.DocumentRecord
        let origin: String
        if let entry = try? visibleTrip(reference) {
            source = try publishedRecord(entry.doc)
            let author =
                entry.author == me.bytes
                ? "you"
                : (Views.fields(try tripSnapshot(source).root)[PublishedTripFields.authorName]
                    ?? Views.ownerID(entry.author))
            origin = "published trip \(entry.doc.hex) “\(entry.name)” by \(author)"
        } else {
            do { source = try itineraryDoc(reference) } catch let error as ServiceError where error.isNotFound {
                throw ServiceError.notFound("no published trip or itinerary '\(reference.prefix(40))' you can see")
            }
            origin = "itinerary \(source.id.hex) “\(entityName(in: source.id, source.id.hex) ?? "")”"
        }
        let snapshot = try tripSnapshot(source)
        let rootFields = Views.fields(snapshot.root)
        // The shift: from the trip's start (else its first dated item or place to go).
        let oldStart =
            rootFields[ItineraryFields.startDate].flatMap { LocalDate($0) }
            ?? (snapshot.trip.items.compactMap { $0.start?.date }
            + snapshot.stops.compactMap {
                Views.fields($0)[StopFields.day].flatMap { LocalDate($0) }
            }).min()
        let offset = oldStart.map { newStart.dayNumber - $0.dayNumber } ?? 0
        func shifted(_ value: JSONValue?) -> JSONValue? {
            guard let text = value?.stringValue else { return value }
            if let date = LocalDate(text), date.description == text {
                return .string(date.adding(days: offset).description)
            }
            if let time = LocalDateTime(text), time.description == text {
                return .string(
                    LocalDateTime(date: time.date.adding(days: offset), minuteOfDay: time.minuteOfDay).description)
            }
            return value
        }
        let id = try newItineraryDocument(owner: me)
        var changes: [Change] = [.create(entity: id.hex, kind: .itinerary)]
        func setRoot(_ spec: FieldSpec, _ value: JSONValue?) {
            guard let value, !value.isNull else { return }
            changes.append(.set(entity: id.hex, kind: .itinerary, field: spec.name, value: value, old: nil))
        }
        setRoot(ItineraryFields.name.spec, .string(name ?? rootFields[ItineraryFields.name] ?? "Trip"))
        setRoot(ItineraryFields.startDate.spec, .string(newStart.description))
        for spec in PublishedTripFields.copied
        where spec.name != ItineraryFields.name.name && spec.name != ItineraryFields.startDate.name {
            let dated = [
                ItineraryFields.endDate.name, ItineraryFields.lodgingCheckIn.name, ItineraryFields.lodgingCheckOut.name,
            ]
            setRoot(spec, dated.contains(spec.name) ? shifted(rootFields[spec.name]) : rootFields[spec.name])
        }
        setRoot(ItineraryFields.origin.spec, .string(String(origin.prefix(400))))
        // New ids; an activity's link follows its item.
        var ids = [EntityID: EntityID]()
        for record in snapshot.itemRecords + snapshot.stops {
            ids[record.id] = HexCoding.encode(SecureRandom.bytes(16))
        }
        for record in snapshot.itemRecords + snapshot.stops {
            guard let names = PublishService.copiedFields[record.kind], let newID = ids[record.id] else { continue }
            let fields = Views.fields(record)
            changes.append(.create(entity: newID, kind: record.kind))
            for field in names {
                guard var value = fields[field], !value.isNull else { continue }
                switch field {
                case "start", "end", "day": value = shifted(value) ?? value
                case "linkedItem":
                    guard let target = value.stringValue.flatMap({ ids[$0] }) else { continue }
                    value = .string(target)
                default: break
                }
                changes.append(.set(entity: newID, kind: record.kind, field: field, value: value, old: nil))
            }
            if let position = record.position {
                changes.append(
                    .set(
                        entity: newID, kind: record.kind, field: FieldSpec.position.name, value: .string(position),
                        old: nil))
            }
        }
        for part in CardService.chunks(changes, entitiesPerOp: CardService.entitiesPerOp) {
            try commit(id, part, summary: "itinerary created from \(origin.prefix(120))")
        }
        return try itinerary(id.hex)
    }
}
