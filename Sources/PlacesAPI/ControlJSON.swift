import Foundation

/// The JSON conventions of the control API: camelCase keys, sorted for stable output.
public enum ControlJSON {
    /// Encoder for responses.
    public static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }
}
