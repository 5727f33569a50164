import Foundation
import PlacesTestSupport
import Testing

extension BrowserBench {
    @Test("an edit made in one open app reaches another person's open app")
    func editReachesAnotherApp() throws {
        let ana = try BrowserApp(name: "Ana")
        defer { ana.close() }
        let bruno = try BrowserApp(name: "Bruno")
        defer { bruno.close() }
        try ana.node.addPeer(bruno.node)
        let trip = try LisbonDemo.trip(ana.node)
        try ana.node.share(itinerary: trip, with: bruno.node)
        let days = "#/itineraries/\(trip)/days"
        try ana.open(days)
        try bruno.open(days)
        for app in [ana, bruno] { try app.browser.waitFor("[data-testid=trip-day][data-date=\"2027-04-10\"]") }

        // Bruno's page stamps the moment (Date.now(), the machine's clock) a row with the
        // awaited title appears; Ana's page stamps the moment it sends the edit, through the app.
        try bruno.browser.execute(
            """
            window.__seen = {};
            new MutationObserver(() => {
              for (const title of document.querySelectorAll('[data-testid=trip-item] .trip-item-title')) {
                const text = title.textContent;
                if (text.startsWith('Bench edit ') && !(text in window.__seen)) window.__seen[text] = Date.now();
              }
            }).observe(document.body, { subtree: true, childList: true, characterData: true });
            """)
        var samples = [Double]()
        for n in 1...10 {
            let title = "Bench edit \(n)"
            let sent = try ana.browser.executeAsync(
                """
                const done = arguments[arguments.length - 1];
                const csrf = document.cookie.match(/places_csrf=([^;]+)/)[1];
                const sent = Date.now();
                fetch(arguments[0], { method: 'POST', credentials: 'same-origin',
                  headers: { 'Content-Type': 'application/json', 'X-Places-CSRF': csrf },
                  body: JSON.stringify({ type: 'activity', title: arguments[1], start: '2027-04-10T' + arguments[2] }) })
                  .then(r => done(r.status === 201 ? sent : -r.status), e => done(-1));
                """, ["/v1/itineraries/\(trip)/items", title, String(format: "%02d:%02d", 16 + n / 6, (n * 7) % 60)])
            let sentAt = Self.number(sent)
            #expect(sentAt > 0, "Ana's app could not add the item: \(sent ?? "nothing")")
            var seenAt = -1.0
            try bruno.browser.wait("Bruno's open app shows “\(title)”", timeout: 20) {
                seenAt = Self.number(try bruno.browser.execute("return window.__seen[arguments[0]] ?? null", [title]))
                return seenAt > 0
            }
            samples.append(seenAt - sentAt)
        }
        let edit = Self.summary(samples)
        print("browser edit in one app → shown in another person's open app (two daemons on loopback): \(edit.text)")
        #expect(edit.median <= 1000, "an edit took \(edit.median) ms (median) to reach the other app")
        try ana.assertNoConsoleErrors()
        try bruno.assertNoConsoleErrors()
    }
}
