// Group expenses (issue 14): travellers without a device, expenses and payments, and the
// itinerary's settlement currency and rate table. Declared like the shipped kinds in
// Schema+Shipped.swift; `Protocol/op-format.md` §5 lists them and `Protocol/expenses.md`
// documents the money registers (`terms`, `rates`).

extension EntityKind {
    /// Someone on the trip without a device (a child, a friend without the app). Members are
    /// travellers too, named by their key; they are not `traveller` entities.
    public static let traveller = EntityKind(declaring: "traveller")
    /// An expense, or a payment between travellers (`terms.kind` = `transfer`).
    public static let expense = EntityKind(declaring: "expense")
}

/// A traveller without a device.
public enum TravellerFields: EntityDeclaration {
    public static let name = FieldKey<Self, String>("name", .text(maxLength: 100, required: true), column: "name")

    public static let schema = EntitySchema(.traveller, id: .random, fields: [name])
}

/// An expense or a payment. Everything about the money is one register, `terms`, so that
/// two concurrent edits can never combine into payers and a split that disagree with the
/// amount: the last writer's whole, checked value wins.
public enum ExpenseFields: EntityDeclaration {
    public static let title = FieldKey<Self, String>("title", .text(maxLength: 200, required: true))
    public static let date = FieldKey<Self, String>("date", .date)
    public static let category = FieldKey<Self, String>("category", .text(maxLength: 50, required: false))
    /// An item of the trip the expense is for (may dangle after the item is removed).
    public static let itemID = FieldKey<Self, String>("itemId", .optional(.entityID), label: "item")
    /// Amount, payers, split, settlement currency and frozen rate (`ExpenseTerms`).
    public static let terms = FieldKey<Self, ExpenseTerms>("terms", .expenseTerms, label: "amount and split")

    public static let schema = EntitySchema(.expense, id: .random, fields: [title, date, category, itemID, terms])
}

extension ExpenseTerms: FieldValue {
    public var jsonValue: JSONValue { json }
    public init?(jsonValue: JSONValue) { try? self.init(json: jsonValue) }
}
