import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// A trip's money as a user reads it on one daemon.
extension SyncNode {
    /// `GET …/ROUTE` as an object (nil when it does not answer 200).
    func expenseRead(_ itinerary: String, _ route: String) -> [String: JSONValue]? {
        guard let r = try? d.send("GET", "/v1/itineraries/\(itinerary)/\(route)"), r.status == 200 else { return nil }
        return try? JSONDecoder().decode(JSONValue.self, from: Data(r.body)).objectValue
    }

    /// `GET …/ROUTE` without the display names (each daemon names people as it knows them:
    /// a contact's name, else the start of their id), balances in id order.
    func expenseFigures(_ itinerary: String, _ route: String) -> JSONValue? {
        func strip(_ v: JSONValue) -> JSONValue {
            switch v {
            case .object(let o):
                return .object(
                    o.filter { !["name", "fromName", "toName"].contains($0.key) }.mapValues(strip))
            case .array(let a):
                // Balances are listed by name, and names differ between devices: sort by id.
                return .array(
                    a.map(strip).sorted {
                        ($0.objectValue?["traveller"]?.stringValue ?? "")
                            < ($1.objectValue?["traveller"]?.stringValue ?? "")
                    })
            default: return v
            }
        }
        return expenseRead(itinerary, route).map { strip(.object($0)) }
    }

    /// Posts an expense; returns its id.
    func addExpense(_ itinerary: String, _ body: String) throws -> String {
        let r = try d.send("POST", "/v1/itineraries/\(itinerary)/expenses", json: body)
        guard r.status == 201,
            let id = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)).objectValue?["id"]?.stringValue
        else { throw HarnessError("\(name) could not add an expense: \(r.status) \(r.text)") }
        return id
    }
}

/// Issue 14, item 7 ("Everything syncs … viewers see expenses and balances but cannot change
/// them"): three real daemons sharing one trip's expenses.
@Suite("Expenses between real daemons", .serialized)
struct ExpenseSyncTests {
    @Test("an editor's expenses and payments reach everyone; every device shows the same cents; a viewer only reads")
    func threeDaemonsAgree() async throws {
        let a = try SyncNode("Ana"), b = try SyncNode("Bruno"), c = try SyncNode("Carla")
        for (x, y) in [(a, b), (b, a), (a, c), (c, a)] { try x.trust(y) }
        try a.addPeer(b)
        try b.addPeer(a)
        try a.addPeer(c)
        try c.addPeer(a)
        let it = try a.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Lisbon"}"#).id
        try a.share(it, with: b.id, role: "editor")
        try a.share(it, with: c.id, role: "viewer")
        try await eventually("Bruno and Carla hold the trip") {
            (try? b.itinerary(it).role) == "editor" && (try? c.itinerary(it).role) == "viewer"
        }
        // A named traveller without a device, added by the editor Bruno.
        let leoReply = try b.d.send("POST", "/v1/itineraries/\(it)/travellers", json: #"{"name":"Leo"}"#)
        #expect(leoReply.status == 201, "\(leoReply.text)")
        let leo =
            try JSONDecoder().decode(JSONValue.self, from: Data(leoReply.body)).objectValue?["id"]?.stringValue ?? ""
        try await eventually("Ana sees four travellers: three members and Leo") {
            a.expenseRead(it, "travellers")?["count"] == .int(4)
        }

        _ = try a.addExpense(
            it,
            #"{"title":"Dinner at Ramiro","amount":{"amountMinor":8450,"currency":"EUR"},"paidBy":[{"traveller":"\#(a.id)"}],"split":{"mode":"equal","among":[{"traveller":"\#(a.id)"},{"traveller":"\#(b.id)"},{"traveller":"\#(c.id)"}]},"category":"food"}"#
        )
        _ = try b.addExpense(
            it,
            #"{"title":"Tram passes","amount":{"amountMinor":3000,"currency":"EUR"},"paidBy":[{"traveller":"\#(b.id)"}],"split":{"mode":"shares","among":[{"traveller":"\#(a.id)","shares":1},{"traveller":"\#(b.id)","shares":1},{"traveller":"\#(leo)","shares":2}]}}"#
        )
        do {
            try await eventually(
                "all three list both expenses with the same balances and settle-up", timeout: .seconds(20)
            ) {
                let answers = [a, b, c].map { ($0.expenseFigures(it, "balances"), $0.expenseFigures(it, "settlement")) }
                return a.expenseRead(it, "expenses")?["count"] == .int(2)
                    && c.expenseRead(it, "expenses")?["count"] == .int(2)
                    && answers.allSatisfy { $0.0 != nil && $0.0 == answers[0].0 && $0.1 == answers[0].1 }
            }
        } catch {
            for n in [a, b, c] {
                Issue.record(
                    "\(n.name): \(String(describing: n.expenseRead(it, "balances"))) \(String(describing: n.expenseRead(it, "expenses")?["count"]))"
                )
            }
            throw error
        }
        let balances = try #require(c.expenseRead(it, "balances"))
        let sum = (balances["balances"]?.arrayValue ?? []).compactMap { $0.objectValue?["balanceMinor"]?.intValue }
            .reduce(0, +)
        #expect(sum == 0)

        // The viewer reads everything and changes nothing.
        let refused = try c.d.send(
            "POST", "/v1/itineraries/\(it)/expenses",
            json:
                #"{"title":"Sneaky","amount":{"amountMinor":100,"currency":"EUR"},"paidBy":[{"traveller":"\#(c.id)"}]}"#
        )
        #expect(refused.status == 403, "\(refused.text)")
        #expect(try c.d.send("PUT", "/v1/itineraries/\(it)/rates", json: #"{"rates":{"USD":"0.9"}}"#).status == 403)
        #expect(try c.d.send("POST", "/v1/itineraries/\(it)/travellers", json: #"{"name":"X"}"#).status == 403)
        #expect(try c.d.send("GET", "/v1/itineraries/\(it)/expenses.csv").status == 200)

        // Carla pays Ana what the suggestion says (recorded by the editor Bruno for her).
        let settle = try #require(a.expenseRead(it, "settlement"))
        let carlaPays = try #require(
            settle["transfers"]?.arrayValue?.compactMap(\.objectValue).first { $0["from"] == .string(c.id) })
        let amount = carlaPays["amountMinor"]?.intValue ?? 0
        let to = carlaPays["to"]?.stringValue ?? ""
        _ = try b.addExpense(
            it,
            #"{"title":"Carla paid back","kind":"transfer","amount":{"amountMinor":\#(amount),"currency":"EUR"},"paidBy":[{"traveller":"\#(c.id)"}],"split":{"mode":"exact","among":[{"traveller":"\#(to)","amountMinor":\#(amount)}]}}"#
        )
        try await eventually(
            "every device shows Carla settled and the same remaining suggestions", timeout: .seconds(20)
        ) {
            let lists = [a, b, c].map { $0.expenseFigures(it, "settlement")?.objectValue?["transfers"] }
            let carlaDone = lists[0]?.arrayValue?.contains { $0.objectValue?["from"] == .string(c.id) } == false
            return carlaDone && lists.allSatisfy { $0 != nil && $0 == lists[0] }
        }
        let remaining = a.expenseRead(it, "settlement")?["transfers"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let before = settle["transfers"]?.arrayValue?.compactMap(\.objectValue).filter { $0 != carlaPays } ?? []
        #expect(remaining == before, "paying one suggestion leaves the others as they were")

        let words = c.activitySummaries(it)
        #expect(words.contains { $0.hasSuffix("added the expense “Dinner at Ramiro” (84.50 EUR)") }, "\(words)")
        #expect(words.contains { $0.hasSuffix("added the traveller Leo") }, "\(words)")
        #expect(words.contains { $0.contains("recorded the payment of") }, "\(words)")
    }
}
