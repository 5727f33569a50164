import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// The ledger kept current change by change (`ExpenseBook`: only the expenses a change
/// touched are read again) answers what a ledger read anew answers: after seeded random
/// sequences of expenses added, edited and deleted, payments, travellers added, renamed and
/// removed, and rate changes, balances, settle-up, debts, the listing and the travellers read
/// right after each change equal what the daemon answers once its tables are rebuilt and
/// every expense read again (`POST /v1/maintenance/rebuild` drops what it kept).
@Suite("Expense ledger kept current", .serialized)
struct ExpenseLedgerIncrementalTests {
    static let routes = ["balances", "settlement", "debts", "expenses", "travellers"]

    /// SplitMix64: a seeded generator, the same on every run.
    struct SplitMix64 {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func read(_ t: LoggedInDaemon, _ base: String) async throws -> [String: JSONValue] {
        var out = [String: JSONValue]()
        for route in routes {
            let r = try await t.d.send("GET", "\(base)/\(route)")
            #expect(r.status == 200, "\(route): \(r.text)")
            out[route] = try JSONDecoder().decode(JSONValue.self, from: Data(r.body))
        }
        return out
    }

    /// A random expense or payment among `people`, in EUR or USD.
    static func expense(_ random: inout SplitMix64, _ people: [String], _ n: Int) -> String {
        func pick() -> String { people[Int(random.next() % UInt64(people.count))] }
        let amount = 100 + Int(random.next() % 20_000)
        let payer = pick()
        if random.next() % 8 == 0 {
            let payee = people.first { $0 != payer } ?? payer
            return
                #"{"title":"Payment \#(n)","kind":"transfer","amount":{"amountMinor":\#(amount),"currency":"EUR"},"paidBy":[{"traveller":"\#(payer)"}],"split":{"mode":"exact","among":[{"traveller":"\#(payee)","amountMinor":\#(amount)}]}}"#
        }
        let currency = random.next() % 4 == 0 ? "USD" : "EUR"
        var among = [String]()
        for person in people where random.next() % 2 == 0 { among.append(person) }
        if among.isEmpty { among = [payer] }
        let split: String
        switch random.next() % 3 {
        case 0:
            split = #""mode":"equal","among":[\#(among.map { #"{"traveller":"\#($0)"}"# }.joined(separator: ","))]"#
        case 1:
            split =
                #""mode":"shares","among":[\#(among.map { #"{"traveller":"\#($0)","shares":\#(1 + random.next() % 3)}"# }.joined(separator: ","))]"#
        default:
            var left = amount
            let parts = among.enumerated().map { k, person -> String in
                let part = k == among.count - 1 ? left : amount / among.count
                left -= part
                return #"{"traveller":"\#(person)","amountMinor":\#(part)}"#
            }
            split = #""mode":"exact","among":[\#(parts.joined(separator: ","))]"#
        }
        let category = ["food", "lodging", "transport", "fun"][Int(random.next() % 4)]
        return
            #"{"title":"Expense \#(n)","amount":{"amountMinor":\#(amount),"currency":"\#(currency)"},"category":"\#(category)","date":"2027-05-\#(10 + random.next() % 9)","paidBy":[{"traveller":"\#(payer)"}],"split":{\#(split)}}"#
    }

    @Test(
        "random adds, edits, deletes, payments, traveller and rate changes: each read equals a full rebuild's",
        arguments: [UInt64(1), 2, 3])
    func incrementalEqualsFullRebuild(seed: UInt64) async throws {
        let t = try await LoggedInDaemon.start()
        let it = try await t.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Porto"}"#)
        let base = "/v1/itineraries/\(it.id)"
        _ = try await t.d.send("PATCH", base, json: #"{"settlementCurrency":"EUR"}"#)
        _ = try await t.d.send("PUT", "\(base)/rates", json: #"{"rates":{"USD":"0.9231"}}"#)
        var people = [String]()
        for name in ["Bruno", "Carla", "Dora"] {
            let r = try await t.d.send("POST", "\(base)/travellers", json: #"{"name":"\#(name)"}"#)
            people.append(try ExpenseAPITests.json(r)["id"]?.stringValue ?? "")
        }
        let list = try ExpenseAPITests.json(try await t.d.send("GET", "\(base)/travellers"))
        people.insert(list["travellers"]?.arrayValue?.first?.objectValue?["id"]?.stringValue ?? "", at: 0)
        var random = SplitMix64(seed: seed)
        var expenses = [String]()
        var spare = [String]()  // travellers in no expense (removable)
        for step in 0..<60 {
            let roll = random.next() % 10
            if roll < 4 {
                let r = try await t.d.send("POST", "\(base)/expenses", json: Self.expense(&random, people, step))
                #expect(r.status == 201, "\(r.text)")
                if let id = try ExpenseAPITests.json(r)["id"]?.stringValue { expenses.append(id) }
            } else if roll < 6 && !expenses.isEmpty {
                let id = expenses[Int(random.next() % UInt64(expenses.count))]
                let body =
                    random.next() % 2 == 0
                    ? #"{"title":"Edited \#(step)","date":"2027-05-0\#(1 + random.next() % 9)"}"#
                    : Self.expense(&random, people, step)
                // An expense's terms put on a payment can be refused (400): that changes nothing.
                let r = try await t.d.send("PATCH", "\(base)/expenses/\(id)", json: body)
                #expect(r.status == 200 || r.status == 400, "\(r.text)")
            } else if roll == 6 && !expenses.isEmpty {
                let id = expenses.remove(at: Int(random.next() % UInt64(expenses.count)))
                #expect(try await t.d.send("DELETE", "\(base)/expenses/\(id)").status == 204)
            } else if roll == 7 {
                let r = try await t.d.send("POST", "\(base)/travellers", json: #"{"name":"Guest \#(step)"}"#)
                if let id = try ExpenseAPITests.json(r)["id"]?.stringValue { spare.append(id) }
            } else if roll == 8, let id = spare.popLast() {
                #expect(try await t.d.send("DELETE", "\(base)/travellers/\(id)").status == 204)
            } else if roll == 8 {
                let r = try await t.d.send(
                    "PATCH", "\(base)/travellers/\(people[1])", json: #"{"name":"Bruno \#(step)"}"#)
                #expect(r.status == 200, "\(r.text)")
            } else {
                let rate = "0.\(9_000 + random.next() % 900)"
                _ = try await t.d.send("PUT", "\(base)/rates", json: #"{"rates":{"USD":"\#(rate)"}}"#)
            }
            let kept = try await Self.read(t, base)
            guard step % 6 == 5 else { continue }
            #expect(try await t.d.send("POST", "/v1/maintenance/rebuild").status == 200)
            let anew = try await Self.read(t, base)
            for route in Self.routes {
                #expect(kept[route] == anew[route], "step \(step), \(route)")
            }
        }
        #expect(!expenses.isEmpty)
    }
}
