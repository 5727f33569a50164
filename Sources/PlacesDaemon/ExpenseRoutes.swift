import PlacesControl
import PlacesModel

/// The control API's expense routes (`/v1/itineraries/{id}/travellers|expenses|balances|…`),
/// kept out of `Router`'s table. Every route is listed in `Protocol/control-api.yaml`.
enum ExpenseRoutes {
    /// The third path segment of the routes this table answers.
    static let sections: Set<String> = [
        "travellers", "expenses", "expenses.csv", "balances", "balances.csv", "settlement", "debts", "rates",
    ]

    /// `path` is the request's path after `/v1`: `itineraries`, the id, a section, ….
    static func route(_ engine: Engine, _ r: ControlRequest, _ path: [String]) async throws -> ControlResponse {
        let id = path[1]
        switch (r.method, path.count, path[2]) {
        case ("GET", 3, "travellers"): return .json(status: 200, body: try await engine.travellers(id))
        case ("POST", 3, "travellers"):
            return .encoding(try await engine.addTraveller(id, try Router.object(r)), status: 201)
        case ("PATCH", 4, "travellers"):
            return .encoding(try await engine.renameTraveller(id, traveller: path[3], try Router.object(r)))
        case ("DELETE", 4, "travellers"):
            try await engine.removeTraveller(id, traveller: path[3])
            return .json(status: 204, body: [])
        case ("GET", 3, "expenses"):
            return .json(status: 200, body: try await engine.expenses(id, kind: r.query["kind"]))
        case ("POST", 3, "expenses"):
            return .written(try await engine.createExpense(id, try Router.object(r)), status: 201)
        case ("GET", 4, "expenses"): return .written(try await engine.expense(id, expense: path[3]))
        case ("PATCH", 4, "expenses"):
            return .written(try await engine.updateExpense(id, expense: path[3], try Router.object(r)))
        case ("DELETE", 4, "expenses"):
            try await engine.deleteExpense(id, expense: path[3])
            return .json(status: 204, body: [])
        case ("GET", 3, "expenses.csv"): return try await engine.expenseCSV(id, balances: false)
        case ("GET", 3, "balances.csv"): return try await engine.expenseCSV(id, balances: true)
        case ("GET", 3, "balances"): return .json(status: 200, body: try await engine.balances(id))
        case ("GET", 3, "settlement"): return .json(status: 200, body: try await engine.settlement(id))
        case ("GET", 3, "debts"): return .json(status: 200, body: try await engine.debts(id))
        case ("GET", 3, "rates"): return .encoding(try await engine.rates(id))
        case ("PUT", 3, "rates"): return .encoding(try await engine.putRates(id, try Router.object(r)))
        default:
            throw ServiceError(.noRoute, "\(r.method) \(r.path) is not part of the API; see Protocol/control-api.yaml")
        }
    }
}
