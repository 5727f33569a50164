#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `places gui` listens: a loopback address (127.0.0.0/8 or ::1) and a port. Any
/// other address is refused: the app serves a person's trips and must not be reachable
/// from another machine.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The default port of `places gui` when `--listen` is not given.
    public static let defaultPort = 8385

    /// The default: 127.0.0.1 on the fixed default port.
    public static let `default` = ListenAddress(host: "127.0.0.1", port: defaultPort, isIPv6: false)

    /// The numeric address, without brackets (`127.0.0.1`, `::1`).
    public var host: String
    /// The port; 0 asks the system for a free one.
    public var port: Int
    /// Whether `host` is an IPv6 address (written in brackets in URLs and `Host`).
    public var isIPv6: Bool

    /// `host:port` as it appears in a URL and in a `Host` header (`[::1]:8385`).
    public var authority: String { Self.authority(host: host, isIPv6: isIPv6, port: port) }

    public var description: String { authority }

    /// `host:port` for a host and a port, with brackets around an IPv6 host.
    static func authority(host: String, isIPv6: Bool, port: Int) -> String {
        isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    init(host: String, port: Int, isIPv6: Bool) {
        self.host = host
        self.port = port
        self.isIPv6 = isIPv6
    }

    /// Parses `HOST:PORT` (`127.0.0.1:8385`, `[::1]:0`, `localhost:8385`), refusing any host
    /// that is not a loopback address with a message that says which addresses are allowed.
    public init(parsing text: String) throws(WebError) {
        let hint =
            "places gui listens only on a loopback address: 127.0.0.0/8 or [::1], e.g. 127.0.0.1:\(Self.defaultPort)"
        var hostText: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw WebError(.invalidListenAddress, "--listen \(text): write an IPv6 address as [::1]:PORT")
            }
            hostText = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
                throw WebError(.invalidListenAddress, "--listen \(text): expected HOST:PORT (\(hint))")
            }
            hostText = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        // `Int(_: Substring)` is a parse: it answers nil (never traps) for text that is not a
        // number or does not fit; the range is checked next.
        guard let port = Int(portText), (0...65_535).contains(port), portText.allSatisfy(\.isASCII) else {
            throw WebError(.invalidListenAddress, "--listen \(text): the port must be a number from 0 to 65535")
        }
        if hostText.lowercased() == "localhost" { hostText = "127.0.0.1" }
        if let octets = Self.ipv4(String(hostText)) {
            guard octets.first == 127 else {
                throw WebError(
                    .invalidListenAddress, "--listen \(text): \(hostText) is not a loopback address; \(hint)")
            }
            self.init(host: octets.map(String.init).joined(separator: "."), port: port, isIPv6: false)
        } else if let bytes = Self.ipv6(String(hostText)) {
            guard bytes == Array(repeating: 0, count: 15) + [1] else {
                throw WebError(
                    .invalidListenAddress, "--listen \(text): \(hostText) is not a loopback address; \(hint)")
            }
            self.init(host: "::1", port: port, isIPv6: true)
        } else {
            throw WebError(
                .invalidListenAddress, "--listen \(text): \(hostText) is not a numeric IP address; \(hint)")
        }
    }

    /// The four bytes of a dotted-quad IPv4 address, or nil.
    static func ipv4(_ text: String) -> [UInt8]? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: address) { Array($0) }
    }

    /// The sixteen bytes of an IPv6 address, or nil.
    static func ipv6(_ text: String) -> [UInt8]? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: address) { Array($0) }
    }
}
