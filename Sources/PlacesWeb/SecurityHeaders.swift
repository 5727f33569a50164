import NIOHTTP1

/// The headers every answer of the app server carries (pages, files, errors and the
/// daemon's answers alike): a strict Content-Security-Policy — no inline script, no other
/// origin but the tile server's images — and the browser's other isolation switches.
struct SecurityHeaders: Sendable {
    /// The Content-Security-Policy value.
    let contentSecurityPolicy: String

    /// - Parameter tiles: the tile server, whose origin is allowed for images.
    init(tiles: TileTemplate?) {
        let images = ["'self'", "data:", "blob:"] + (tiles.map { [$0.cspSource] } ?? [])
        contentSecurityPolicy = [
            "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src " + images.joined(separator: " "),
            "connect-src 'self'", "font-src 'self'", "manifest-src 'self'", "base-uri 'none'", "form-action 'self'",
            "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    /// Sets the headers on `headers`, replacing any of the same name (a proxied answer's).
    func apply(to headers: inout HTTPHeaders) {
        headers.replaceOrAdd(name: "Content-Security-Policy", value: contentSecurityPolicy)
        headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        headers.replaceOrAdd(name: "Referrer-Policy", value: "no-referrer")
        headers.replaceOrAdd(name: "X-Frame-Options", value: "DENY")
        headers.replaceOrAdd(name: "Cross-Origin-Opener-Policy", value: "same-origin")
        headers.replaceOrAdd(name: "Cross-Origin-Resource-Policy", value: "same-origin")
    }
}
