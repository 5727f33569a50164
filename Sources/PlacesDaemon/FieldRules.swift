import PlacesControl
import PlacesModel

/// The control API's face of `PlacesModel.FieldRule` (the rules moved to the model so that the
/// store applies them to ops from peers too): a refused value becomes a 400 `invalid-field`.
extension FieldRule {
    /// Checks one value; returns the value to store.
    func check(_ field: String, _ value: JSONValue) throws(Problem) -> JSONValue {
        do { return try validate(field, value) } catch { throw Problem.invalid(error.field, error.message) }
    }

    /// Validates a request object against `rules`. `creating` demands every required field.
    /// Returns the stored fields in a stable order.
    static func validate(
        _ object: [String: JSONValue], rules: [String: FieldRule], creating: Bool, ignoring: Set<String> = []
    ) throws(Problem) -> [(String, JSONValue)] {
        do {
            return try validatedFields(object, rules: rules, creating: creating, ignoring: ignoring)
        } catch { throw Problem.invalid(error.field, error.message) }
    }
}

extension EntitySchema {
    /// Validates a request object against the kind's declared request fields (see
    /// `FieldRule.validate(_:rules:creating:ignoring:)`): `PlaceFields.schema.validate(body,
    /// creating: true)`.
    func validate(_ object: [String: JSONValue], creating: Bool, ignoring: Set<String> = [])
        throws(Problem) -> [(String, JSONValue)]
    {
        try FieldRule.validate(object, rules: requestRules, creating: creating, ignoring: ignoring)
    }
}
