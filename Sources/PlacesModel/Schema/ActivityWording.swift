/// The sentence an activity row reads as (`ActivityEntry.summary`): "Ana changed notes from
/// “a” to “b”". A field is named by its declared `FieldSpec.label`, so a kind added to the
/// schema reads right without new wording code ("changed lodging price from …").
public enum ActivityWording {
    /// One stored activity row, as the wording needs it.
    public struct Row: Sendable {
        /// The stored action (`ActivityAction` raw value).
        public var action: String
        /// The entity kind's raw name.
        public var kind: String
        /// The entity written.
        public var entity: EntityID
        /// The author's key in hex.
        public var author: String
        /// The field written, for a `set`.
        public var field: String?
        /// The value the author saw, and the value written (or the name, for a create).
        public var old: JSONValue?
        public var new: JSONValue?

        public init(
            action: String, kind: String, entity: EntityID, author: String, field: String?, old: JSONValue?,
            new: JSONValue?
        ) {
            self.action = action
            self.kind = kind
            self.entity = entity
            self.author = author
            self.field = field
            self.old = old
            self.new = new
        }
    }

    /// The summary of `row`: `who` is the author's display name, `subject` the member an
    /// entity id names (for sharing rows), `entityName` the entity's current name (for an
    /// item or checklist line, its `itemPhrase`).
    public static func summary(
        _ row: Row, who: String, subject: String, entityName: String, schema: Schema = .shipped
    ) -> String {
        if isTripFolderKind(row.kind),
            let line = tripFolderSummary(row, who: who, phrase: entityName, schema: schema)
        {
            return line
        }
        if isExpenseKind(row.kind), let line = expenseSummary(row, who: who, phrase: entityName, schema: schema) {
            return line
        }
        let new = row.new
        let action = ActivityAction(rawValue: row.action)
        let isItinerary = row.kind == EntityKind.itinerary.rawValue
        let isLink = row.kind == EntityKind.link.rawValue
        switch action {
        case .joined where row.entity == row.author:
            return "\(who) joined through a link as \(new?.stringValue ?? "member")"
        case .joined:
            return "\(subject) joined through a link as \(new?.stringValue ?? "member") (let in by \(who))"
        case .shared where isLink:
            let role = new?.stringValue ?? "share"
            return "\(who) made \(role == Role.editor.rawValue ? "an" : "a") \(role) link (\(row.entity.prefix(8)))"
        case .shared:
            return "\(who) shared the itinerary with \(subject) as \(new?.stringValue ?? "member")"
        case .unshared where isLink: return "\(who) revoked link \(row.entity.prefix(8))"
        case .unshared: return "\(who) removed \(subject) from the itinerary"
        case .left: return "\(who) left the itinerary"
        case .viewed: return "\(who) viewed the itinerary"
        case .edited where isItinerary && row.field == ItineraryFields.rates.name:
            return "\(who) updated the trip's exchange rates"
        case .edited where row.kind == EntityKind.member.rawValue && row.field == MemberFields.role.name:
            return "\(who) made \(subject) \(new?.stringValue ?? "a member")"
        case .created where isItinerary: return "\(who) created the itinerary “\(new?.stringValue ?? entityName)”"
        case .created: return "\(who) added “\(new?.stringValue ?? entityName)” to the places to go"
        case .deleted where isItinerary: return "\(who) deleted the itinerary"
        case .deleted: return "\(who) removed “\(entityName)” from the places to go"
        case .moved: return "\(who) moved “\(entityName)” in the places to go"
        case .restored: return "\(who) restored “\(entityName)”"
        case .edited, .equivocated, nil:
            let field = row.field.map { name in label(of: name, kind: row.kind, schema: schema) } ?? "a field"
            switch (row.old, new) {
            case (let o?, let n?) where !o.isNull && !n.isNull: return "\(who) changed \(field) from “\(o)” to “\(n)”"
            case (_, let n?) where !n.isNull: return "\(who) set \(field) to “\(n)”"
            default: return "\(who) cleared \(field)"
            }
        }
    }

    /// How activity names field `name` of the kind named `kind`: its declared label, or the
    /// name itself for a field or kind the schema does not declare.
    public static func label(of name: String, kind: String, schema: Schema = .shipped) -> String {
        guard let kind = schema.kindsByName[kind], let entity = schema.entity(kind) else { return name }
        return entity.label(of: name)
    }
}
