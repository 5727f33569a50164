import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// The weather client over https, against a TLS server on loopback that presents a
/// certificate of the tests' own authority (`TestTLS`): refused with the system's trust
/// roots, fetched once the test trusts that authority (a hook of `InProcessDaemon`, not of
/// the API), refused for a name the certificate is not for, and a hostile source's answers
/// (slow, trickling, huge, garbage) over TLS.
@Suite("Weather over https", .serialized)
struct WeatherTLSTests {
    typealias Object = DestinationsAPITests.Object
    typealias Clock = DestinationsAPITests.Clock

    /// A daemon with Lisbon as a destination, at a fixed time.
    func start() async throws -> LoggedInDaemon {
        let clock = Clock()
        clock.set("2026-07-10T10:00:00Z")
        let t = try await DestinationsAPITests.start(clock)
        _ = try await t.d.call(Object.self, "POST", "/v1/destinations", json: #"{"gazetteerId":"city:2267057"}"#)
        return t
    }

    func setSource(_ t: LoggedInDaemon, _ url: String) async throws {
        let set = try await t.d.call(
            Preferences.self, "PUT", "/v1/preferences", json: #"{"weatherSource":"\#(url)"}"#)
        #expect(set.weatherSource == url)
    }

    /// Lisbon's card once the source was tried (a forecast, or an error other than "not
    /// fetched yet"), with the slowest answer of the dashboard meanwhile.
    func tried(_ t: LoggedInDaemon, until done: ((Object) -> Bool)? = nil) async throws -> (
        card: Object, slowest: Duration
    ) {
        let started = ContinuousClock.now
        var slowest = Duration.zero
        var card = Object()
        while ContinuousClock.now - started < .seconds(30) {
            let asked = ContinuousClock.now
            let r = try await t.d.send("GET", "/v1/dashboard/Lisbon")
            slowest = max(slowest, ContinuousClock.now - asked)
            card = try DestinationsAPITests.json(r)
            if let done {
                if done(card) { break }
            } else if card["weatherStatus"] == .string("ok") {
                break
            } else if let error = card["weatherError"]?.stringValue, error != "not fetched yet" {
                break
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return (card, slowest)
    }

    @Test("https: refused with the system's roots, fetched with the test's CA trusted, refused for another name")
    func trust() async throws {
        let server = try FakeWeatherServer.start(tls: true)
        defer { server.stop() }
        let t = try await start()
        let daemon = try #require(t.d.inProcessDaemon)
        // A handshake on a loaded machine must not fail for time (retried only an hour later).
        await daemon.setWeatherTimeout(milliseconds: 5_000)

        // The system's roots: the tests' own authority is not among them.
        try await setSource(t, server.url("/good"))
        var card = try await tried(t).card
        #expect(card["weatherStatus"] == .string("unavailable") && card["weather"] == .null)
        let refused = card["weatherError"]?.stringValue ?? ""
        #expect(refused.hasPrefix("certificate refused") && refused.contains("localhost"), "\(refused)")
        #expect(server.requests.isEmpty, "nothing is sent to a source whose certificate is refused")

        // Trusting the authority: the forecast comes, asked with the rounded coordinates.
        try await daemon.setWeatherTrustRoots(pem: TestTLS.authorityPEM)
        try await setSource(t, server.url("/good"))
        card = try await tried(t, until: { $0["weatherStatus"] == .string("ok") }).card
        #expect(card["weatherStatus"] == .string("ok"), "\(card["weatherError"] ?? .null)")
        #expect(DashboardAPITests.temperature(card) == 21.5)
        #expect(card["weather"]?.objectValue?["source"] == .string(server.url("/good")))
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.hasPrefix("/good?latitude=38.73&longitude=-9.15&") == true)

        // The same server by address: its certificate names only `localhost`.
        try await setSource(t, "https://127.0.0.1:\(server.port)/good")
        card = try await tried(t).card
        #expect(card["weatherStatus"] == .string("unavailable"))
        #expect(card["weatherError"] == .string("certificate refused: the certificate is not for 127.0.0.1"))
        #expect(server.requests.count == 1, "no request after the refused handshake")

        // A plain-http client against the TLS port, and TLS against a plain server: an error, no hang.
        try await setSource(t, "http://localhost:\(server.port)/good")
        card = try await tried(t).card
        #expect(card["weatherStatus"] == .string("unavailable"), "\(card["weatherError"] ?? .null)")
        let plain = try FakeWeatherServer.start()
        defer { plain.stop() }
        try await setSource(t, "https://localhost:\(plain.port)/good")
        card = try await tried(t).card
        #expect(card["weatherStatus"] == .string("unavailable"))
        #expect(card["weatherError"]?.stringValue?.contains("TLS") == true, "\(card["weatherError"] ?? .null)")
        #expect(plain.requests.isEmpty)
    }

    @Test("a hostile https source: slow, trickling, huge, garbage; the dashboard never waits")
    func hostile() async throws {
        let server = try FakeWeatherServer.start(tls: true)
        defer { server.stop() }
        let t = try await start()
        try await #require(t.d.inProcessDaemon).setWeatherTrustRoots(pem: TestTLS.authorityPEM)
        for (path, reason) in [
            ("/slow", "did not answer"), ("/trickle", "did not answer"), ("/huge", "KiB"), ("/huge-declared", "KiB"),
            ("/garbage", "not JSON"), ("/absurd", "10000"),
        ] {
            try await setSource(t, server.url(path))
            let (card, slowest) = try await tried(t)
            #expect(card["weatherStatus"] == .string("unavailable") && card["weather"] == .null, "\(path)")
            #expect(
                card["weatherError"]?.stringValue?.contains(reason) == true, "\(path): \(card["weatherError"] ?? .null)"
            )
            #expect(slowest < .milliseconds(500), "\(path): the dashboard never waits for the source: \(slowest)")
        }
        #expect(
            (try await DestinationsAPITests.json(try await t.d.send("GET", "/v1/dashboard/Lisbon")))["name"]
                == .string("Lisbon"))
    }
}
