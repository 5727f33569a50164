import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// `POST /v1/plans/solve`, the stateless orienteering solver, through the daemon's router.
@Suite("Plan solve API", .serialized)
struct PlanSolveAPITests {
    struct Answer: Decodable {
        var score: Double
        var routes: [[JSONValue]]
        var starts: [[Double]]
    }

    /// Four nodes around the depot: `far` cannot be reached and back in time, `c` closes
    /// early so it must come first; the best tour visits a, b and c for 15.
    static let small = #"""
        {"routes":1,"depot":{"x":0,"y":0,"open":0,"close":100},"timeBudgetMs":200,"nodes":[
        {"id":"a","x":10,"y":0,"score":5},{"id":"b","x":0,"y":10,"score":6},
        {"id":"c","x":-10,"y":0,"score":4,"open":0,"close":15},{"id":"far","x":50,"y":50,"score":100}]}
        """#

    @Test("a small instance is solved to its optimum, with the ids given")
    func smallOptimum() async throws {
        let t = try await LoggedInDaemon.start()
        let answer = try await t.d.call(Answer.self, "POST", "/v1/plans/solve", json: Self.small)
        #expect(answer.score == 15)
        #expect(answer.routes.count == 1)
        let ids = answer.routes.first?.compactMap(\.stringValue) ?? []
        #expect(Set(ids) == ["a", "b", "c"])
        #expect(ids.first == "c", "c closes at 15: only reachable first")
        #expect((answer.starts.first?.first ?? 99) <= 15)
    }

    @Test("a travel matrix replaces the coordinates, and integer ids come back as integers")
    func matrixAndIntegerIDs() async throws {
        let t = try await LoggedInDaemon.start()
        // Two routes of 10; node 7 costs 4 each way, 8 costs 3, 9 costs 6: 7 and 8 fit one
        // route each (4+4, 3+3), 9 fits neither with anything (6+6 > 10 alone).
        let body = #"""
            {"routes":2,"depot":{"open":0,"close":10},"nodes":[{"id":7,"score":1},{"id":8,"score":1},
            {"id":9,"score":50}],"travel":[[0,4,3,6],[4,0,9,9],[3,9,0,9],[6,9,9,0]]}
            """#
        let answer = try await t.d.call(Answer.self, "POST", "/v1/plans/solve", json: body)
        #expect(answer.score == 2)
        let ids = answer.routes.flatMap { $0 }
        #expect(Set(ids) == [.int(7), .int(8)])
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var body: String
        var field: String
        var testDescription: String { "\(field): \(body.prefix(60))" }
    }

    static func body(
        nodes: String, routes: Int = 1, depot: String = #"{"x":0,"y":0,"open":0,"close":100}"#, extra: String = ""
    )
        -> String
    {
        #"{"routes":\#(routes),"depot":\#(depot),"nodes":[\#(nodes)]\#(extra)}"#
    }

    static let node = #"{"id":1,"x":1,"y":1,"score":1}"#

    static let cases: [Case] = [
        Case(body: body(nodes: node, routes: 0), field: "routes"),
        Case(body: body(nodes: node, routes: 11), field: "routes"),
        Case(body: body(nodes: #"{"id":1,"x":1,"y":1,"score":1,"open":-1}"#), field: "nodes[0].open"),
        Case(body: body(nodes: #"{"id":1,"x":1,"y":1,"score":1,"service":-5}"#), field: "nodes[0].service"),
        Case(body: body(nodes: #"{"id":1,"x":1,"y":1,"score":1,"open":50,"close":40}"#), field: "nodes[0].open"),
        Case(body: body(nodes: node, depot: #"{"x":0,"y":0,"open":10,"close":5}"#), field: "depot.open"),
        Case(body: body(nodes: node + "," + node), field: "nodes[1].id"),
        Case(body: body(nodes: #"{"id":1,"y":1,"score":1}"#), field: "nodes[0].x"),
        Case(body: body(nodes: #"{"id":1,"x":1e300,"y":1,"score":1}"#), field: "nodes[0].x"),
        Case(body: body(nodes: node, extra: #","travel":[[0,1],[1]]"#), field: "travel[1]"),
        Case(body: body(nodes: node, extra: #","travel":[[0,1,1],[1,0,1],[1,1,0]]"#), field: "travel"),
        Case(body: body(nodes: node, extra: #","travel":[[0,1],[-1,0]]"#), field: "travel[1][0]"),
        Case(body: body(nodes: node, extra: #","timeBudgetMs":0"#), field: "timeBudgetMs"),
        Case(body: body(nodes: #"{"id":1,"x":1,"y":1,"score":1e300}"#), field: "nodes[0].score"),
        Case(body: body(nodes: node, extra: #","travel":[[0,1],[1e13,0]]"#), field: "travel[1][0]"),
        Case(
            body: body(nodes: (0...2_000).map { #"{"id":\#($0),"x":1,"y":1,"score":1}"# }.joined(separator: ",")),
            field: "nodes"),
        Case(
            body: body(
                nodes: (0...500).map { #"{"id":\#($0),"score":1}"# }.joined(separator: ","),
                extra: #","travel":[]"#),
            field: "nodes"),
    ]

    /// One daemon for every case of `refused` (made on first use, for the whole test run):
    /// the solver keeps nothing, so a daemon per case only added a start and an identity (an
    /// Argon2id derivation) to each. (Its data dir under /tmp stays when the run ends.)
    static let shared = Task { try await LoggedInDaemon.start() }

    @Test("bad input is refused with a 400 naming the field", arguments: cases)
    func refused(_ c: Case) async throws {
        let t = try await Self.shared.value
        let r = try await t.d.send("POST", "/v1/plans/solve", json: c.body)
        #expect(r.status == 400, "\(r.text)")
        let problem = try JSONDecoder().decode(Problem.self, from: Data(r.body))
        #expect(problem.code == "invalid-field")
        #expect(problem.field == c.field, "detail: \(problem.detail)")
        #expect(try await t.d.send("GET", "/v1/status").status == 200)
    }

    @Test("an id that is neither an integer nor a string is refused")
    func badID() async throws {
        let t = try await LoggedInDaemon.start()
        let r = try await t.d.send(
            "POST", "/v1/plans/solve", json: Self.body(nodes: #"{"id":1.5,"x":1,"y":1,"score":1}"#))
        #expect(r.status == 400, "\(r.text)")
        #expect(r.text.contains("id"))
    }
}
