/// A street-map tile server's URL template (`https://tile.example.org/{z}/{x}/{y}.png`):
/// given to `places gui --tiles` or `PLACES_TILES`, handed to the page in
/// `/app/config.json`, and its origin added to the page's `img-src`.
public struct TileTemplate: Sendable, Equatable {
    /// The environment variable read when `--tiles` is not given.
    public static let environmentVariable = "PLACES_TILES"

    /// The template as given.
    public var template: String
    /// The origin the tiles come from, as a CSP source (`https://tile.example.org`,
    /// `https://*.tile.example.org` for a `{s}` subdomain).
    public var cspSource: String

    /// Checks the template: http or https, a host (whose first label may be `{s}`), and the
    /// `{z}`, `{x}` and `{y}` placeholders in the path.
    public init(parsing text: String) throws(WebError) {
        let usage =
            "a tile URL template is http(s)://HOST/…{z}…{x}…{y}…, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png"
        let lowered = text.lowercased()
        let scheme: String
        if lowered.hasPrefix("https://") {
            scheme = "https"
        } else if lowered.hasPrefix("http://") {
            scheme = "http"
        } else {
            throw WebError(.invalidTiles, "--tiles \(text): not an http or https URL; \(usage)")
        }
        guard text.utf8.count <= 2048, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw WebError(.invalidTiles, "--tiles: the template must be printable ASCII without spaces; \(usage)")
        }
        let rest = text.dropFirst(scheme.count + 3)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let path = rest.dropFirst(authority.count)
        var host = authority
        if host.hasPrefix("{s}.") { host = host.dropFirst(4) }
        let hostAllowed = host.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":" }
        guard !host.isEmpty, hostAllowed, !authority.contains("@"), !host.hasPrefix(".") else {
            throw WebError(.invalidTiles, "--tiles \(text): the host must be a plain name or address; \(usage)")
        }
        for placeholder in ["{z}", "{x}", "{y}"] where !path.contains(placeholder) {
            throw WebError(.invalidTiles, "--tiles \(text): \(placeholder) is missing; \(usage)")
        }
        self.template = text
        let wildcard = authority.hasPrefix("{s}.") ? "*." : ""
        self.cspSource = "\(scheme)://\(wildcard)\(host.lowercased())"
    }
}
