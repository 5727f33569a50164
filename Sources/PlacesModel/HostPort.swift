/// A peer address as links, pairing codes and documents write it: UTF-8 `host:port`, a port
/// of 1…65535 in decimal without leading zeros after the last colon; the host a bracketed
/// IPv6 address (hex digits, letters, `: . % - _`) or a name or IPv4 address without `:`,
/// brackets, `/ @ \ ? #`, spaces or control characters (`Protocol/devices.md` §5.1).
public enum HostPort {
    /// The longest address, in UTF-8 bytes.
    public static let maxBytes = 64

    /// Whether `text` is an address of at most `maxBytes` bytes.
    public static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return (1...maxBytes).contains(bytes.count) && isValid(bytes[...])
    }

    /// Whether the UTF-8 bytes are `host:port` (any length).
    public static func isValid(_ hint: ArraySlice<UInt8>) -> Bool {
        guard let colon = hint.lastIndex(of: UInt8(ascii: ":")) else { return false }
        let host = hint[..<colon]
        let port = hint[hint.index(after: colon)...]
        guard (1...5).contains(port.count), port.first != UInt8(ascii: "0"),
            port.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return false }
        // At most 5 digits: at most 99,999, no overflow.
        let value = port.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard value <= 65_535, let first = host.first else { return false }
        if first == UInt8(ascii: "[") {
            guard host.count >= 2, host.last == UInt8(ascii: "]") else { return false }
            let inner = host.dropFirst().dropLast()
            return inner.contains(UInt8(ascii: ":"))
                && inner.allSatisfy { byte in
                    switch byte {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                        UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: ":"), UInt8(ascii: "."),
                        UInt8(ascii: "%"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                        true
                    default: false
                    }
                }
        }
        let forbidden = Array(":[]/@\\?#".utf8)
        return host.allSatisfy { $0 > 0x20 && $0 != 0x7f && !forbidden.contains($0) }
    }
}
