import PlacesModel

/// What a service decided to write: one op of `changes` to `doc`, and the summary event
/// subscribers see. Services compute edits from what they read; the engine commits them,
/// in the same synchronous step, so no other request changes the document in between.
struct Edit {
    var doc: DocumentID
    var changes: [Change]
    var summary: String
}
