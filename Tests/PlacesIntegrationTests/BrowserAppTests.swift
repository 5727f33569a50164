import Foundation
import PlacesTestSupport
import Testing

/// The browser app (issue 18) in a real headless Chromium driven over WebDriver, against a
/// real placesd and a real `places gui`. One suite, run one test at a time (each starts its
/// own daemons, app server and browser): `make test` runs it as its own line
/// (`swift test --filter BrowserApp`). Each test asserts what a person sees — text, order,
/// attributes — and fails on any JavaScript error in the console.
@Suite("The browser app in Chromium", .serialized)
struct BrowserAppTests {}

extension WebDriver {
    /// The HTTP status of the page's own navigation (Navigation Timing's `responseStatus`).
    func navigationStatus() throws -> Int {
        let value = try execute(
            "const n = performance.getEntriesByType('navigation')[0]; return n ? n.responseStatus : -1")
        return (value as? NSNumber)?.intValue ?? -1
    }

    /// Fetches `path` from the current page with its cookies; answers "status N" or "error …".
    func pageFetch(_ path: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil)
        throws -> String
    {
        let value = try executeAsync(
            """
            const done = arguments[arguments.length - 1];
            const init = { method: arguments[1], headers: arguments[2], credentials: 'same-origin' };
            if (arguments[3] !== null) init.body = arguments[3];
            fetch(arguments[0], init).then(r => done('status ' + r.status), e => done('error ' + e.message));
            """, [path, method, headers, body ?? NSNull()])
        return value as? String ?? "nothing"
    }

    /// Whether the app's shell rendered a view here.
    var appRendered: Bool {
        ((try? execute("return !!document.querySelector('main[data-ready=true]')")) as? Bool) ?? false
    }
}

extension BrowserAppTests {
    @Suite("Coming back") struct ComingBack {
        @Test("leaving the app for another page and opening it again, six times in one tab, loads it every time")
        func leaveAndReturn() throws {
            let app = try BrowserApp()
            defer { app.close() }
            let b = app.browser
            _ = try LisbonDemo.trip(app.node)
            try app.open("#/itineraries")
            for visit in 1...6 {
                // Another site in the same tab, then the app's address typed again: the page
                // left behind may stay in the back/forward cache with its live event stream.
                try b.navigate("data:text/html,<title>elsewhere</title><p>elsewhere</p>")
                try b.navigate(app.gui.origin + "/#/itineraries")
                try b.wait("the app loads again (visit \(visit))", timeout: 8) {
                    !(try b.texts("[data-testid=itinerary-item]").isEmpty)
                }
            }
            try app.assertNoConsoleErrors()
        }
    }
}
