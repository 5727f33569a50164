import Foundation
import PlacesAPI
import PlacesModel
import Testing

@testable import PlacesTestSupport

/// Two honest daemons: concurrent edits of one expense, and a viewer through the API.
extension HostileExpensePeerTests {
    /// Ana (owner) and Bruno sharing a trip in `role`, with a named traveller Carla and a
    /// dinner of 84.50 EUR paid by Ana and split equally among the three; both hold it.
    static func twoDaemons(role: String) async throws -> (ana: SyncNode, bruno: SyncNode, it: String, dinner: String) {
        let ana = try SyncNode("Ana")
        let bruno = try SyncNode("Bruno")
        try ana.trust(bruno)
        try bruno.trust(ana)
        try ana.addPeer(bruno)
        try bruno.addPeer(ana)
        let it = try ana.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Lisbon"}"#).id
        try ana.share(it, with: bruno.id, role: role)
        let carla = try ana.expenseID("POST", "/v1/itineraries/\(it)/travellers", #"{"name":"Carla"}"#)
        let dinner = try ana.expenseID(
            "POST", "/v1/itineraries/\(it)/expenses",
            #"{"title":"Dinner at Ramiro","amount":{"amountMinor":8450,"currency":"EUR"},"paidBy":[{"traveller":"\#(ana.id)"}],"split":{"mode":"equal","among":[{"traveller":"\#(ana.id)"},{"traveller":"\#(bruno.id)"},{"traveller":"\#(carla)"}]}}"#
        )
        try await eventually("Bruno holds the dinner", timeout: .seconds(20)) {
            bruno.expenseTitles(it) == ["Dinner at Ramiro"]
        }
        return (ana, bruno, it, dinner)
    }

    /// The expense as a daemon shows it, without the edit times (each daemon stamps its own).
    static func shown(_ node: SyncNode, _ it: String, _ id: String) -> JSONValue? {
        guard case .object(var o)? = node.expenseGET("/v1/itineraries/\(it)/expenses/\(id)") else { return nil }
        o["updatedAt"] = nil
        return unnamed(.object(o))
    }

    /// `value` without the display names, which each daemon gives from what it knows of a
    /// member (its own profile, a peer's Hello): the money and the ids must agree.
    static func unnamed(_ value: JSONValue?) -> JSONValue? {
        switch value {
        case .object(let o)?:
            var out = [String: JSONValue]()
            for (key, member) in o where !["name", "fromName", "toName", "createdByName"].contains(key) {
                out[key] = unnamed(member)
            }
            return .object(out)
        case .array(let a)?: return .array(a.compactMap { unnamed($0) })
        default: return value
        }
    }

    @Test("two members edit one expense offline, one the amount, one the split: both converge to one whole expense")
    func concurrentAmountAndSplit() async throws {
        let (ana, bruno, it, dinner) = try await Self.twoDaemons(role: "editor")
        let path = "/v1/itineraries/\(it)/expenses/\(dinner)"
        // Neither sees the other's edit before making its own.
        bruno.stop()
        let amount = try ana.d.client.send(
            "PATCH", path, body: Array(#"{"amount":{"amountMinor":9000,"currency":"EUR"}}"#.utf8))
        #expect(amount.status == 200, "\(String(decoding: amount.body, as: UTF8.self))")
        ana.stop()
        try bruno.start()
        let split = try bruno.d.client.send(
            "PATCH", path,
            body: Array(
                #"{"split":{"mode":"shares","among":[{"traveller":"\#(ana.id)","shares":2},{"traveller":"\#(bruno.id)","shares":1}]}}"#
                    .utf8))
        #expect(split.status == 200, "\(String(decoding: split.body, as: UTF8.self))")
        try ana.start()
        do {
            try await eventually("both daemons show the same dinner, balances and settle-up", timeout: .seconds(45)) {
                guard let a = Self.shown(ana, it, dinner), a == Self.shown(bruno, it, dinner) else { return false }
                return ["balances", "settlement", "debts"].allSatisfy { view in
                    let x = Self.unnamed(ana.expenseGET("/v1/itineraries/\(it)/\(view)"))
                    return x != nil && x == Self.unnamed(bruno.expenseGET("/v1/itineraries/\(it)/\(view)"))
                }
            }
        } catch {
            Issue.record("Ana: \(ana.expenseState(it))\nBruno: \(bruno.expenseState(it))")
            throw error
        }
        // One whole edit won: 90.00 split equally among three, or 84.50 split 2:1 between two;
        // never the new amount with the new split or a mix of both.
        let shownDinner = try #require(Self.shown(ana, it, dinner)?.jsonMembers)
        let minor = shownDinner["amount"]?.jsonMembers?["amountMinor"]?.intValue
        let mode = shownDinner["split"]?.jsonMembers?["mode"]?.stringValue
        let among = shownDinner["split"]?.jsonMembers?["among"]?.arrayValue ?? []
        let shares = among.compactMap { $0.jsonMembers?["shareMinor"]?.intValue }
        #expect(
            (minor == 9000 && mode == "equal" && among.count == 3)
                || (minor == 8450 && mode == "shares" && among.count == 2),
            "a mix of the two edits: \(shownDinner)")
        #expect(shares.reduce(0, +) == minor, "shares \(shares) do not sum to \(String(describing: minor))")
        #expect(ana.balanceSum(it) == 0 && bruno.balanceSum(it) == 0)
        print("concurrent edits: the dinner is \(String(describing: minor)) split \(mode ?? "?") on both daemons")
        ana.checkExpenseViewsAgainstSpec(it)
    }

    @Test("a viewer sees the expenses and balances but cannot change them through the API")
    func viewerThroughTheAPI() async throws {
        let (ana, bruno, it, dinner) = try await Self.twoDaemons(role: "viewer")
        let base = "/v1/itineraries/\(it)"
        let before = bruno.expenseState(it)
        let attempts: [(String, String, String?)] = [
            (
                "POST", "\(base)/expenses",
                #"{"title":"Viewer's","amount":{"amountMinor":100,"currency":"EUR"},"paidBy":[{"traveller":"\#(bruno.id)"}]}"#
            ),
            ("PATCH", "\(base)/expenses/\(dinner)", #"{"title":"Mine"}"#),
            ("DELETE", "\(base)/expenses/\(dinner)", nil),
            ("POST", "\(base)/travellers", #"{"name":"Leo"}"#),
            ("PUT", "\(base)/rates", #"{"rates":{"USD":"0.92"}}"#),
            ("PATCH", base, #"{"settlementCurrency":"USD"}"#),
        ]
        for (method, path, body) in attempts {
            let r = try bruno.d.client.send(method, path, body: body.map { Array($0.utf8) } ?? [])
            #expect(
                r.status == 403,
                "\(method) \(path) by a viewer → \(r.status) \(String(decoding: r.body, as: UTF8.self))")
        }
        #expect(bruno.expenseState(it) == before, "the viewer's requests changed something")
        #expect(bruno.balanceMap(it) == ana.balanceMap(it) && bruno.balanceSum(it) == 0)
        bruno.checkExpenseViewsAgainstSpec(it)
    }
}
