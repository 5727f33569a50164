/// Activity words for the trip folder's items and checklist lines: they are named by what
/// they are ("the train Lisbon → Porto on 3 May", "“Sunscreen” on the checklist") rather
/// than as places to go.
extension ActivityWording {
    /// Whether rows of `kind` are worded with `itemPhrase`.
    public static func isTripFolderKind(_ kind: String) -> Bool {
        kind == EntityKind.checklistItem.rawValue || EntityKind.tripItems.contains { $0.rawValue == kind }
    }

    /// How activity names an item or checklist line from its fields: "the train Lisbon →
    /// Porto on 3 May", "the stay at Casa Porto from 1 May", "“Sunscreen” on the checklist".
    public static func itemPhrase(kind: String, fields: [String: JSONValue]) -> String {
        if kind == EntityKind.checklistItem.rawValue {
            return "“\(fields["text"]?.stringValue ?? "an item")” on the checklist"
        }
        let title = fields["title"]?.stringValue ?? "an item"
        let date = fields["start"]?.stringValue.flatMap(dayAndMonth)
        switch kind {
        case EntityKind.lodging.rawValue:
            return "the stay at \(title)" + (date.map { " from \($0)" } ?? "")
        case EntityKind.transport.rawValue:
            let mode = fields["mode"]?.stringValue ?? "other"
            let word = mode == "other" ? "journey" : mode == "car" ? "drive" : mode
            return "the \(word) \(title)" + (date.map { " on \($0)" } ?? "")
        case EntityKind.food.rawValue:
            return "\(title) (food)" + (date.map { " on \($0)" } ?? "")
        default:
            return "\(title)" + (date.map { " on \($0)" } ?? "")
        }
    }

    /// "3 May" from `2027-05-03` or `2027-05-03T10:00`; nil for anything else.
    static func dayAndMonth(_ text: String) -> String? {
        let u = Array(text.utf8)
        guard u.count >= 10, FieldRule.isDate(String(decoding: u[0..<10], as: UTF8.self)),
            let month = Int(String(decoding: u[5..<7], as: UTF8.self)),
            let day = Int(String(decoding: u[8..<10], as: UTF8.self)), (1...12).contains(month)
        else { return nil }
        let names = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        return "\(day) \(names[month - 1])"
    }

    /// The sentence of a row about an item or checklist line; `phrase` names it.
    static func tripFolderSummary(_ row: Row, who: String, phrase: String, schema: Schema) -> String? {
        switch ActivityAction(rawValue: row.action) {
        case .created: return "\(who) added \(phrase)"
        case .deleted: return "\(who) removed \(phrase)"
        case .restored: return "\(who) restored \(phrase)"
        case .moved: return "\(who) moved \(phrase)"
        case .edited where row.kind == EntityKind.checklistItem.rawValue && row.field == "checked":
            return "\(who) \(row.new == .bool(true) ? "ticked" : "unticked") \(phrase)"
        case .edited:
            let field = row.field.map { label(of: $0, kind: row.kind, schema: schema) } ?? "a field"
            switch (row.old, row.new) {
            case (let o?, let n?) where !o.isNull && !n.isNull:
                return "\(who) changed the \(field) of \(phrase) from “\(o)” to “\(n)”"
            case (_, let n?) where !n.isNull: return "\(who) set the \(field) of \(phrase) to “\(n)”"
            default: return "\(who) cleared the \(field) of \(phrase)"
            }
        default: return nil
        }
    }
}
