import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// Group expenses through the control API, as a user tries them on one daemon: travellers,
/// the issue's dinner split three ways, balances to the cent, settle-up, a payment, pairwise
/// debts, a foreign-currency expense with a frozen rate, and the CSV exports.
@Suite("Expense API", .serialized)
struct ExpenseAPITests {
    static func json(_ r: InProcessClient.Response) throws -> [String: JSONValue] {
        guard case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)) else {
            throw HarnessError("not an object: \(r.text)")
        }
        return o
    }

    /// A trip with the owner and two named travellers: (trip id, me, bruno, carla).
    func trip(_ t: LoggedInDaemon) async throws -> (String, String, String, String) {
        let it = try await t.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Lisbon"}"#)
        let base = "/v1/itineraries/\(it.id)/travellers"
        let bruno = try Self.json(try await t.d.send("POST", base, json: #"{"name":"Bruno"}"#))
        let carla = try Self.json(try await t.d.send("POST", base, json: #"{"name":"Carla"}"#))
        let list = try Self.json(try await t.d.send("GET", base))
        let me = list["travellers"]?.arrayValue?.first?.objectValue
        #expect(me?["member"] == .bool(true), "the owner is a traveller")
        #expect(list["count"] == .int(3))
        return (
            it.id, me?["id"]?.stringValue ?? "", bruno["id"]?.stringValue ?? "", carla["id"]?.stringValue ?? ""
        )
    }

    static func balances(_ body: [String: JSONValue]) -> [String: Int64] {
        var out = [String: Int64]()
        for b in body["balances"]?.arrayValue ?? [] {
            if let o = b.objectValue, let name = o["name"]?.stringValue, let v = o["balanceMinor"]?.intValue {
                out[name] = v
            }
        }
        return out
    }

    @Test("84.50 EUR split three ways: shares to the cent, balances sum to zero, settle-up, a payment")
    func dinnerSplitThreeWays() async throws {
        let t = try await LoggedInDaemon.start()
        let (id, me, bruno, carla) = try await trip(t)
        let base = "/v1/itineraries/\(id)"
        let dinner = try await t.d.send(
            "POST", "\(base)/expenses",
            json: """
                {"title":"Dinner at Ramiro","amount":{"amountMinor":8450,"currency":"EUR"},"category":"food",
                 "paidBy":[{"traveller":"\(me)"}],
                 "split":{"mode":"equal","among":[{"traveller":"\(me)"},{"traveller":"\(bruno)"},{"traveller":"\(carla)"}]}}
                """)
        #expect(dinner.status == 201, "\(dinner.text)")
        let d = try Self.json(dinner)
        let shares = d["split"]?.objectValue?["among"]?.arrayValue?.compactMap {
            $0.objectValue?["shareMinor"]?.intValue
        }
        #expect(
            shares?.reduce(0, +) == 8450 && shares?.sorted() == [2816, 2817, 2817],
            "the two extra cents go to two people")
        #expect(d["kind"] == .string("expense") && d["date"]?.stringValue?.count == 10, "kind and date default")
        let it = try Self.json(try await t.d.send("GET", base))
        #expect(it["settlementCurrency"] == .string("EUR"), "the first expense sets the settlement currency")

        var balances = try Self.json(try await t.d.send("GET", "\(base)/balances"))
        #expect(balances["currency"] == .string("EUR"))
        var b = Self.balances(balances)
        #expect(b.values.reduce(0, +) == 0)
        #expect(b["Bruno"].map { $0 < 0 } == true && b["Carla"].map { $0 < 0 } == true)
        let mine = balances["balances"]?.arrayValue?.first { $0.objectValue?["traveller"] == .string(me) }?.objectValue
        #expect(mine?["paidMinor"] == .int(8450))
        #expect(mine?["byCategory"]?.objectValue?["food"]?.intValue == mine?["shareMinor"]?.intValue)

        var settle = try Self.json(try await t.d.send("GET", "\(base)/settlement"))
        var transfers = settle["transfers"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(transfers.count == 2 && settle["optimal"] == .bool(true))
        #expect(transfers.allSatisfy { $0["to"] == .string(me) })
        let brunoOwes = transfers.first { $0["from"] == .string(bruno) }?["amountMinor"]?.intValue ?? 0
        #expect(brunoOwes == -(b["Bruno"] ?? 0))

        // Bruno pays what the suggestion says: a transfer expense; the other suggestion stays.
        let pay = try await t.d.send(
            "POST", "\(base)/expenses",
            json: """
                {"title":"Bruno paid back","kind":"transfer","amount":{"amountMinor":\(brunoOwes),"currency":"EUR"},
                 "paidBy":[{"traveller":"\(bruno)"}],"split":{"mode":"exact","among":[{"traveller":"\(me)","amountMinor":\(brunoOwes)}]}}
                """)
        #expect(pay.status == 201, "\(pay.text)")
        balances = try Self.json(try await t.d.send("GET", "\(base)/balances"))
        b = Self.balances(balances)
        #expect(b["Bruno"] == 0 && b.values.reduce(0, +) == 0)
        settle = try Self.json(try await t.d.send("GET", "\(base)/settlement"))
        let after = settle["transfers"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(after.count == 1 && after.first == transfers.first { $0["from"] == .string(carla) })
        transfers = after

        let debts = try Self.json(try await t.d.send("GET", "\(base)/debts"))
        let pairs = debts["debts"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(pairs.count == 1 && pairs.first?["from"] == .string(carla), "Bruno owes nothing pair by pair either")

        let list = try Self.json(try await t.d.send("GET", "\(base)/expenses"))
        #expect(list["count"] == .int(2))
        let onlyPayments = try Self.json(try await t.d.send("GET", "\(base)/expenses?kind=transfer"))
        #expect(onlyPayments["count"] == .int(1))

        let activity = try Self.json(try await t.d.send("GET", "\(base)/activity"))
        let lines = activity["activity"]?.arrayValue?.compactMap { $0.objectValue?["summary"]?.stringValue } ?? []
        #expect(lines.contains { $0.hasSuffix("added the expense “Dinner at Ramiro” (84.50 EUR)") }, "\(lines)")
        #expect(lines.contains { $0.contains("recorded the payment of") && $0.contains("from Bruno to") }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("added the traveller Carla") }, "\(lines)")
    }

    @Test("a foreign-currency expense freezes its rate: changing the table later changes nothing")
    func frozenRate() async throws {
        let t = try await LoggedInDaemon.start()
        let (id, me, bruno, _) = try await trip(t)
        let base = "/v1/itineraries/\(id)"
        _ = try await t.d.send("PATCH", base, json: #"{"settlementCurrency":"EUR"}"#)
        let missing = try await t.d.send(
            "POST", "\(base)/expenses",
            json: """
                {"title":"Sushi","amount":{"amountMinor":12000,"currency":"JPY"},"paidBy":[{"traveller":"\(me)"}]}
                """)
        #expect(missing.status == 400 && missing.text.contains("\"field\":\"rate\""), "\(missing.text)")
        let put = try Self.json(try await t.d.send("PUT", "\(base)/rates", json: #"{"rates":{"JPY":"0.0061"}}"#))
        #expect(put["rates"]?.objectValue?["JPY"] == .string("0.0061") && put["currency"] == .string("EUR"))
        let sushi = try Self.json(
            try await t.d.send(
                "POST", "\(base)/expenses",
                json: """
                    {"title":"Sushi","amount":{"amountMinor":12000,"currency":"JPY"},"paidBy":[{"traveller":"\(me)"}],
                     "split":{"mode":"shares","among":[{"traveller":"\(me)","shares":2},{"traveller":"\(bruno)","shares":1}]}}
                    """))
        #expect(sushi["rate"] == .string("0.0061"))
        #expect(sushi["settlementAmount"] == Money(amountMinor: 7320, currency: "EUR").jsonValue, "12000 JPY × 0.0061")
        _ = try await t.d.send("PUT", "\(base)/rates", json: #"{"rates":{"JPY":"0.0070"}}"#)
        let again = try Self.json(try await t.d.send("GET", "\(base)/expenses/\(sushi["id"]?.stringValue ?? "")"))
        #expect(again["rate"] == .string("0.0061") && again["settlementAmount"] == sushi["settlementAmount"])
        let b = Self.balances(try Self.json(try await t.d.send("GET", "\(base)/balances")))
        #expect(b["Bruno"] == -2440 && b.values.reduce(0, +) == 0, "a third of 73.20 EUR")

        let change = try await t.d.send("PATCH", base, json: #"{"settlementCurrency":"USD"}"#)
        #expect(change.status == 409 && change.text.contains("expenses-exist"), "\(change.text)")
    }

    @Test("CSV of the expenses and of the balances")
    func csvExports() async throws {
        let t = try await LoggedInDaemon.start()
        let (id, me, bruno, _) = try await trip(t)
        let base = "/v1/itineraries/\(id)"
        _ = try await t.d.send(
            "POST", "\(base)/expenses",
            json: """
                {"title":"=HYPERLINK(\\"x\\"), \\"quoted\\"","amount":{"amountMinor":1000,"currency":"EUR"},
                 "paidBy":[{"traveller":"\(me)"}],"split":{"mode":"percent","among":[{"traveller":"\(me)","percent":60},
                 {"traveller":"\(bruno)","percent":40}]}}
                """)
        let csv = try await t.d.send("GET", "\(base)/expenses.csv")
        #expect(csv.status == 200 && csv.contentType.hasPrefix("text/csv"))
        let rows = csv.text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.first?.hasPrefix("date,title,kind,category,amount,currency") == true)
        #expect(rows.count == 2 && rows[1].contains(#""'=HYPERLINK(""x""), ""quoted""""#), "\(rows)")
        #expect(rows[1].contains(",10.00,EUR,"))
        let balances = try await t.d.send("GET", "\(base)/balances.csv")
        let lines = balances.text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.first == "traveller,paid,share,balance,currency")
        #expect(lines.contains("Bruno,0.00,4.00,-4.00,EUR"), "\(lines)")
    }

    @Test("travellers: rename keeps the money; removing one who is in an expense is refused")
    func travellers() async throws {
        let t = try await LoggedInDaemon.start()
        let (id, me, bruno, carla) = try await trip(t)
        let base = "/v1/itineraries/\(id)"
        _ = try await t.d.send(
            "POST", "\(base)/expenses",
            json: """
                {"title":"Taxi","amount":{"amountMinor":3000,"currency":"EUR"},"paidBy":[{"traveller":"\(bruno)"}],
                 "split":{"mode":"exact","among":[{"traveller":"\(me)","amountMinor":1000},{"traveller":"\(bruno)","amountMinor":2000}]}}
                """)
        let renamed = try Self.json(
            try await t.d.send("PATCH", "\(base)/travellers/\(bruno)", json: #"{"name":"Bruno S."}"#))
        #expect(renamed["name"] == .string("Bruno S.") && renamed["expenseCount"] == .int(1))
        let b = Self.balances(try Self.json(try await t.d.send("GET", "\(base)/balances")))
        #expect(b["Bruno S."] == 1000)
        let refused = try await t.d.send("DELETE", "\(base)/travellers/\(bruno)")
        #expect(refused.status == 409 && refused.text.contains("traveller-has-expenses"), "\(refused.text)")
        #expect(try await t.d.send("DELETE", "\(base)/travellers/\(carla)").status == 204)
        let member = try await t.d.send("DELETE", "\(base)/travellers/\(me)")
        #expect(member.status == 409 && member.text.contains("member-traveller"))
        let list = try Self.json(try await t.d.send("GET", "\(base)/travellers"))
        #expect(list["count"] == .int(2))
    }

    @Test("an expense links to an item of the trip by id or prefix; editing the amount keeps a lone payer whole")
    func linkAndEdit() async throws {
        let t = try await LoggedInDaemon.start()
        let (id, me, bruno, _) = try await trip(t)
        let base = "/v1/itineraries/\(id)"
        let hotel = try Self.json(
            try await t.d.send("POST", "\(base)/items", json: #"{"type":"lodging","title":"Casa Porto"}"#))
        let hotelID = hotel["id"]?.stringValue ?? ""
        let stay = try Self.json(
            try await t.d.send(
                "POST", "\(base)/expenses",
                json: """
                    {"title":"Casa Porto","amount":{"amountMinor":24000,"currency":"EUR"},"itemId":"\(hotelID.prefix(6))",
                     "paidBy":[{"traveller":"\(me)"}],"split":{"mode":"equal","among":[{"traveller":"\(me)"},{"traveller":"\(bruno)"}]},
                     "date":"2027-05-03"}
                    """))
        #expect(stay["itemId"] == .string(hotelID), "stored as the full id")
        let edited = try Self.json(
            try await t.d.send(
                "PATCH", "\(base)/expenses/\(stay["id"]?.stringValue ?? "")",
                json: #"{"amount":{"amountMinor":25000,"currency":"EUR"}}"#))
        #expect(edited["paidBy"]?.arrayValue?.first?.objectValue?["amountMinor"] == .int(25000))
        let activity = try Self.json(try await t.d.send("GET", "\(base)/activity"))
        let lines = activity["activity"]?.arrayValue?.compactMap { $0.objectValue?["summary"]?.stringValue } ?? []
        #expect(
            lines.contains {
                $0.hasSuffix(
                    "changed the amount of the expense “Casa Porto” (250.00 EUR) from 240.00 EUR to 250.00 EUR")
            }, "\(lines)")
        let b = Self.balances(try Self.json(try await t.d.send("GET", "\(base)/balances")))
        #expect(b["Bruno"] == -12500)
        let stranger = try await t.d.send(
            "PATCH", "\(base)/expenses/\(stay["id"]?.stringValue ?? "")", json: #"{"itemId":"ffffffff"}"#)
        #expect(stranger.status == 400 && stranger.text.contains("\"field\":\"itemId\""))
    }

    @Test("bad input: a precise 400 naming the field, and nothing changes")
    func badInput() async throws {
        let t = try await LoggedInDaemon.start()
        let (id, me, bruno, _) = try await trip(t)
        let base = "/v1/itineraries/\(id)"
        let stranger = String(repeating: "ab", count: 16)
        let cases: [(String, String)] = [
            (
                #""amount":{"amountMinor":1000,"currency":"EUR"},"paidBy":[{"traveller":"ME","amountMinor":999}]"#,
                "paidBy"
            ),
            (
                #""amount":{"amountMinor":1000,"currency":"EUR"},"paidBy":[{"traveller":"ME"}],"split":{"mode":"exact","among":[{"traveller":"ME","amountMinor":500},{"traveller":"BRUNO","amountMinor":499}]}"#,
                "split"
            ),
            (
                #""amount":{"amountMinor":1000,"currency":"EUR"},"paidBy":[{"traveller":"ME"}],"split":{"mode":"percent","among":[{"traveller":"ME","percent":50},{"traveller":"BRUNO","percent":49.99}]}"#,
                "split"
            ),
            (
                #""amount":{"amountMinor":1000,"currency":"EUR"},"paidBy":[{"traveller":"STRANGER"}]"#,
                "paidBy[0].traveller"
            ),
            (#""amount":{"amountMinor":1000,"currency":"EUX"},"paidBy":[{"traveller":"ME"}]"#, "amount.currency"),
            (#""amount":{"amountMinor":0,"currency":"EUR"},"paidBy":[{"traveller":"ME"}]"#, "amount"),
            (#""amount":{"amountMinor":-5,"currency":"EUR"},"paidBy":[{"traveller":"ME"}]"#, "amount"),
            (#""amount":{"amountMinor":1000,"currency":"USD"},"paidBy":[{"traveller":"ME"}]"#, "rate"),
        ]
        _ = try await t.d.send("PATCH", base, json: #"{"settlementCurrency":"EUR"}"#)
        for (body, field) in cases {
            let json = "{\"title\":\"x\",\(body)}".replacingOccurrences(of: "\"ME\"", with: "\"\(me)\"")
                .replacingOccurrences(of: "\"BRUNO\"", with: "\"\(bruno)\"")
                .replacingOccurrences(of: "\"STRANGER\"", with: "\"\(stranger)\"")
            let r = try await t.d.send("POST", "\(base)/expenses", json: json)
            #expect(r.status == 400 && r.text.contains("\"field\":\"\(field)\""), "\(field): \(r.text)")
        }
        let list = try Self.json(try await t.d.send("GET", "\(base)/expenses"))
        #expect(list["count"] == .int(0), "nothing was added")
    }
}
