/// A forecast source the user configured (`PUT /v1/preferences {"weatherSource": URL}`):
/// an Open-Meteo-compatible endpoint, kept as given and parsed once for the client.
public struct WeatherSource: Sendable, Equatable {
    /// The URL as the user gave it.
    public var url: String
    /// `http` or `https`.
    public var scheme: String
    /// The host name or address (an IPv6 address without its brackets).
    public var host: String
    public var port: Int
    /// The path, `/` when the URL has none.
    public var path: String
    /// The URL's own query, without `?` (sent first, before the forecast's parameters).
    public var query: String?

    /// The longest URL kept.
    public static let maxLength = 500
    /// The bytes of a host name: ASCII letters, digits, '-', '.', '_'.
    static let hostBytes = Set(Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._".utf8))
    static let hexBytes = Set(Array("0123456789abcdefABCDEF.".utf8))

    /// Parses `http(s)://host[:port][/path][?query]`; throws `WeatherError.badSource` saying
    /// what is wrong (another scheme, user info, no host, a bad port, a fragment, spaces or
    /// control characters).
    public init(_ url: String) throws(WeatherError) {
        guard (1...Self.maxLength).contains(url.utf8.count) else {
            throw .badSource("a URL of 1 to \(Self.maxLength) characters")
        }
        guard url.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw .badSource("the URL has spaces, control or non-ASCII characters")
        }
        let lower = url.lowercased()
        let scheme: String
        if lower.hasPrefix("http://") {
            scheme = "http"
        } else if lower.hasPrefix("https://") {
            scheme = "https"
        } else {
            throw .badSource("only http:// and https:// URLs are accepted")
        }
        var rest = Substring(url.dropFirst(scheme.count + 3))
        guard !rest.contains("#") else { throw .badSource("a URL with a #fragment") }
        var query: String?
        if let q = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: q)...])
            rest = rest[..<q]
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        let path = slash == rest.endIndex ? "/" : String(rest[slash...])
        guard !authority.contains("@") else { throw .badSource("user names and passwords in the URL are not sent") }
        var host = authority, portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .badSource("an IPv6 address without ']'") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .badSource("text after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty else { throw .badSource("the URL names no host") }
        // A name (letters, digits, '-', '.', '_') or an address; an IPv6 address only in
        // brackets. Anything else (a second ':' of "1.2.3.4:80:90", quotes, '%') is no host.
        let bracketed = authority.hasPrefix("[")
        guard
            host.utf8.allSatisfy({ c in
                Self.hostBytes.contains(c) || (bracketed && (c == UInt8(ascii: ":") || Self.hexBytes.contains(c)))
            })
        else { throw .badSource("'\(host.prefix(60))' is not a host name or address") }
        var port = scheme == "https" ? 443 : 80
        if let portText {
            // Digits only: Int("+80") would read "+80".
            guard (1...5).contains(portText.utf8.count), portText.utf8.allSatisfy({ (48...57).contains($0) }),
                let p = Int(portText), (1...65_535).contains(p)
            else { throw .badSource("a port of 1 to 65535") }
            port = p
        }
        self.url = url
        self.scheme = scheme
        self.host = String(host)
        self.port = port
        self.path = path
        self.query = query.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The request target for a destination: the URL's path and query, then `latitude` and
    /// `longitude` rounded to 0.01° (about a kilometre: the source learns the town, not the
    /// street), and the fields the dashboard shows. Nothing else is sent (docs/destinations.md).
    public func target(latitude: Double, longitude: Double) -> String {
        let forecast =
            "latitude=\(Self.hundredths(latitude))&longitude=\(Self.hundredths(longitude))"
            + "&current=temperature_2m,weather_code,wind_speed_10m"
            + "&daily=weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum"
            + "&timezone=auto&forecast_days=7"
        return path + "?" + (query.map { $0 + "&" } ?? "") + forecast
    }

    /// A coordinate rounded to two decimals, written without exponent or locale (`-9.15`).
    public static func hundredths(_ degrees: Double) -> String {
        // Coordinates are checked within ±180 before they get here; clamp anyway: no trap.
        let clamped = degrees.isFinite ? max(-180, min(180, degrees)) : 0
        let scaled = Int((clamped * 100).rounded())
        let sign = scaled < 0 ? "-" : ""
        let whole = abs(scaled) / 100, fraction = abs(scaled) % 100
        return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
