/// One document kind: its name (`itinerary`, `library`, `profile`, as the store records it)
/// and the entity kinds it holds.
public struct DocumentSchema: Sendable {
    /// The document kind's raw name.
    public let name: String
    /// The entity kinds its ops may name, in declared order.
    public let entities: [EntitySchema]

    public init(_ name: String, entities: [EntitySchema]) {
        self.name = name
        self.entities = entities
    }
}
