import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// Issue 34: a daemon keeps each trip's ledger current by reading again only the expenses a
/// change touched, also for ops from a peer. Two editors add, edit and delete expenses in
/// random turns; once both hold everything, each one's balances, settle-up, debts and listing
/// (kept current op by op) equal what it answers after rebuilding its tables and reading
/// every expense again.
@Suite("Expense ledger kept current across daemons", .serialized)
struct ExpenseLedgerSyncTests {
    static let routes = ["balances", "settlement", "debts", "expenses"]

    @Test("random adds, edits and deletes at two editors: each ledger kept op by op equals a full rebuild's")
    func peersOpsKeepTheLedgerExact() async throws {
        let a = try SyncNode("Ana"), b = try SyncNode("Bruno")
        for (x, y) in [(a, b), (b, a)] {
            try x.trust(y)
            try x.addPeer(y)
        }
        let it = try a.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Porto"}"#).id
        _ = try a.d.send("PATCH", "/v1/itineraries/\(it)", json: #"{"settlementCurrency":"EUR"}"#)
        try a.share(it, with: b.id, role: "editor")
        try await eventually("Bruno holds the trip as an editor") { (try? b.itinerary(it).role) == "editor" }
        let people = [a.id, b.id]
        var random = SeededRandom(seed: 34)
        var ids = [String]()
        for round in 0..<4 {
            for step in 0..<12 {
                let node = random.next() % 2 == 0 ? a : b
                let roll = random.next() % 6
                if roll < 3 || ids.isEmpty {
                    let amount = 100 + random.next() % 9_000
                    let payer = people[Int(random.next() % 2)]
                    ids.append(
                        try node.addExpense(
                            it,
                            #"{"title":"E\#(round)-\#(step)","amount":{"amountMinor":\#(amount),"currency":"EUR"},"category":"food","paidBy":[{"traveller":"\#(payer)"}],"split":{"mode":"shares","among":[{"traveller":"\#(a.id)","shares":\#(1 + random.next() % 3)},{"traveller":"\#(b.id)","shares":1}]}}"#
                        ))
                } else if roll < 5 {
                    // The other daemon may not hold it yet: a 404 there changes nothing.
                    let id = ids[Int(random.next() % UInt64(ids.count))]
                    _ = try node.d.send(
                        "PATCH", "/v1/itineraries/\(it)/expenses/\(id)",
                        json: #"{"amount":{"amountMinor":\#(50 + random.next() % 5_000),"currency":"EUR"}}"#)
                } else {
                    let id = ids.remove(at: Int(random.next() % UInt64(ids.count)))
                    _ = try node.d.send("DELETE", "/v1/itineraries/\(it)/expenses/\(id)")
                }
                // Each daemon reads after each change, so its ledger moves op by op.
                _ = a.expenseRead(it, "balances")
                _ = b.expenseRead(it, "settlement")
            }
            try await eventually("both daemons hold the same expenses and balances", timeout: .seconds(30)) {
                a.expenseRead(it, "expenses")?["count"] == b.expenseRead(it, "expenses")?["count"]
                    && ["balances", "settlement", "debts"].allSatisfy {
                        a.expenseFigures(it, $0) != nil && a.expenseFigures(it, $0) == b.expenseFigures(it, $0)
                    }
            }
            for node in [a, b] {
                let kept = Self.routes.map { node.expenseRead(it, $0) }
                #expect(try node.d.send("POST", "/v1/maintenance/rebuild").status == 200)
                let anew = Self.routes.map { node.expenseRead(it, $0) }
                #expect(kept == anew, "\(node.name), round \(round)")
            }
        }
    }
}
