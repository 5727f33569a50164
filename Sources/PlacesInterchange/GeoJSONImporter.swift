/// GeoJSON (RFC 7946): a FeatureCollection, a Feature or a bare Point, including both
/// shapes of Google Takeout's "Saved Places.json" (docs/import.md).
enum GeoJSONImporter {
    static func read(_ text: SourceText) throws(ImportError) -> ImportResult {
        let root = try JSONReader.parse(text)
        guard root.isObject else { throw ImportError(field: "body", message: "a GeoJSON file holds an object") }
        guard let type = root["type"]?.string else {
            throw ImportError(field: "type", message: "missing: a GeoJSON object names its type")
        }
        var result = ImportResult(places: [], ignored: [])
        switch type {
        case "FeatureCollection":
            guard let features = root["features"]?.array else {
                throw ImportError(field: "features", message: "a FeatureCollection holds a \"features\" array")
            }
            guard features.count <= ImportLimits.maxFeatures else {
                throw ImportError(
                    field: "features",
                    message: "\(features.count) features; at most \(ImportLimits.maxFeatures) are accepted in one file")
            }
            for (i, feature) in features.enumerated() {
                try add(feature, path: "features[\(i)]", index: i, to: &result)
            }
        case "Feature":
            try add(root, path: "", index: 0, to: &result)
        case "Point":
            let (lat, lon) = try point(root["coordinates"], path: "coordinates")
            if PlaceDraft.isNullIsland(latitude: lat, longitude: lon) {
                result.ignored.append(ImportIgnored(index: 0, reason: "the point is at 0, 0: no location"))
            } else {
                result.places.append(PlaceDraft(latitude: lat, longitude: lon).place())
            }
        case "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection":
            result.ignored.append(ImportIgnored(index: 0, reason: "a \(type) is not a place"))
        default:
            throw ImportError(
                field: "type",
                message: "\"\(type.prefix(50))\" is not a GeoJSON type this importer reads "
                    + "(FeatureCollection, Feature or Point)")
        }
        return result
    }

    private static func join(_ path: String, _ member: String) -> String { path.isEmpty ? member : path + "." + member }

    private static func add(_ feature: JSONNode, path: String, index: Int, to result: inout ImportResult)
        throws(ImportError)
    {
        guard feature.isObject else {
            throw ImportError(field: path, message: "a feature is an object, not \(feature.kind)")
        }
        let properties = feature["properties"] ?? .null
        guard properties.isObject || properties.isNull else {
            throw ImportError(field: join(path, "properties"), message: "must be an object or null")
        }
        // Newer Takeout: {date, google_maps_url, location: {name, address, country_code}, Comment};
        // older Takeout: {Title, "Google Maps URL", Location: {Address, "Business Name",
        // "Geo Coordinates": {Latitude, Longitude}}}.
        let location = properties.first("location", "Location") ?? .null
        var draft = PlaceDraft(latitude: 0, longitude: 0)
        draft.name =
            text(properties.first("name", "title", "Title", "Name")) ?? text(location.first("name", "Business Name"))
        draft.address = text(properties.first("address", "Address")) ?? text(location.first("address", "Address"))
        draft.notes = text(properties.first("notes", "description", "Comment", "comment", "Description"))
        draft.url = text(properties.first("url", "google_maps_url", "Google Maps URL", "website"))
        draft.categories = categories(properties.first("categories", "category"))
        draft.openingHours = text(properties.first("opening_hours", "openingHours"))
        switch feature["id"] {
        case .string(let s): draft.sourceID = s
        case .number(let d): draft.sourceID = PlaceDraft.format(d)
        default: break
        }
        // An ignored Takeout place without a name is named by its Google Maps search.
        let label =
            (draft.name ?? PlaceDraft.mapsQuery(draft.url)).map { " \"\(TextCleaning.line($0).prefix(60))\"" } ?? ""

        let geometry = feature["geometry"] ?? .null
        var coordinates: (Double, Double)?
        if geometry.isObject {
            let type = geometry["type"]?.string ?? ""
            guard type == "Point" else {
                let what = type.isEmpty ? "a geometry with no type" : "a \(type.prefix(30))"
                result.ignored.append(ImportIgnored(index: index, reason: "feature\(label) is \(what), not a point"))
                return
            }
            coordinates = try point(geometry["coordinates"], path: join(path, "geometry.coordinates"))
        } else if !geometry.isNull {
            throw ImportError(field: join(path, "geometry"), message: "must be an object or null")
        }
        if coordinates.map({ PlaceDraft.isNullIsland(latitude: $0.0, longitude: $0.1) }) ?? true,
            let geo = location["Geo Coordinates"], geo.isObject
        {
            let geoPath = join(path, "properties.Location.Geo Coordinates")
            guard let lat = geo["Latitude"]?.looseNumber, let lon = geo["Longitude"]?.looseNumber else {
                throw ImportError(field: geoPath, message: "Latitude and Longitude must be numbers")
            }
            if let problem = PlaceDraft.coordinateProblem(latitude: lat, longitude: lon) {
                throw ImportError(field: geoPath, message: problem)
            }
            coordinates = (lat, lon)
        }
        guard let (lat, lon) = coordinates, !PlaceDraft.isNullIsland(latitude: lat, longitude: lon) else {
            let why = coordinates == nil ? "has no geometry" : "has no coordinates (0, 0)"
            result.ignored.append(ImportIgnored(index: index, reason: "feature\(label) \(why)"))
            return
        }
        draft.latitude = lat
        draft.longitude = lon
        result.places.append(draft.place())
    }

    /// A Point's `[longitude, latitude, altitude?]`, checked.
    private static func point(_ node: JSONNode?, path: String) throws(ImportError) -> (Double, Double) {
        guard let items = node?.array, items.count >= 2, case .number(let lon) = items[0],
            case .number(let lat) = items[1]
        else {
            throw ImportError(field: path, message: "a Point's coordinates are [longitude, latitude]")
        }
        if let problem = PlaceDraft.coordinateProblem(latitude: lat, longitude: lon) {
            throw ImportError(field: path, message: problem)
        }
        return (lat, lon)
    }

    private static func text(_ node: JSONNode?) -> String? {
        switch node {
        case .string(let s): s
        case .number(let d): PlaceDraft.format(d)
        default: nil
        }
    }

    private static func categories(_ node: JSONNode?) -> [String] {
        switch node {
        case .string(let s): s.split(separator: ",").map(String.init)
        case .array(let items): items.prefix(ImportLimits.maxCategories * 4).compactMap { text($0) }
        default: []
        }
    }
}
