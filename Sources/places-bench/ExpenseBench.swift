import Foundation
import PlacesControlClient

/// Group expenses' figures (issue 14), through the socket of a real daemon: a trip with 20
/// travellers and 10,000 expenses (mixed split modes, three currencies) — balances and the
/// exact settle-up, cached (nothing changed since the last read) and right after a change.
enum ExpenseBench {
    static func run() throws {
        let trip = try tenThousandExpenses { added, msEach in
            print(String(format: "  POST …/expenses: %5d added, the last 2,500 took %.2f ms each", added, msEach))
        }
        let (client, base, firstID) = (trip.daemon.client, trip.base, trip.firstID)
        print(
            String(
                format: "POST …/expenses (10,000 into one trip): %.1f s, %.2f ms each on average", trip.addingSeconds,
                trip.addingSeconds / 10))
        for (route, target) in [("balances", "20 ms"), ("settlement", "200 ms")] {
            let path = "\(base)/\(route)"
            let first = try client.send("GET", path)
            guard first.status == 200 else { throw BenchError("GET \(route) answered \(first.status)") }
            let answer = try object(first)
            let cached = try TripBench.latencies(2_000, measuring: { _ in _ = try client.send("GET", path) })
            // Each read follows an edit of an expense's title, so the expenses are read from
            // the store again and the ledger (and settle-up) computed afresh.
            let fresh = try TripBench.latencies(
                200,
                before: { i in
                    _ = try client.send(
                        "PATCH", "\(base)/expenses/\(firstID)", body: Array(#"{"title":"Lunch \#(i)"}"#.utf8))
                }, measuring: { _ in _ = try client.send("GET", path) })
            let detail =
                route == "settlement"
                ? ", \((answer["transfers"] as? [Any])?.count ?? -1) transfers, optimal \(answer["optimal"] as? Bool ?? false)"
                : ", \((answer["balances"] as? [Any])?.count ?? -1) travellers"
            print(
                String(
                    format:
                        "GET …/%@ (20 travellers, 10,000 expenses%@): p50 %.2f ms, p99 %.2f ms; right after a change: p50 %.2f ms, p99 %.2f ms (target p99 <= %@)",
                    route, detail, cached.p50, cached.p99, fresh.p50, fresh.p99, target))
        }
    }

    /// A trip of 20 travellers and 10,000 expenses (`expense`), in a daemon of its own.
    struct ExpenseTrip {
        let daemon: BenchDaemon
        /// `/v1/itineraries/<id>`.
        let base: String
        let travellers: [String]
        let firstID: String
        /// The 10,000 adds, one after another.
        let addingSeconds: Double
    }

    /// Adds the 10,000 expenses, calling `progress` every 2,500 with the count and the ms
    /// each of the last 2,500 took.
    static func tenThousandExpenses(progress: (Int, Double) -> Void) throws -> ExpenseTrip {
        let daemon = try BenchDaemon(name: "Expenses")
        let client = daemon.client
        let itinerary = try object(client.send("POST", "/v1/itineraries", body: Array(#"{"name":"Bench trip"}"#.utf8)))
        guard let id = itinerary["id"] as? String else { throw BenchError("could not create the itinerary") }
        let base = "/v1/itineraries/\(id)"
        _ = try client.send("PATCH", base, body: Array(#"{"settlementCurrency":"EUR"}"#.utf8))
        _ = try client.send("PUT", "\(base)/rates", body: Array(#"{"rates":{"USD":"0.9231","JPY":"0.0061"}}"#.utf8))
        for n in 1..<20 {
            _ = try client.send("POST", "\(base)/travellers", body: Array(#"{"name":"Traveller \#(n)"}"#.utf8))
        }
        let list = try object(client.send("GET", "\(base)/travellers"))
        let people = (list["travellers"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        guard people.count == 20 else { throw BenchError("expected 20 travellers, got \(people.count)") }

        let clock = ContinuousClock()
        let start = clock.now
        var firstID = ""
        var lastMark = 0.0
        for i in 0..<10_000 {
            let r = try client.send("POST", "\(base)/expenses", body: Array(expense(i, people).utf8))
            guard r.status == 201 else {
                throw BenchError("expense \(i) refused (\(r.status)): \(String(decoding: r.body, as: UTF8.self))")
            }
            if i == 0 { firstID = try object(r)["id"] as? String ?? "" }
            if (i + 1) % 2_500 == 0 {
                let now = PlacesBench.seconds(clock.now - start)
                progress(i + 1, (now - lastMark) / 2.5)
                lastMark = now
            }
        }
        return ExpenseTrip(
            daemon: daemon, base: base, travellers: people, firstID: firstID,
            addingSeconds: PlacesBench.seconds(clock.now - start))
    }

    static func object(_ r: ControlClient.Response) throws -> [String: Any] {
        guard let o = try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any] else {
            throw BenchError("not a JSON object (\(r.status))")
        }
        return o
    }

    /// Expense `i`: one or two payers, a split by each mode in turn among 3–20 travellers,
    /// one in ten in USD and one in twenty in JPY, one in fifty a payment.
    static func expense(_ i: Int, _ people: [String]) -> String {
        let n = people.count
        let payer = people[(i * 7) % n]
        if i % 50 == 49 {
            let payee = people[(i * 7 + 3) % n]
            return
                #"{"title":"Payment \#(i)","kind":"transfer","amount":{"amountMinor":\#(500 + i % 900),"currency":"EUR"},"paidBy":[{"traveller":"\#(payer)"}],"split":{"mode":"exact","among":[{"traveller":"\#(payee)","amountMinor":\#(500 + i % 900)}]}}"#
        }
        let currency = i % 20 == 3 ? "JPY" : i % 10 == 1 ? "USD" : "EUR"
        let amount = currency == "JPY" ? 1_000 + (i * 37) % 20_000 : 100 + (i * 7_919) % 30_000
        let size = 3 + (i * 13) % (n - 2)
        let among = (0..<size).map { people[(i + $0 * 3) % n] }
        let unique = Array(NSOrderedSet(array: among)) as? [String] ?? among
        let parts: String
        switch i % 4 {
        case 0:
            parts = #""mode":"equal","among":[\#(unique.map { #"{"traveller":"\#($0)"}"# }.joined(separator: ","))]"#
        case 1:
            parts =
                #""mode":"shares","among":[\#(unique.enumerated().map { #"{"traveller":"\#($1)","shares":\#(1 + $0 % 3)}"# }.joined(separator: ","))]"#
        case 2:
            var left = amount
            let each = amount / unique.count
            let entries = unique.enumerated().map { k, p -> String in
                let part = k == unique.count - 1 ? left : each
                left -= part
                return #"{"traveller":"\#(p)","amountMinor":\#(part)}"#
            }
            parts = #""mode":"exact","among":[\#(entries.joined(separator: ","))]"#
        default:
            let two = Array(unique.prefix(2))
            parts =
                #""mode":"percent","among":[{"traveller":"\#(two[0])","percent":33.33},{"traveller":"\#(two[1])","percent":66.67}]"#
        }
        let payers =
            i % 5 == 0 && amount > 10
            ? #"[{"traveller":"\#(payer)","amountMinor":\#(amount / 2)},{"traveller":"\#(people[(i * 7 + 1) % n])","amountMinor":\#(amount - amount / 2)}]"#
            : #"[{"traveller":"\#(payer)"}]"#
        let category = ["food", "lodging", "transport", "activity", "groceries"][i % 5]
        return
            #"{"title":"Expense \#(i)","amount":{"amountMinor":\#(amount),"currency":"\#(currency)"},"category":"\#(category)","date":"2027-05-\#(String(format: "%02d", 1 + i % 28))","paidBy":\#(payers),"split":{\#(parts)}}"#
    }
}
