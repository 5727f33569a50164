import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Viewers, strangers and well-formed oddities.
extension HostileExpensePeerTests {
    @Test("a viewer's expense, traveller, rate and settlement-currency ops are refused; nothing changes")
    func viewerOpsRefused() async throws {
        var t = try Trip(role: "viewer")
        let owner = t.s.owner, it = t.s.itinerary.id, mallory = t.s.mallory
        let (ana, me) = (t.ana, t.mallory)
        let mine = Self.terms(paidBy: [(me, 8450)], among: [Self.part(me)])
        let attempts: [(String, [String])] = [
            ("a new expense paid by the viewer", Self.expense(Self.newID(), terms: mine)),
            (
                "a payment from the owner to the viewer",
                Self.expense(
                    Self.newID(),
                    terms: Self.terms(
                        kind: "transfer", paidBy: [(ana, 8450)], mode: "exact",
                        among: [Self.part(me, "amountMinor", 8450)]))
            ),
            (
                "a new traveller",
                HostileTripPeerTests.entity(Self.newID(), "traveller", [("name", #""Viewer's friend""#)])
            ),
            ("a rate table", [Wire.set(it, kind: "itinerary", field: "rates", value: #"{"USD":"0.92"}"#)]),
            (
                "another settlement currency",
                [Wire.set(it, kind: "itinerary", field: "settlementCurrency", value: #""USD""#)]
            ),
            (
                "the dinner re-split to the viewer's advantage",
                [
                    Wire.set(
                        t.dinner, kind: "expense", field: "terms",
                        value: Self.terms(paidBy: [(me, 8450)], among: [Self.part(ana)]))
                ]
            ),
            ("the dinner deleted", [Wire.set(t.dinner, kind: "expense", field: "deleted", value: "true")]),
            ("Bruno renamed", [Wire.set(t.bruno, kind: "traveller", field: "name", value: #""Mallory's puppet""#)]),
        ]
        let before = owner.expenseState(it)
        for (what, changes) in attempts {
            let stored = try t.s.attempt { try mallory.nextOp(in: $0, body: Wire.body(changes)) }
            guard owner.serving("a viewer's op: \(what)") else { return }
            #expect(!stored, "a viewer's op was stored: \(what)")
        }
        #expect(owner.expenseState(it) == before, "a viewer's ops changed the money")
        let refusals = owner.d.log.split(separator: "\n").filter {
            $0.contains("rejected an op from a peer") && $0.contains("peer.id=\(mallory.humanID.prefix(7))")
        }
        #expect(refusals.count >= attempts.count, "\(refusals.count) refusals logged for \(attempts.count) ops")
        #expect(owner.balanceSum(it) == 0)
    }

    @Test("a stranger's expense op is refused, relayed by a member or sent directly; the member's next op still counts")
    func strangerOpsRefused() async throws {
        var t = try Trip(role: "editor")
        let owner = t.s.owner, it = t.s.itinerary.id
        let stranger = try AdversarialPeer()
        let key = stranger.identity.publicKey.hex
        let before = owner.expenseState(it)
        let count = owner.opCount
        // Sealed with the trip's key, which the member leaked to the stranger.
        let relayed = try t.s.attempt {
            try stranger.nextOp(
                in: $0,
                body: Wire.body(
                    Self.expense(Self.newID(), terms: Self.terms(paidBy: [(key, 8450)], among: [Self.part(t.ana)]))))
        }
        #expect(!relayed, "a stranger's op relayed by a member was stored")
        if let session = try? stranger.connect(to: owner.address) {
            let op = try stranger.nextOp(
                in: t.s.mirror,
                body: Wire.body(
                    Self.expense(
                        Self.newID(), terms: Self.terms(amount: 100, paidBy: [(key, 100)], among: [Self.part(key)]))))
            try? session.send(ops: [op], doc: t.s.doc)
            _ = try? session.drain(for: 1)
        }
        guard owner.serving("a stranger's expense ops") else { return }
        #expect(owner.opCount == count && owner.expenseState(it) == before, "a stranger's op changed the trip")
        let mallory = t.s.mallory, me = t.mallory, ana = t.ana
        let honest = try t.s.attempt {
            try mallory.nextOp(
                in: $0,
                body: Wire.body(
                    Self.expense(
                        Self.newID(), title: "Museum",
                        terms: Self.terms(amount: 1200, paidBy: [(me, 1200)], among: [Self.part(ana), Self.part(me)]))))
        }
        #expect(honest && owner.expenseTitles(it).contains("Museum"))
        #expect(owner.balanceSum(it) == 0)
    }

    @Test(
        "an editor's well-formed odd expenses are stored; every view answers, balances sum to zero, the owner can fix them"
    )
    func wellFormedOddities() async throws {
        var t = try Trip(role: "editor")
        let owner = t.s.owner, it = t.s.itinerary.id, mallory = t.s.mallory
        let (ana, bruno, me) = (t.ana, t.bruno, t.mallory)
        let strangerKey = try SigningKeyPair().publicKey.hex
        let ghost = Self.newID()
        let (strangers, rootRef, bare, huge, dollars, nameless) = (
            Self.newID(), Self.newID(), Self.newID(), Self.newID(), Self.newID(), Self.newID()
        )
        let formula = Self.newID()
        let lies: [(what: String, changes: [String])] = [
            (
                "an expense paid by a stranger and split with a traveller who does not exist",
                Self.expense(
                    strangers, title: "Strangers",
                    terms: Self.terms(
                        amount: 999, paidBy: [(strangerKey, 999)], among: [Self.part(ghost), Self.part(ana)]))
            ),
            (
                "an expense split with the itinerary itself",
                Self.expense(
                    rootRef, title: "The trip pays",
                    terms: Self.terms(amount: 700, paidBy: [(me, 700)], among: [Self.part(it)]))
            ),
            ("an expense without terms", HostileTripPeerTests.entity(bare, "expense", [("title", #""No money""#)])),
            (
                "an expense of 10^12 minor units",
                Self.expense(
                    huge, title: "Yacht",
                    terms: Self.terms(
                        amount: 1_000_000_000_000, paidBy: [(me, 1_000_000_000_000)],
                        among: [Self.part(bruno), Self.part(ana)]))
            ),
            (
                "an expense settled in dollars in a trip settled in euros",
                Self.expense(
                    dollars, title: "Dollars",
                    terms: Self.terms(
                        amount: 5000, currency: "USD", paidBy: [(me, 5000)], among: [Self.part(ana)], settlement: "USD")
                )
            ),
            ("a traveller without a name", [Wire.create(nameless, kind: "traveller")]),
            (
                "a traveller and an expense whose names are spreadsheet formulas",
                HostileTripPeerTests.entity(
                    formula, "traveller", [("name", Wire.string(#"=HYPERLINK("http://x","Bo")"#))])
                    + Self.expense(
                        Self.newID(), title: "@SUM(A1:A9)",
                        terms: Self.terms(amount: 300, paidBy: [(formula, 300)], among: [Self.part(me)]))
            ),
        ]
        for lie in lies {
            let stored = try t.s.attempt { try mallory.nextOp(in: $0, body: Wire.body(lie.changes)) }
            guard owner.serving("an op with \(lie.what)") else { return }
            #expect(stored, "an op with \(lie.what) was refused: it is well formed")
        }
        for part in ["expenses", "balances", "settlement", "debts", "travellers", "expenses.csv", "balances.csv"] {
            let r = try owner.d.client.send("GET", "/v1/itineraries/\(it)/\(part)")
            #expect(
                r.status == 200, "GET …/\(part) → \(r.status) \(String(decoding: r.body.prefix(300), as: UTF8.self))")
        }
        #expect(owner.balanceSum(it) == 0, "balances: \(owner.balanceMap(it) ?? [:])")
        // The exports never start a cell with a formula character (CSV injection).
        for csv in ["expenses.csv", "balances.csv"] {
            let text = String(
                decoding: try owner.d.client.send("GET", "/v1/itineraries/\(it)/\(csv)").body, as: UTF8.self)
            #expect(text.contains("'@SUM(A1:A9)") || csv == "balances.csv", "\(csv): \(text)")
            #expect(text.contains("'=HYPERLINK"), "\(csv): \(text)")
            for bad in [",=", ",@", ",+", "\n=", "\n@", ",\"=", ",\"@", "\n\"="] {
                #expect(!text.contains(bad), "\(csv) has a cell starting a formula (\(bad)): \(text)")
            }
        }
        let unconverted = owner.expenseGET("/v1/itineraries/\(it)/balances")?.jsonMembers?["unconverted"]
        #expect(unconverted == .array([.string(dollars)]), "\(String(describing: unconverted))")
        let yacht = try #require(owner.balanceMap(it)?[try HumanID.decode(owner.id).humanID])
        #expect(yacht < -499_000_000_000, "the owner's half of the yacht: \(yacht)")

        // The owner fixes them: edits the strangers' expense, removes the rest.
        let base = "/v1/itineraries/\(it)/expenses"
        let edited = try owner.d.client.send(
            "PATCH", "\(base)/\(strangers)",
            body: Array(#"{"title":"Strangers (checked)","amount":{"amountMinor":1000,"currency":"EUR"}}"#.utf8))
        #expect(edited.status == 200, "\(String(decoding: edited.body, as: UTF8.self))")
        for id in [rootRef, bare, huge, dollars] {
            let r = try owner.d.client.send("DELETE", "\(base)/\(id)")
            #expect(r.status == 204, "DELETE \(id): \(r.status) \(String(decoding: r.body, as: UTF8.self))")
        }
        #expect(owner.balanceSum(it) == 0)
        #expect(owner.expenseGET("/v1/itineraries/\(it)/balances")?.jsonMembers?["unconverted"] == .array([]))

        // The peer then moves the trip to yen: every expense is unconverted, nothing is lost,
        // and the owner moves it back.
        let yen = try t.s.attempt {
            try mallory.nextOp(
                in: $0,
                body: Wire.body([Wire.set(it, kind: "itinerary", field: "settlementCurrency", value: #""JPY""#)]))
        }
        #expect(yen)
        let allUnconverted = owner.expenseGET("/v1/itineraries/\(it)/balances")?.jsonMembers?["unconverted"]?
            .arrayValue?.count
        #expect(allUnconverted == 3, "\(owner.expenseState(it)[1])")
        let back = try owner.d.client.send(
            "PATCH", "/v1/itineraries/\(it)", body: Array(#"{"settlementCurrency":"EUR"}"#.utf8))
        #expect(back.status == 200, "\(String(decoding: back.body, as: UTF8.self))")
        #expect(owner.balanceSum(it) == 0 && owner.balanceMap(it)?.isEmpty == false)

        // Everything the owner wrote is what a peer accepts.
        try t.s.absorb(for: 1)
        let refused = HostileTripPeerTests.refusedLocalOps(in: t.s.mirror, author: try HumanID.decode(owner.id).bytes)
        #expect(refused.isEmpty, "the owner wrote ops its peers refuse: \(refused)")
        owner.checkExpenseViewsAgainstSpec(it)
    }
}
