import Foundation
import PlacesTestSupport
import Testing

/// The app as a hostile web page and a hostile peer would try it: the URL without its
/// token, the app's port under another name (DNS rebinding), another loopback origin
/// posting with the user's cookie, and a friend's comment full of HTML.
extension BrowserAppTests {
    @Suite("Security in the browser") struct Security {
        @Test("without the token the page is the 401 page, the API refuses the browser, and no cookie is set")
        func noToken() throws {
            let app = try BrowserApp()
            defer { app.close() }
            let browser = app.browser
            for (url, expected) in [(app.gui.origin + "/", 401), (app.gui.origin + "/?token=0123456789abcdef", 0)] {
                try browser.navigate(url)
                let status = try browser.navigationStatus()
                #expect(
                    expected == 0 ? (400..<500).contains(status) : status == expected, "\(url) answered \(status)")
                #expect(!browser.appRendered, "the app rendered at \(url)")
                let text = try #require(
                    try browser.execute("return document.body ? document.body.innerText : ''") as? String)
                #expect(!text.isEmpty, "the 401 page at \(url) says nothing")
                #expect(try browser.pageFetch("/v1/status") == "status 401")
                #expect(
                    try browser.pageFetch(
                        "/v1/places", method: "POST", headers: ["Content-Type": "application/json"],
                        body: #"{"name":"No token","latitude":1,"longitude":2}"#) == "status 401")
                let cookies = try browser.cookies()
                #expect(cookies.isEmpty, "a cookie was set without the token: \(cookies)")
            }
            #expect(try (app.api("GET", "/v1/places")["places"] as? [Any])?.isEmpty == true)
            // With the token, the same browser gets in: the test can tell the two apart.
            try app.open()
            #expect(browser.appRendered)
            #expect(try browser.pageFetch("/v1/status") == "status 200")
            #expect(!browser.currentURL.contains(app.gui.token!), "the token stays in the address bar")
        }

        @Test("the app's port under another name (DNS rebinding) is refused: no app, no cookie, no API")
        func wrongHost() throws {
            let app = try BrowserApp(browserHosts: ["evil.test"])
            defer { app.close() }
            let browser = app.browser
            let token = try #require(app.gui.token)
            let evil = "http://evil.test:\(app.gui.port)"
            try browser.navigate("\(evil)/?token=\(token)")
            let status = try browser.navigationStatus()
            #expect((400..<500).contains(status), "evil.test answered \(status)")
            #expect(!browser.appRendered, "the app rendered under evil.test")
            let cookies = try browser.cookies()
            #expect(cookies.isEmpty, "evil.test got cookies: \(cookies)")
            #expect(try browser.pageFetch("/v1/status").hasPrefix("status 4"))
            #expect(
                try browser.pageFetch("/app/js/api.js").hasPrefix("status 4"), "the app's files are served to evil.test"
            )
            // The same token still opens the app under its real name: the refusal was the Host.
            try app.open()
            #expect(browser.appRendered)
            #expect(try browser.cookies().contains { $0["name"] as? String == "places_session" })
            // And with the cookie held for 127.0.0.1, evil.test still gets nothing.
            try browser.navigate("\(evil)/")
            #expect(!browser.appRendered)
            #expect(try browser.pageFetch("/v1/status").hasPrefix("status 4"))
        }

        @Test("another loopback origin holding the user's cookie cannot post, read or frame the app")
        func crossOriginPost() throws {
            let app = try BrowserApp()
            defer { app.close() }
            let attacker = try AttackerSite()
            let browser = app.browser
            try app.open()
            // The session cookie is HttpOnly and SameSite=Strict; the CSRF cookie is readable.
            let cookies = try browser.cookies()
            let session = try #require(cookies.first { $0["name"] as? String == "places_session" })
            #expect(session["httpOnly"] as? Bool == true && session["sameSite"] as? String == "Strict")
            let csrf = try #require(cookies.first { $0["name"] as? String == "places_csrf" })
            #expect(csrf["httpOnly"] as? Bool == false)

            try browser.navigate(attacker.pageURL(app: app.gui.origin))
            try browser.wait("the attacker's page has run every attempt", timeout: 30) {
                try browser.execute("return document.body.dataset.done") as? String == "true"
            }
            let attack = try #require(try browser.execute("return window.__attack") as? [String: Any])
            // Nothing was created, whatever the answers were.
            let places = try app.api("GET", "/v1/places")["places"] as? [[String: Any]] ?? []
            #expect(places.isEmpty, "the attacker created \(places.map { $0["name"] ?? "" }): \(attack)")
            // Nothing was readable: no CORS grant for another origin.
            for key in ["jsonPost", "csrfPost", "read"] {
                #expect((attack[key] as? String)?.hasPrefix("error") == true, "\(key): \(attack[key] ?? "nothing")")
            }
            let readable = attack.keys.filter { $0.hasSuffix(".readable") }
            #expect(readable.isEmpty, "the attacker read \(readable.map { "\($0)=\(attack[$0] ?? "")" })")
            // The framed app did not render (frame-ancestors 'none' / X-Frame-Options).
            try browser.command("POST", "/frame", ["id": try browser.find("#framed").json])
            let framedApp = browser.appRendered
            try browser.command("POST", "/frame", ["id": NSNull()])
            #expect(!framedApp, "the app rendered inside the attacker's frame")

            // The same request from the app's own page goes through: the check above can fail.
            try app.open()
            let token = try #require(
                try browser.execute("return document.cookie.match(/places_csrf=([^;]+)/)[1]") as? String)
            let own = try browser.pageFetch(
                "/v1/places", method: "POST", headers: ["Content-Type": "application/json", "X-Places-CSRF": token],
                body: #"{"name":"Miradouro da Graça","latitude":38.7163,"longitude":-9.1310}"#)
            #expect(own == "status 201", "the app's own POST: \(own)")
            #expect(try (app.api("GET", "/v1/places")["places"] as? [Any])?.count == 1)
            // Without the CSRF header, even the app's own origin is refused.
            let bare = try browser.pageFetch(
                "/v1/places", method: "POST", headers: ["Content-Type": "application/json"],
                body: #"{"name":"No header","latitude":38.7,"longitude":-9.1}"#)
            #expect(bare.hasPrefix("status 4"), "a POST without the CSRF header: \(bare)")
            #expect(try (app.api("GET", "/v1/places")["places"] as? [Any])?.count == 1)
        }

        @Test("the page's CSP stops inline script, inline handlers and other origins; error pages reflect no markup")
        func contentSecurityPolicy() throws {
            let app = try BrowserApp()
            defer { app.close() }
            let b = app.browser
            try app.open()
            // What an HTML injection would try, were one to slip through: none of it runs or loads
            // (the other hosts resolve nowhere in the test browser: nothing leaves loopback).
            let outcome =
                try b.executeAsync(
                    """
                    const done = arguments[arguments.length - 1];
                    const violations = [];
                    document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));
                    const s = document.createElement('script'); s.textContent = 'window.__inline = 1'; document.body.append(s);
                    const i = document.createElement('img'); i.setAttribute('src', 'x'); i.setAttribute('onerror', 'window.__handler = 1');
                    document.body.append(i);
                    const far = document.createElement('img'); far.src = 'http://pixels.example/p.png'; document.body.append(far);
                    const f = document.createElement('iframe'); f.src = 'http://frames.example/'; document.body.append(f);
                    setTimeout(() => done([typeof window.__inline, typeof window.__handler, violations.sort().join(' ')]), 500);
                    """) as? [String] ?? []
            #expect(outcome.count == 3 && outcome[0] == "undefined" && outcome[1] == "undefined", "\(outcome)")
            for directive in ["script-src", "img-src", "frame-src"] {
                #expect(outcome[safe: 2]?.contains(directive) == true, "no \(directive) violation: \(outcome)")
            }
            // Markup in a path comes back as nothing but text, with and without the session.
            for path in ["/%3Cimg%20src=x%20onerror=window.__xss=1%3E", "/app/%3Csvg%20onload=window.__xss=2%3E"] {
                try b.navigate(app.gui.origin + path)
                #expect(b.all("img, svg").isEmpty, "\(path) made an element")
                #expect(try b.execute("return typeof window.__xss") as? String == "undefined")
            }
            try b.command("DELETE", "/cookie")
            try b.navigate(app.gui.origin + "/%3Cimg%20src=x%20onerror=window.__xss=3%3E")
            #expect(b.all("img, svg").isEmpty)
        }
    }
}
