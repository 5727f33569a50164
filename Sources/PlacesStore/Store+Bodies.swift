import Foundation
import PlacesModel

/// Reading an op's decrypted body (`Protocol/op-format.md` §4), with the bounds a peer's body
/// is held to.
extension Store {
    /// How deeply arrays and objects may nest in an op body (op-format §4): the body object, its
    /// change list, a change and a value of at most two levels (categories, a price) need 5.
    static let maxBodyNesting = 16

    static func decodeBody(_ bytes: [UInt8]) throws(StoreError) -> OpBody {
        // A change's value may nest what the whole body may, less the body, its changes and
        // the change (nestingDepth counts those three).
        if let body = OpBody(canonicalJSON: bytes, nesting: maxBodyNesting - 3, number: decodeNumber) { return body }
        // The JSON parser and `JSONValue` recurse per level: refuse deep nesting before parsing.
        guard nestingDepth(bytes) <= maxBodyNesting else {
            throw StoreError(.invalidOp, "op body nests deeper than \(maxBodyNesting) levels")
        }
        do { return try JSONDecoder().decode(OpBody.self, from: Data(bytes)) } catch {
            throw StoreError(.invalidOp, "op body is not valid", cause: error)
        }
    }

    /// What is wrong with a body that decrypts but does not parse, in words (the decoder's
    /// own description, such as "unknown entity kind 'lodgings'").
    static func bodyRefusal(_ error: StoreError) -> String {
        let context: DecodingError.Context? =
            switch error.cause as? DecodingError {
            case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c): c
            default: nil
            }
        return context.map { "\(error.message): \($0.debugDescription.prefix(200))" } ?? error.message
    }

    /// The deepest nesting of `[` and `{` outside strings (JSON text or not).
    static func nestingDepth(_ bytes: [UInt8]) -> Int {
        var depth = 0, deepest = 0, inString = false, escaped = false
        for b in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == 0x22 {
                    inString = false
                }
                continue
            }
            switch b {
            case 0x22: inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: continue
            }
        }
        return deepest
    }

    /// A number of a body read by `OpBody(canonicalJSON:)` that is not a plain integer, read
    /// as `JSONDecoder` reads it inside a body (`45.0` is an integer, `4.5` a double).
    static func decodeNumber(_ text: [UInt8]) -> JSONValue? {
        let array: [UInt8] = [0x5B] + text + [0x5D]  // [text]
        return try? JSONDecoder().decode([JSONValue].self, from: Data(array)).first
    }
}
