import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Issue 14 against the issue #11 adversary: a member's peer signs expense ops whose `terms`
/// lie (payers that do not add up, a split off by one unit, a rate where none belongs, a
/// non-canonical encoding, 101 payers…), a viewer's peer and a stranger's try to change the
/// money at all, and an editor floods the trip with 20,000 expenses. The honest daemon
/// refuses what op-format §5 and `Protocol/expenses.md` refuse, changes nothing, keeps its
/// balances summing to zero and keeps syncing honest edits.
@Suite("Hostile expense peers (issue 14)", .serialized)
struct HostileExpensePeerTests {
    /// The `terms` register as JSON text, in canonical form unless `extra` adds members.
    static func terms(
        kind: String = "expense", amount: Int64 = 8450, currency: String = "EUR", paidBy: [(String, Int64)],
        mode: String = "equal", among: [String], settlement: String = "EUR", rate: String? = nil, extra: String = ""
    ) -> String {
        let payers = paidBy.map { #"{"traveller":"\#($0.0)","amountMinor":\#($0.1)}"# }.joined(separator: ",")
        let rateText = rate.map { #","rate":\#($0)"# } ?? ""
        return
            #"{"kind":"\#(kind)","amount":{"amountMinor":\#(amount),"currency":"\#(currency)"},"paidBy":[\#(payers)],"split":{"mode":"\#(mode)","among":[\#(among.joined(separator: ","))]},"settlement":"\#(settlement)"\#(rateText)\#(extra)}"#
    }

    /// `{"traveller": ref}` and `{"traveller": ref, key: n}` split entries.
    static func part(_ ref: String) -> String { #"{"traveller":"\#(ref)"}"# }
    static func part(_ ref: String, _ key: String, _ n: Int64) -> String {
        #"{"traveller":"\#(ref)","\#(key)":\#(n)}"#
    }

    /// The changes creating an expense titled `title` with `terms` (JSON text).
    static func expense(_ id: String, title: String = "Peer's expense", terms: String) -> [String] {
        HostileTripPeerTests.entity(
            id, "expense", [("title", Wire.string(title)), ("date", #""2027-05-02""#), ("terms", terms)])
    }

    static func newID() -> String { HostileTripPeerTests.newID() }

    /// An owner (Ana) with a named traveller Bruno and one dinner of 84.50 EUR paid by her and
    /// split with Bruno and the adversary, shared with the adversary in `role`.
    struct Trip {
        var s: SharedWithAdversary
        let ana: String, bruno: String, mallory: String, dinner: String

        init(role: String) throws {
            s = try SharedWithAdversary(role: role)
            let it = s.itinerary.id
            ana = try HumanID.decode(s.owner.id).hex
            mallory = s.mallory.identity.publicKey.hex
            bruno = try s.owner.expenseID(
                "POST", "/v1/itineraries/\(it)/travellers", #"{"name":"Bruno"}"#)
            dinner = try s.owner.expenseID(
                "POST", "/v1/itineraries/\(it)/expenses",
                #"{"title":"Dinner at Ramiro","amount":{"amountMinor":8450,"currency":"EUR"},"date":"2027-05-01","paidBy":[{"traveller":"\#(s.owner.id)"}],"split":{"mode":"equal","among":[{"traveller":"\#(s.owner.id)"},{"traveller":"\#(bruno)"},{"traveller":"\#(s.mallory.humanID)"}]}}"#
            )
            try s.absorb()
        }
    }

    @Test("an editor's expense ops whose terms lie are refused with the reason, and change nothing")
    func lyingTermsRefused() async throws {
        var t = try Trip(role: "editor")
        let owner = t.s.owner, it = t.s.itinerary.id, mallory = t.s.mallory
        let (ana, bruno, me) = (t.ana, t.bruno, t.mallory)
        let three = [Self.part(ana), Self.part(bruno), Self.part(me)]
        let strangers = (0..<101).map { _ in Self.newID() }
        let attacks: [(what: String, reason: String, terms: String)] = [
            (
                "payers that do not sum to the amount", "payers sum to 80.00 EUR but the amount is 84.50 EUR",
                Self.terms(paidBy: [(me, 8000)], among: three)
            ),
            (
                "an exact split one minor unit short", "the exact amounts sum to 84.49 EUR",
                Self.terms(
                    paidBy: [(me, 8450)], mode: "exact",
                    among: [
                        Self.part(ana, "amountMinor", 2816), Self.part(bruno, "amountMinor", 2816),
                        Self.part(me, "amountMinor", 2817),
                    ])
            ),
            (
                "percentages summing to 99.99 %", "the percentages sum to 99.99 %",
                Self.terms(
                    paidBy: [(me, 8450)], mode: "percent",
                    among: [
                        Self.part(ana, "basisPoints", 3333), Self.part(bruno, "basisPoints", 3333),
                        Self.part(me, "basisPoints", 3333),
                    ])
            ),
            (
                "a rate on an expense in the settlement currency", "has no rate",
                Self.terms(paidBy: [(me, 8450)], among: three, rate: #""1.1""#)
            ),
            (
                "a dollar expense without a rate", "needs the rate from USD",
                Self.terms(currency: "USD", paidBy: [(me, 8450)], among: three)
            ),
            (
                "an amount of 0", "more than zero",
                Self.terms(amount: 0, paidBy: [(me, 0)], among: three)
            ),
            (
                "a negative amount", "more than zero",
                Self.terms(amount: -8450, paidBy: [(me, -8450)], among: three)
            ),
            (
                "an amount of 10^12 + 1", "more than zero and at most",
                Self.terms(amount: 1_000_000_000_001, paidBy: [(me, 1_000_000_000_001)], among: three)
            ),
            (
                "101 payers of 1 cent each", "1 to 100 payers",
                Self.terms(amount: 101, paidBy: strangers.map { ($0, 1) }, among: three)
            ),
            (
                "the same traveller twice in the split", "is listed twice",
                Self.terms(paidBy: [(me, 8450)], among: [Self.part(bruno), Self.part(bruno)])
            ),
            (
                "a payer named by a name, not a reference", "'Bruno' is not a traveller",
                Self.terms(paidBy: [("Bruno", 8450)], among: three)
            ),
            (
                "a traveller reference in upper case", "is not a traveller",
                Self.terms(paidBy: [(me, 8450)], among: [Self.part(bruno.uppercased())])
            ),
            (
                "a traveller reference of 63 hex digits", "is not a traveller",
                Self.terms(paidBy: [(me, 8450)], among: [Self.part(String(ana.dropLast()))])
            ),
            (
                "a settledMinor of its own", "unknown key 'settledMinor'",
                Self.terms(paidBy: [(me, 8450)], among: three, extra: #","settledMinor":1"#)
            ),
            (
                "a weight key in an equal split", "unknown key 'shares'",
                Self.terms(paidBy: [(me, 8450)], among: [Self.part(bruno, "shares", 5), Self.part(me, "shares", 1)])
            ),
            (
                "a rate written with a trailing zero", "must be written 0.92",
                Self.terms(currency: "USD", paidBy: [(me, 8450)], among: three, rate: #""0.920""#)
            ),
            (
                "a rate as a number", "'rate' must be a decimal number written as a string",
                Self.terms(currency: "USD", paidBy: [(me, 8450)], among: three, rate: "0.92")
            ),
            (
                "a rate of null", "'rate' must be a decimal number written as a string",
                Self.terms(paidBy: [(me, 8450)], among: three, rate: "null")
            ),
            (
                "an amount in major units", "whole number",
                Self.terms(amount: 8450, paidBy: [(me, 8450)], among: three).replacingOccurrences(
                    of: #""amountMinor":8450,"currency""#, with: #""amountMinor":84.5,"currency""#)
            ),
            (
                "a settlement currency that does not exist", "'EURO' is not an ISO 4217",
                Self.terms(paidBy: [(me, 8450)], among: three, settlement: "EURO")
            ),
            (
                "a payment to oneself", "other than the payer",
                Self.terms(
                    kind: "transfer", paidBy: [(me, 8450)], mode: "exact", among: [Self.part(me, "amountMinor", 8450)])
            ),
            (
                "terms that are a string", "must be a JSON object", Wire.string("84.50 EUR, Mallory paid")
            ),
        ]
        for attack in attacks {
            let before = owner.expenseState(it)
            let stored = try t.s.attempt {
                try mallory.nextOp(in: $0, body: Wire.body(Self.expense(Self.newID(), terms: attack.terms)))
            }
            guard owner.serving("an expense op with \(attack.what)") else { return }
            #expect(!stored, "an expense op with \(attack.what) was stored")
            #expect(owner.expenseState(it) == before, "\(attack.what) changed the expenses or balances")
        }
        // The itinerary's money registers, as a peer may not write them.
        let registers: [(String, String, String)] = [
            ("settlementCurrency", #""XAU""#, "has no minor unit"),
            ("settlementCurrency", #""eur""#, "not an ISO 4217"),
            ("rates", #"{"usd":"0.92"}"#, "not an ISO 4217"),
            ("rates", #"{"USD":"0.920"}"#, "not written as a local write stores it"),
            ("rates", #"{"USD":0.92}"#, "written as a string"),
            ("rates", #""USD 0.92""#, "must be an object"),
        ]
        for (field, value, reason) in registers {
            let before = owner.expenseState(it)
            let stored = try t.s.attempt {
                try mallory.nextOp(
                    in: $0, body: Wire.body([Wire.set(it, kind: "itinerary", field: field, value: value)]))
            }
            #expect(!stored && owner.expenseState(it) == before, "\(field) = \(value) was stored")
            let logged = owner.d.log.split(separator: "\n").contains {
                $0.contains("rejected an op from a peer") && $0.contains(reason)
            }
            #expect(logged, "no refusal logged saying “\(reason)” for \(field) = \(value)")
        }
        // The same lie as an edit of the owner's dinner.
        let before = owner.expenseState(it)
        let edit = try t.s.attempt {
            try mallory.nextOp(
                in: $0,
                body: Wire.body([
                    Wire.set(
                        t.dinner, kind: "expense", field: "terms", value: Self.terms(paidBy: [(me, 1)], among: three))
                ]))
        }
        #expect(!edit && owner.expenseState(it) == before, "a lying edit of the owner's dinner was stored")
        let refusals = owner.d.log.split(separator: "\n").filter { $0.contains("rejected an op from a peer") }
        for attack in attacks where !refusals.contains(where: { $0.contains(attack.reason) }) {
            Issue.record("no refusal logged saying “\(attack.reason)” for \(attack.what)")
        }
        // An honest expense of the same member goes through afterwards, and the owner's next
        // edit reaches the member: the refusals did not split the replicas.
        let taxi = Self.newID()
        let honest = try t.s.attempt {
            try mallory.nextOp(
                in: $0,
                body: Wire.body(
                    Self.expense(
                        taxi, title: "Taxi", terms: Self.terms(amount: 1500, paidBy: [(me, 1500)], among: three))))
        }
        #expect(honest, "an honest expense after the refusals was not stored")
        #expect(owner.expenseTitles(it) == ["Taxi", "Dinner at Ramiro"], "\(owner.expenseTitles(it))")
        #expect(owner.balanceSum(it) == 0)
        _ = try owner.expenseID("POST", "/v1/itineraries/\(it)/travellers", #"{"name":"Carla"}"#)
        let seq = t.s.mirror.seq(of: try HumanID.decode(owner.id).bytes)
        try t.s.absorb(for: 1)
        #expect(
            t.s.mirror.seq(of: try HumanID.decode(owner.id).bytes) > seq, "the owner's edit did not reach the member")
        owner.checkExpenseViewsAgainstSpec(it)
    }
}

extension SyncNode {
    /// The `id` of what a POST answered.
    func expenseID(_ method: String, _ path: String, _ body: String) throws -> String {
        let r = try d.client.send(method, path, body: Array(body.utf8))
        guard (200...201).contains(r.status),
            let id = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)).jsonMembers?["id"]?.stringValue
        else { throw HarnessError("\(method) \(path): \(r.status) \(String(decoding: r.body, as: UTF8.self))") }
        return id
    }

    /// A GET's answer as JSON (nil unless 200).
    func expenseGET(_ path: String) -> JSONValue? {
        guard let r = try? d.client.send("GET", path), r.status == 200 else { return nil }
        return try? JSONDecoder().decode(JSONValue.self, from: Data(r.body))
    }

    /// What a user sees of the money: the expenses, balances, settle-up, travellers and rates.
    func expenseState(_ it: String) -> [String] {
        ["expenses", "balances", "settlement", "debts", "travellers", "rates"].map { part in
            guard let r = try? d.client.send("GET", "/v1/itineraries/\(it)/\(part)") else { return "no answer" }
            return "\(r.status) \(String(decoding: r.body, as: UTF8.self))"
        }
    }

    /// The expense titles, newest date first.
    func expenseTitles(_ it: String) -> [String] {
        (expenseGET("/v1/itineraries/\(it)/expenses")?.jsonMembers?["expenses"]?.arrayValue ?? []).compactMap {
            $0.jsonMembers?["title"]?.stringValue
        }
    }

    /// Balances by traveller id (nil when the balances do not answer 200).
    func balanceMap(_ it: String) -> [String: Int64]? {
        guard let list = expenseGET("/v1/itineraries/\(it)/balances")?.jsonMembers?["balances"]?.arrayValue else {
            return nil
        }
        var out = [String: Int64]()
        for b in list {
            if let o = b.jsonMembers, let id = o["traveller"]?.stringValue, let v = o["balanceMinor"]?.intValue {
                out[id] = v
            }
        }
        return out
    }

    /// The sum of the balances (nil when they do not answer).
    func balanceSum(_ it: String) -> Int64? { balanceMap(it)?.values.reduce(0, +) }

    /// Every expense view answers 200 and what the spec promises.
    func checkExpenseViewsAgainstSpec(_ it: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for part in [
            "expenses", "balances", "settlement", "debts", "travellers", "rates", "expenses.csv", "balances.csv",
        ] {
            let r = try? d.send("GET", "/v1/itineraries/\(it)/\(part)")
            if r?.status != 200 {
                Issue.record(
                    "GET …/\(part) → \(r.map { "\($0.status) \($0.text.prefix(300))" } ?? "no answer")",
                    sourceLocation: sourceLocation)
            }
        }
    }
}

extension JSONValue {
    /// The members, if this is an object (PlacesTestSupport's internal `objectValue` and
    /// PlacesModel's public one are ambiguous under `@testable import`).
    var jsonMembers: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }
}
