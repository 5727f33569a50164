import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Floods, and two honest members editing the same expense at once.
extension HostileExpensePeerTests {
    /// Times one GET (ms, the answer read in full); nil status when it did not answer.
    static func timed(_ node: SyncNode, _ path: String) -> (status: Int?, ms: Double, bytes: Int) {
        let started = ContinuousClock.now
        let r = try? node.d.client.send("GET", path)
        return (r?.status, milliseconds(ContinuousClock.now - started), r?.body.count ?? 0)
    }

    static let moneyViews = [
        "balances", "settlement", "debts", "expenses", "travellers", "expenses.csv", "balances.csv",
    ]

    /// Sends `ops` at once while another client polls; waits until they are stored; returns
    /// how long that took and the poller's summary.
    static func flood(_ s: inout SharedWithAdversary, _ ops: [SignedOp], timeout: Duration) async throws
        -> (ingest: Duration, poller: LatencyPoller)
    {
        let owner = s.owner
        let poller = LatencyPoller(owner.d)
        poller.start()
        let before = owner.opCount
        let sent = ContinuousClock.now
        try s.session.send(ops.map { Wire.ops([$0.encoded], doc: s.doc) })
        do {
            try await eventually("the owner stored the \(ops.count) ops", timeout: timeout) {
                owner.opCount >= before + ops.count
            }
        } catch {
            poller.stop()
            let log = owner.d.log.split(separator: "\n").filter { $0.contains("reject") || $0.contains("error") }
            Issue.record(
                "\(owner.opCount - before) of \(ops.count) ops stored; \(poller.summary); log:\n\(log.suffix(10).joined(separator: "\n"))"
            )
            throw error
        }
        let ingest = ContinuousClock.now - sent
        return (ingest, poller)
    }

    @Test("20,000 expenses from one editor: stored, balances and settle-up answer, the daemon serves others meanwhile")
    func twentyThousandExpenses() async throws {
        var t = try Trip(role: "editor")
        let owner = t.s.owner, it = t.s.itinerary.id
        let (ana, bruno, me) = (t.ana, t.bruno, t.mallory)
        // Another member, connected and in sync, who must keep getting the owner's edits.
        let good = try AdversarialPeer()
        try owner.share(it, with: good.humanID, role: "viewer")
        let goodSession = try good.connect(to: owner.address)
        var goodMirror = try goodSession.fetch(t.s.doc)
        try t.s.absorb()

        // 20 ops of 1,000 expenses (an op is at most 1 MiB), in every split mode, paid by one or two of three travellers.
        let perOp = 1_000, opCount = 20
        let refs = [ana, bruno, me]
        var ops = [SignedOp]()
        var rng = SystemRandomNumberGenerator()
        for n in 0..<opCount {
            var changes = [String]()
            changes.reserveCapacity(perOp * 4)
            for i in 0..<perOp {
                let amount = Int64.random(in: 100...100_000, using: &rng)
                let payer = refs[(n + i) % 3]
                let terms: String
                switch i % 4 {
                case 0: terms = Self.terms(amount: amount, paidBy: [(payer, amount)], among: refs.map(Self.part))
                case 1:
                    terms = Self.terms(
                        amount: amount, paidBy: [(ana, amount / 2), (bruno, amount - amount / 2)], mode: "shares",
                        among: [Self.part(me, "shares", 2), Self.part(ana, "shares", 1)])
                case 2:
                    terms = Self.terms(
                        amount: amount, paidBy: [(payer, amount)], mode: "percent",
                        among: [Self.part(ana, "basisPoints", 3333), Self.part(bruno, "basisPoints", 6667)])
                default:
                    terms = Self.terms(
                        kind: "transfer", amount: amount, paidBy: [(payer, amount)], mode: "exact",
                        among: [Self.part(refs[(n + i + 1) % 3], "amountMinor", amount)])
                }
                changes += Self.expense(Self.newID(), title: "Expense \(n * perOp + i)", terms: terms)
            }
            let op = try t.s.mallory.nextOp(in: t.s.mirror, body: Wire.body(changes))
            t.s.mirror.add(op)
            ops.append(op)
        }
        print("20,000 expenses: \(ops.map(\.encoded.count).reduce(0, +) / 1024) KiB of ops")
        let (ingest, poller) = try await Self.flood(&t.s, ops, timeout: .seconds(120))
        var times = [(String, Double)]()
        for round in 1...2 {
            for view in Self.moneyViews {
                let (status, ms, bytes) = Self.timed(owner, "/v1/itineraries/\(it)/\(view)")
                #expect(status == 200, "GET …/\(view) → \(String(describing: status))")
                if round == 1 { #expect(ms < 10_000, "GET …/\(view) of 20,000 expenses took \(Int(ms)) ms") }
                times.append(("\(view)#\(round) (\(bytes / 1024) KiB)", ms))
            }
        }
        poller.stop()
        print(
            "20,000 expenses: stored in \(ingest); \(times.map { "\($0.0) \(Int($0.1)) ms" }.joined(separator: ", ")); "
                + "another client meanwhile: \(poller.summary)")
        guard owner.serving("20,000 expenses") else { return }
        #expect(poller.failures == 0, "another client was refused or not answered: \(poller.summary)")
        #expect(poller.maxMs < 10_000, "another client waited \(poller.maxMs) ms: \(poller.summary)")
        #expect(owner.balanceSum(it) == 0)
        let settle = owner.expenseGET("/v1/itineraries/\(it)/settlement")?.jsonMembers
        #expect((settle?["transfers"]?.arrayValue?.count ?? 9) <= 2 && settle?["optimal"] == .bool(true))

        // The owner adds an expense and a payment; each answers quickly and reaches the other member.
        let started = ContinuousClock.now
        _ = try owner.expenseID(
            "POST", "/v1/itineraries/\(it)/expenses",
            #"{"title":"One more","amount":{"amountMinor":1000,"currency":"EUR"},"paidBy":[{"traveller":"\#(owner.id)"}]}"#
        )
        let addTime = ContinuousClock.now - started
        let balancesAfter = Self.timed(owner, "/v1/itineraries/\(it)/balances")
        print(
            "20,000 expenses: the owner's next expense took \(addTime), balances after it \(Int(balancesAfter.ms)) ms")
        #expect(addTime < .seconds(5), "adding an expense to 20,000 took \(addTime)")
        try await eventually("the viewer peer got the owner's new expense", timeout: .seconds(20)) {
            try goodSession.absorb(for: 0.2, into: &goodMirror)
            let author = try HumanID.decode(owner.id).bytes
            return goodMirror.seq(of: author) >= t.s.mirror.seq(of: author) + 1
        }
        owner.d.kill()
    }

    @Test("100 expenses each paid by 100 and split among 100 travellers: debts and settle-up still answer")
    func wideExpenses() async throws {
        var t = try Trip(role: "editor")
        let owner = t.s.owner, it = t.s.itinerary.id
        let payers = (0..<100).map { _ in Self.newID() }
        let sharers = (0..<100).map { _ in Self.newID() }
        var ops = [SignedOp]()
        for _ in 0..<4 {
            var changes = [String]()
            for _ in 0..<25 {
                // 100 payers paying 1,000,003 minor units each, 100 sharers with odd shares: every
                // cell of the sharer × payer table has a remainder to place.
                let terms = Self.terms(
                    amount: 100_000_300, paidBy: payers.map { ($0, 1_000_003) }, mode: "shares",
                    among: sharers.enumerated().map { Self.part($1, "shares", Int64(2 * $0 + 1)) })
                changes += Self.expense(Self.newID(), title: "Wide", terms: terms)
            }
            let op = try t.s.mallory.nextOp(in: t.s.mirror, body: Wire.body(changes))
            t.s.mirror.add(op)
            ops.append(op)
        }
        let (ingest, poller) = try await Self.flood(&t.s, ops, timeout: .seconds(60))
        var times = [(String, Double)]()
        for view in Self.moneyViews {
            let (status, ms, _) = Self.timed(owner, "/v1/itineraries/\(it)/\(view)")
            #expect(status == 200, "GET …/\(view) → \(String(describing: status))")
            #expect(ms < 10_000, "GET …/\(view) of 100 wide expenses took \(Int(ms)) ms")
            times.append((view, ms))
        }
        poller.stop()
        print(
            "100 expenses of 100 × 100 travellers: stored in \(ingest); \(times.map { "\($0.0) \(Int($0.1)) ms" }.joined(separator: ", ")); "
                + "another client meanwhile: \(poller.summary)")
        #expect(poller.failures == 0 && poller.maxMs < 10_000, "\(poller.summary)")
        #expect(owner.balanceSum(it) == 0)
        owner.d.kill()
    }

    @Test("expenses naming 5,000 strangers' keys: balances, travellers and the next expense still answer quickly")
    func fiveThousandStrangers() async throws {
        var t = try Trip(role: "editor")
        let owner = t.s.owner, it = t.s.itinerary.id
        var ops = [SignedOp]()
        for _ in 0..<5 {
            var changes = [String]()
            for _ in 0..<5 {
                // 100 strangers paid 1 cent each, shared by 100 other strangers: names for 200
                // keys no member holds, per expense.
                let payers = try (0..<100).map { _ in try SigningKeyPair().publicKey.hex }
                let sharers = try (0..<100).map { _ in try SigningKeyPair().publicKey.hex }
                changes += Self.expense(
                    Self.newID(), title: "Strangers",
                    terms: Self.terms(amount: 100, paidBy: payers.map { ($0, 1) }, among: sharers.map(Self.part)))
            }
            let op = try t.s.mallory.nextOp(in: t.s.mirror, body: Wire.body(changes))
            t.s.mirror.add(op)
            ops.append(op)
        }
        let (ingest, poller) = try await Self.flood(&t.s, ops, timeout: .seconds(60))
        var times = [(String, Double)]()
        for view in Self.moneyViews {
            let (status, ms, _) = Self.timed(owner, "/v1/itineraries/\(it)/\(view)")
            #expect(status == 200, "GET …/\(view) → \(String(describing: status))")
            #expect(ms < 3_000, "GET …/\(view) with 5,000 strangers took \(Int(ms)) ms")
            times.append((view, ms))
        }
        let started = ContinuousClock.now
        _ = try owner.expenseID(
            "POST", "/v1/itineraries/\(it)/expenses",
            #"{"title":"Mine","amount":{"amountMinor":1000,"currency":"EUR"},"paidBy":[{"traveller":"\#(owner.id)"}]}"#)
        let addTime = ContinuousClock.now - started
        poller.stop()
        print(
            "5,000 strangers: stored in \(ingest); \(times.map { "\($0.0) \(Int($0.1)) ms" }.joined(separator: ", ")); "
                + "the owner's next expense \(addTime); another client meanwhile: \(poller.summary)")
        #expect(addTime < .seconds(3), "adding an expense took \(addTime)")
        #expect(poller.failures == 0 && poller.maxMs < 3_000, "\(poller.summary)")
        #expect(owner.balanceSum(it) == 0)
        owner.d.kill()
    }
}
