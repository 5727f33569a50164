import Foundation
import PlacesModel
import PlacesTestSupport
import Testing

/// The declared schema (`PlacesModel/Schema`) and `Protocol/control-api.yaml` name the same
/// fields: a field declared and not in the API document (or in the document's writable
/// fields and not declared) fails here, as a field of op-format.md does in `SchemaTests`.
@Suite("The declared schema and the control API document agree")
struct SchemaSpecTests {
    let spec: OpenAPIDocument

    init() throws { spec = try OpenAPIDocument.controlAPI.get() }

    func properties(_ name: String) throws -> [String: JSONValue] {
        guard case .object(let schema)? = spec.resolve("#/components/schemas/\(name)"),
            case .object(let properties)? = schema["properties"]
        else { throw HarnessError("no properties for components.schemas.\(name)") }
        return properties
    }

    /// `maxLength` of a property written `{type: …, maxLength: N}`, if any.
    func maxLength(_ property: JSONValue?) -> Int? {
        guard case .object(let object)? = property, let max = object["maxLength"]?.intValue else { return nil }
        return Int(max)
    }

    /// The declared fields a request may write (no tombstone, no list position).
    func writable(_ schema: EntitySchema) -> Set<String> { Set(schema.requestRules.keys) }

    /// The declared fields a resource shows (no tombstone).
    func shown(_ schema: EntitySchema) -> Set<String> {
        Set(schema.fields.map(\.name)).subtracting([FieldSpec.deleted.name])
    }

    @Test(
        "a place's writable fields are exactly the declared ones, with the declared lengths; the resource shows them all"
    )
    func places() throws {
        let input = try properties("PlaceFields")
        #expect(Set(input.keys) == writable(PlaceFields.schema))
        #expect(shown(PlaceFields.schema).subtracting(try properties("Place").keys).isEmpty)
        for (field, rule) in PlaceFields.schema.requestRules {
            if case .text(let max, _) = rule { #expect(maxLength(input[field]) == max, "PlaceFields.\(field)") }
        }
    }

    @Test("an itinerary's writable fields are exactly the declared ones (lodging flattened), with the declared lengths")
    func itineraries() throws {
        let input = try properties("ItineraryFields")
        // `lodging` (an object of the four `lodging.*` fields) is the request's nested spelling.
        #expect(Set(input.keys).subtracting(["lodging"]) == writable(ItineraryFields.schema))
        let lodgingInput = try properties("LodgingInput")
        #expect(
            Set(lodgingInput.keys.map { "lodging.\($0)" })
                == writable(ItineraryFields.schema).filter { $0.hasPrefix("lodging.") })
        for (field, rule) in ItineraryFields.schema.requestRules {
            if case .text(let max, _) = rule { #expect(maxLength(input[field]) == max, "ItineraryFields.\(field)") }
        }
        // The resource shows every declared field, lodging's under `lodging`.
        let resource = try properties("Itinerary"), lodging = try properties("Lodging")
        for field in shown(ItineraryFields.schema) {
            if field.hasPrefix("lodging.") {
                #expect(lodging[String(field.dropFirst("lodging.".count))] != nil, "Lodging.\(field)")
            } else {
                #expect(resource[field] != nil, "Itinerary.\(field)")
            }
        }
    }

    @Test("a place to go and a profile show every declared field")
    func stopsAndProfiles() throws {
        #expect(shown(StopFields.schema).subtracting(try properties("Stop").keys).isEmpty)
        #expect(shown(ProfileFields.schema).subtracting(try properties("Profile").keys).isEmpty)
    }
}
