import Foundation

/// JSON helpers for tests that compare what daemons answer: parse a body, drop the keys
/// that legitimately differ, and print it canonically (sorted keys) so two answers compare
/// as strings and a difference reads as text.
public enum JSONCanon {
    /// Parses a JSON body (any top-level value); `nil` when it is not JSON.
    public static func parse(_ bytes: [UInt8]) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    /// Parses a JSON text; `nil` when it is not JSON.
    public static func parse(_ text: String) -> Any? { parse(Array(text.utf8)) }

    /// The canonical text of a JSON value: sorted keys, no extra whitespace, `/` unescaped.
    public static func text(_ value: Any) -> String {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return "\(value)" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A pretty canonical text (sorted keys, indented), for files people read and diff.
    public static func pretty(_ value: Any) -> String {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: value,
                options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes, .prettyPrinted])
        else { return "\(value)" }
        return String(decoding: data, as: UTF8.self)
    }

    /// `value` with every object key in `keys` removed, at any depth.
    public static func removingKeys(_ keys: Set<String>, from value: Any) -> Any {
        if let object = value as? [String: Any] {
            var out: [String: Any] = [:]
            for (k, v) in object where !keys.contains(k) { out[k] = removingKeys(keys, from: v) }
            return out
        }
        if let array = value as? [Any] { return array.map { removingKeys(keys, from: $0) } }
        return value
    }
}
