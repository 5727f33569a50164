import PlacesModel

extension Store.ActivityRecord {
    /// The stored action as the typed domain reads it; nil for a word this build does not know.
    public var activityAction: ActivityAction? { ActivityAction(rawValue: action) }

    /// The row as `ActivityWording.summary` reads it, with `old` and `new` parsed by the
    /// caller (the JSON text is stored).
    public func wordingRow(old: JSONValue?, new: JSONValue?) -> ActivityWording.Row {
        ActivityWording.Row(
            action: action, kind: kind, entity: entity, author: author, field: field, old: old, new: new)
    }
}
