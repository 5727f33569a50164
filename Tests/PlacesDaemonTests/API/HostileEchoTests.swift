import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// Errors that quote the input back: a bound in characters (graphemes) is no bound in
/// bytes — 'a' with 30,000 combining accents is one character of 60 KB — and an unknown
/// field's name is the client's. However an error quotes, its answer stays small.
@Suite("Errors quoting hostile input", .serialized)
struct HostileEchoTests {
    /// One character, 60 KB.
    static let heavy = "a" + String(repeating: "\u{0301}", count: 30_000)

    @Test("I'm out, messages, here: one-character 60 KB places, audiences, ids and field names are not echoed whole")
    func echoes() async throws {
        let t = try await LoggedInDaemon.start()
        let heavy = Self.heavy
        for (method, path, body) in [
            ("PUT", "/v1/out", #"{"place":"\#(heavy)"}"#),
            ("PUT", "/v1/out", #"{"latitude":38.7,"longitude":-9.1,"audience":"\#(heavy)"}"#),
            ("POST", "/v1/messages", #"{"to":"\#(heavy)","text":"hi"}"#),
            ("PUT", "/v1/here", #"{"\#(heavy)":1}"#),
            ("POST", "/v1/destinations", #"{"\#(heavy)":"Lisbon"}"#),
        ] {
            let r = try await t.d.send(method, path, json: body)
            #expect(r.status == 400, "\(method) \(path): \(r.status)")
            #expect(r.body.count < 4_096, "\(method) \(path) answered \(r.body.count) bytes")
            let problem = try JSONDecoder().decode(Problem.self, from: Data(r.body))
            #expect(problem.code == "invalid-field" && (problem.field?.utf8.count ?? 0) <= 200)
        }
    }
}
