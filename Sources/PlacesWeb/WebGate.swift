import NIOHTTP1

/// The checks every request to the app server passes, in order: the request target's size,
/// the `Host` header (DNS rebinding), the URL's token exchanged for a session, the session
/// cookie, and for state-changing methods the `Origin` and the CSRF token. What passes is
/// routed: the app's page and files, its configuration, or the daemon's API.
struct WebGate: Sendable {
    /// What to do with a request.
    enum Decision: Sendable {
        /// Answer at once (a refusal, the token's redirect, a not-found).
        case respond(WebResponse)
        /// Forward to the daemon's control socket.
        case proxy
        /// The app's page.
        case index
        /// The generated `/app/config.json`.
        case config
        /// A file of the app, by its percent-decoded segments below `/app/`.
        case asset([String])
    }

    /// The session cookie (HttpOnly: the page never sees it).
    static let sessionCookie = "places_session"
    /// The CSRF cookie, which the page reads and sends back in `csrfHeader`.
    static let csrfCookie = "places_csrf"
    /// The header carrying the CSRF token on state-changing requests.
    static let csrfHeader = "X-Places-CSRF"
    /// Largest accepted request target (path and query), as the daemon's.
    static let maxURIBytes = 8 << 10

    /// The secret of the printed URL.
    let token: String
    /// The `Host` values that name this server (`127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`).
    let allowedHosts: Set<String>
    let sessions: SessionStore

    /// - Parameters:
    ///   - token: the URL's secret.
    ///   - address: the bound address, with its real port.
    ///   - sessions: where sessions are kept.
    init(token: String, address: ListenAddress, sessions: SessionStore) {
        self.token = token
        self.sessions = sessions
        let port = address.port
        allowedHosts = [
            "127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)",
            ListenAddress.authority(host: address.host, isIPv6: address.isIPv6, port: port),
        ]
    }

    /// Decides what to do with a request, from its head alone.
    func decide(_ head: HTTPRequestHead) async -> Decision {
        let (path, query) = Self.split(head.uri)
        let isAPI = path == "/v1" || path.hasPrefix("/v1/")
        func refuse(_ status: HTTPResponseStatus, _ code: String, _ title: String, _ detail: String) -> Decision {
            .respond(
                isAPI
                    ? .problem(status, code: code, title: title, detail: detail)
                    : .page(status, title: title, text: detail))
        }
        let hosts = head.headers["host"]
        guard hosts.count == 1, let host = hosts.first, allowedHosts.contains(host.lowercased()) else {
            return refuse(
                .misdirectedRequest, "misdirected-request", "Misdirected request",
                "this server answers only to its loopback address and port (the Host header names another)")
        }
        guard head.uri.utf8.count <= Self.maxURIBytes else {
            return refuse(.uriTooLong, "uri-too-long", "URI too long", "the request path is too long")
        }
        let isRead = head.method == .GET || head.method == .HEAD
        if path == "/", isRead, let offered = query["token"] {
            return await exchange(offered)
        }
        let cookies = Self.cookies(head.headers, named: Self.sessionCookie)
        guard let session = await sessions.session(amongIDs: cookies) else {
            return .respond(isAPI ? .sessionRequiredProblem : .sessionRequiredPage)
        }
        if !isRead {
            let origins = head.headers["origin"]
            guard origins.count == 1, origins.first == "http://" + host.lowercased() else {
                return refuse(
                    .forbidden, "cross-origin", "Forbidden",
                    "a request that changes something must come from the app's own page (its Origin header)")
            }
            let offered = head.headers[Self.csrfHeader]
            guard offered.count == 1, let csrf = offered.first, Secret.equal(csrf, session.csrfToken) else {
                return refuse(
                    .forbidden, "csrf-token", "Forbidden",
                    "the request lacks the app's CSRF token (\(Self.csrfHeader)): reload the page")
            }
        } else if isAPI, let site = head.headers["sec-fetch-site"].first, site != "same-origin", site != "none" {
            return refuse(.forbidden, "cross-origin", "Forbidden", "the API answers only the app's own page")
        }
        if isAPI { return .proxy }
        guard isRead else {
            return refuse(
                .methodNotAllowed, "method-not-allowed", "Method not allowed", "the app's files are read-only")
        }
        if path == "/" { return .index }
        if path == "/app/config.json" { return .config }
        if path.hasPrefix("/app/") {
            let segments = path.dropFirst("/app/".count).split(separator: "/", omittingEmptySubsequences: false)
            var decoded: [String] = []
            for segment in segments {
                guard let text = segment.removingPercentEncodingStrict() else {
                    return .respond(Self.notFound(isAPI: false))
                }
                decoded.append(text)
            }
            return .asset(decoded)
        }
        return .respond(Self.notFound(isAPI: false))
    }

    /// The answer to `/?token=…`: a redirect to `/` that opens a session, or a refusal
    /// that says only where the right address is.
    private func exchange(_ offered: String) async -> Decision {
        guard Secret.equal(offered, token) else {
            return .respond(
                .page(
                    .unauthorized, title: "This address is not the app's",
                    text:
                        "The token in this address is wrong or out of date. Open the address that `places gui` "
                        + "printed in your terminal (each run prints a new one)."))
        }
        let session = await sessions.open()
        var headers = HTTPHeaders()
        // The fragment of the address the user opened is kept across the redirect; the
        // token in the query is not.
        headers.add(name: "Location", value: "/")
        headers.add(
            name: "Set-Cookie", value: "\(Self.sessionCookie)=\(session.id); HttpOnly; SameSite=Strict; Path=/")
        headers.add(name: "Set-Cookie", value: "\(Self.csrfCookie)=\(session.csrfToken); SameSite=Strict; Path=/")
        var response = WebResponse(status: .seeOther, contentType: nil, body: [], headers: headers)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return .respond(response)
    }

    /// The answer for an address with nothing behind it.
    static func notFound(isAPI: Bool) -> WebResponse {
        isAPI
            ? .problem(.notFound, code: "not-found", title: "Not found", detail: "there is nothing at this address")
            : .page(.notFound, title: "Not found", text: "There is nothing at this address.")
    }

    /// The path (not decoded) and the query's parameters (decoded; the last of a name wins).
    static func split(_ uri: String) -> (path: String, query: [String: String]) {
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? ""
        var query: [String: String] = [:]
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let key = kv.first?.removingPercentEncodingStrict() else { continue }
                query[key] = kv.count > 1 ? kv[1].removingPercentEncodingStrict() ?? "" : ""
            }
        }
        return (path, query)
    }

    /// The values of the cookies named `name` in a request's `Cookie` headers.
    static func cookies(_ headers: HTTPHeaders, named name: String) -> [String] {
        var values: [String] = []
        for header in headers["cookie"] {
            for pair in header.split(separator: ";") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard kv.count == 2, kv[0].trimmingSpaces() == name else { continue }
                values.append(String(kv[1].trimmingSpaces()))
            }
        }
        return values
    }
}

extension Substring {
    /// Percent-decoded UTF-8, or nil when an escape is malformed or the bytes are not UTF-8.
    func removingPercentEncodingStrict() -> String? {
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue)
            else { return nil }
            // Both are 0…15 (`hexValue`), so `high << 4 | low` is 0…255: it fits a UInt8.
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// 0…15 for a hex digit. Each subtraction is inside its case's range, so it cannot
    /// underflow; the largest answer is `f` − `a` + 10 = 15.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Without leading and trailing spaces and tabs.
    func trimmingSpaces() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
