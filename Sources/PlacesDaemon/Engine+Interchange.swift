import PlacesControl
import PlacesInterchange
import PlacesModel
import PlacesStore

/// Places in from other tools' files and out to them (`PlacesInterchange` reads and writes
/// the formats; this turns a file into library places, skipping duplicates).
extension Engine {
    /// Most places in one op of an import (an op is at most 1 MiB; the bytes are bounded too).
    static let importPlacesPerOp = 400
    static let importBytesPerOp = 384 * 1024

    /// `POST /v1/places/import`: adds the file's places that are not already in the library.
    func importPlaces(_ body: [UInt8], mediaType: String?) throws -> JSONValue {
        let library = try libraryService()
        guard let mediaType else {
            throw ServiceError(
                .unsupportedMediaType,
                "say the file's format in Content-Type: "
                    + ImportFormat.supportedMediaTypes.joined(separator: ", "), field: "Content-Type")
        }
        let read: PlacesInterchange.ImportResult
        do {
            read = try PlaceImport.read(body, mediaType: mediaType)
        } catch {
            if error.field == "Content-Type" {
                throw ServiceError(.unsupportedMediaType, error.message, field: "Content-Type")
            }
            throw ServiceError.invalid(error.field, error.message)
        }
        let existing = try library.placeRecords().map { record in
            let f = Views.fields(record)
            return ImportedPlace(
                name: f[PlaceFields.name] ?? "", latitude: f[PlaceFields.latitude] ?? 0,
                longitude: f[PlaceFields.longitude] ?? 0)
        }
        let (add, skipped) = ImportPlan.plan(importing: read.places, existing: existing)
        var ids = [String]()
        var batch = [Change]()
        var batchPlaces = 0
        var batchBytes = 0
        for place in add {
            let id = EntityLookup.newID()
            var write = EntityWrite<PlaceFields>.create(id)
            write.set(PlaceFields.name, to: place.name)
            write.set(PlaceFields.latitude, to: place.latitude)
            write.set(PlaceFields.longitude, to: place.longitude)
            if let address = place.address { write.set(PlaceFields.address, to: address) }
            if !place.categories.isEmpty { write.set(PlaceFields.categories, to: place.categories) }
            if let notes = place.notes { write.set(PlaceFields.notes, to: notes) }
            if let url = place.url { write.set(PlaceFields.url, to: url) }
            if let hours = place.openingHours { write.set(PlaceFields.openingHours, to: hours) }
            // Every value is checked as a local write would be before it is signed.
            for change in write.changes {
                if case .set(_, _, let field, let value, _) = change, let rule = FieldRule.place[field] {
                    do { _ = try rule.validate(field, value) } catch {
                        throw ServiceError.invalid("places[\(ids.count)].\(field)", error.message)
                    }
                }
            }
            let size =
                256 + place.name.utf8.count + (place.address?.utf8.count ?? 0) + (place.notes?.utf8.count ?? 0)
                + (place.url?.utf8.count ?? 0) + (place.openingHours?.utf8.count ?? 0)
                + place.categories.reduce(0) { $0 + $1.utf8.count + 8 }
            if batchPlaces == Self.importPlacesPerOp || batchBytes + size > Self.importBytesPerOp {
                try commit(library.doc, batch, summary: "\(batchPlaces) places imported")
                (batch, batchPlaces, batchBytes) = ([], 0, 0)
            }
            batch += write.changes
            batchPlaces += 1
            batchBytes += size
            ids.append(id)
        }
        if !batch.isEmpty { try commit(library.doc, batch, summary: "\(batchPlaces) places imported") }
        return .object([
            "imported": .int(Int64(ids.count)), "skipped": .int(Int64(skipped)),
            // The first 100 features passed over, with why (a file of 20,000 tracks would
            // otherwise answer 20,000 reasons).
            "ignored": .array(
                read.ignored.prefix(100).map {
                    .object(["index": .int(Int64($0.index)), "reason": .string($0.reason)])
                }),
            "places": .array(ids.map(JSONValue.string)),
        ])
    }

    /// `GET /v1/places/export?format=geojson|kml|gpx`: the library in another tool's format.
    func exportPlaces(format name: String?) throws -> ControlResponse {
        let format: ImportFormat
        switch (name ?? "geojson").lowercased() {
        case "geojson", "json": format = .geoJSON
        case "kml": format = .kml
        case "gpx": format = .gpx
        default: throw ServiceError.invalid("format", "format must be geojson, kml or gpx")
        }
        let places = try libraryService().placeRecords().map { record in
            let f = Views.fields(record)
            return ImportedPlace(
                name: f[PlaceFields.name] ?? "", latitude: f[PlaceFields.latitude] ?? 0,
                longitude: f[PlaceFields.longitude] ?? 0, address: f[PlaceFields.address], notes: f[PlaceFields.notes],
                url: f[PlaceFields.url], categories: f[PlaceFields.categories] ?? [], sourceID: record.id,
                openingHours: f[PlaceFields.openingHours])
        }
        return .raw(status: 200, contentType: format.mediaType, body: PlaceExport.data(places, as: format))
    }
}
