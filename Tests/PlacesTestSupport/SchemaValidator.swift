import Foundation
import PlacesModel

/// Checks a JSON value against a schema of an OpenAPI 3.1 document (the JSON Schema subset
/// `Protocol/control-api.yaml` uses): `$ref`, `type` (a name or a list, `null` among them),
/// `nullable`, `enum`, `const`, `required`, `properties`, `additionalProperties`, `items`,
/// `allOf`, `oneOf`, `anyOf`, `minimum`, `maximum`, `minLength`, `maxLength`, `minItems`,
/// `maxItems`, `pattern`.
///
/// Stricter than JSON Schema on purpose: an object schema that does not say
/// `additionalProperties` allows no property it does not declare (in its `properties`, or
/// those of its `allOf` parts), so a field the daemon sends and the spec does not describe
/// is an error, not silently accepted.
public struct SchemaValidator: Sendable {
    /// One way a value breaks its schema.
    public struct Violation: Sendable, Equatable, CustomStringConvertible {
        /// JSON pointer (RFC 6901) into the checked value, `""` for the value itself.
        public var pointer: String
        public var message: String
        public var description: String { "at \(pointer.isEmpty ? "/" : pointer): \(message)" }
    }

    let document: OpenAPIDocument

    public init(document: OpenAPIDocument) { self.document = document }

    /// Every violation of `schema` by `value`; empty when it conforms.
    public func validate(_ value: JSONValue, against schema: JSONValue, at pointer: String = "") -> [Violation] {
        var out = [Violation]()
        _ = check(value, schema, pointer, strict: true, into: &out, depth: 0)
        return out
    }

    /// Checks and returns the property names `schema` declares (for the unknown-property
    /// check of an enclosing `allOf`). `strict` is false inside `allOf`, where the enclosing
    /// schema checks unknown properties against every part's declarations at once.
    private func check(
        _ value: JSONValue, _ schema: JSONValue, _ pointer: String, strict: Bool, into out: inout [Violation],
        depth: Int
    ) -> (declared: Set<String>, open: Bool) {
        guard depth < 64 else {
            out.append(Violation(pointer: pointer, message: "schema nesting too deep (a $ref cycle?)"))
            return ([], true)
        }
        if case .bool(let allowed) = schema {
            if !allowed { out.append(Violation(pointer: pointer, message: "no value is allowed here")) }
            return ([], true)
        }
        guard case .object(let s) = schema else {
            out.append(Violation(pointer: pointer, message: "the spec's schema here is not an object"))
            return ([], true)
        }
        var declared = Set<String>()
        var open = false
        if let ref = s["$ref"]?.stringValue {
            guard let target = document.resolve(ref) else {
                out.append(Violation(pointer: pointer, message: "the spec's $ref \(ref) points nowhere"))
                return ([], true)
            }
            let r = check(value, target, pointer, strict: false, into: &out, depth: depth + 1)
            declared.formUnion(r.declared)
            open = open || r.open
        }
        if case .array(let parts)? = s["allOf"] {
            for part in parts {
                let r = check(value, part, pointer, strict: false, into: &out, depth: depth + 1)
                declared.formUnion(r.declared)
                open = open || r.open
            }
        }
        for keyword in ["oneOf", "anyOf"] {
            guard case .array(let branches)? = s[keyword] else { continue }
            var passing = [(declared: Set<String>, open: Bool)]()
            var failures = [[Violation]]()
            for branch in branches {
                var errors = [Violation]()
                let r = check(value, branch, pointer, strict: true, into: &errors, depth: depth + 1)
                if errors.isEmpty { passing.append(r) } else { failures.append(errors) }
            }
            if passing.isEmpty {
                let closest = failures.min { $0.count < $1.count } ?? []
                out.append(
                    Violation(
                        pointer: pointer,
                        message: "matches none of the \(branches.count) \(keyword) schemas; the closest fails with: "
                            + closest.map(\.description).joined(separator: "; ")))
            } else if keyword == "oneOf" && passing.count > 1 {
                out.append(Violation(pointer: pointer, message: "matches \(passing.count) oneOf schemas, not one"))
            }
            for r in passing {
                declared.formUnion(r.declared)
                open = open || r.open
            }
        }
        checkScalarKeywords(value, s, pointer, into: &out)
        guard typeAllows(value, s, pointer, into: &out) else { return (declared, true) }
        switch value {
        case .object(let members):
            if case .array(let required)? = s["required"] {
                for case .string(let name) in required where members[name] == nil {
                    out.append(Violation(pointer: pointer, message: "the required property '\(name)' is missing"))
                }
            }
            let properties = s["properties"]?.objectValue ?? [:]
            declared.formUnion(properties.keys)
            for (name, sub) in properties {
                guard let member = members[name] else { continue }
                _ = check(member, sub, pointer + "/" + escape(name), strict: true, into: &out, depth: depth + 1)
            }
            switch s["additionalProperties"] {
            case .bool(true)?: open = true
            case .object?:
                open = true
                for (name, member) in members where properties[name] == nil {
                    _ = check(
                        member, s["additionalProperties"] ?? .bool(true), pointer + "/" + escape(name), strict: true,
                        into: &out, depth: depth + 1)
                }
            default: break
            }
            if strict && !open && isObjectSchema(s, declared: declared) {
                for name in members.keys.sorted() where !declared.contains(name) {
                    out.append(
                        Violation(
                            pointer: pointer + "/" + escape(name),
                            message: "the property '\(name)' is not in the spec's schema"))
                }
            }
        case .array(let items):
            if let itemSchema = s["items"] {
                for (i, item) in items.enumerated() {
                    _ = check(item, itemSchema, pointer + "/\(i)", strict: true, into: &out, depth: depth + 1)
                }
            }
        default: break
        }
        return (declared, open)
    }

    /// Whether unknown properties are checked here: the schema describes an object (a type,
    /// properties, or parts that declared some), rather than any value.
    private func isObjectSchema(_ s: [String: JSONValue], declared: Set<String>) -> Bool {
        if s["properties"] != nil || !declared.isEmpty || s["additionalProperties"] != nil { return true }
        switch s["type"] {
        case .string("object")?: return true
        case .array(let types)?: return types.contains(.string("object"))
        default: return false
        }
    }

    /// `type` and `nullable`; false when the value's type is wrong (no further checks).
    private func typeAllows(
        _ value: JSONValue, _ s: [String: JSONValue], _ pointer: String, into out: inout [Violation]
    ) -> Bool {
        var types: [String]
        switch s["type"] {
        case .string(let t)?: types = [t]
        case .array(let ts)?: types = ts.compactMap(\.stringValue)
        default: return true
        }
        if s["nullable"] == .bool(true) { types.append("null") }
        let ok = types.contains { type in
            switch (type, value) {
            case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object):
                true
            case ("number", .int), ("number", .double), ("integer", .int): true
            case ("integer", .double(let d)): d == d.rounded(.towardZero)
            default: false
            }
        }
        if !ok {
            out.append(
                Violation(
                    pointer: pointer,
                    message: "\(kind(of: value)) where the spec says \(types.joined(separator: " or "))"))
        }
        return ok
    }

    private func checkScalarKeywords(
        _ value: JSONValue, _ s: [String: JSONValue], _ pointer: String, into out: inout [Violation]
    ) {
        if case .array(let allowed)? = s["enum"], !allowed.contains(where: { same($0, value) }) {
            out.append(
                Violation(
                    pointer: pointer,
                    message: "\(render(value)) is not one of \(allowed.map(render).joined(separator: ", "))"))
        }
        if let constant = s["const"], !same(constant, value) {
            out.append(Violation(pointer: pointer, message: "\(render(value)) is not \(render(constant))"))
        }
        if let number = value.doubleValue {
            if let min = s["minimum"]?.doubleValue, number < min {
                out.append(Violation(pointer: pointer, message: "\(render(value)) is below the minimum \(min)"))
            }
            if let max = s["maximum"]?.doubleValue, number > max {
                out.append(Violation(pointer: pointer, message: "\(render(value)) is above the maximum \(max)"))
            }
        }
        if case .string(let text) = value {
            if let min = s["minLength"]?.intValue, text.count < min {
                out.append(Violation(pointer: pointer, message: "shorter than \(min) characters"))
            }
            if let max = s["maxLength"]?.intValue, text.count > max {
                out.append(Violation(pointer: pointer, message: "longer than \(max) characters"))
            }
            if let pattern = s["pattern"]?.stringValue {
                if let regex = Patterns.shared.regex(pattern) {
                    let range = NSRange(text.startIndex..., in: text)
                    if regex.firstMatch(in: text, range: range) == nil {
                        out.append(Violation(pointer: pointer, message: "\(render(value)) does not match \(pattern)"))
                    }
                } else {
                    out.append(Violation(pointer: pointer, message: "the spec's pattern \(pattern) is not valid"))
                }
            }
        }
        if case .array(let items) = value {
            if let min = s["minItems"]?.intValue, items.count < min {
                out.append(Violation(pointer: pointer, message: "fewer than \(min) items"))
            }
            if let max = s["maxItems"]?.intValue, items.count > max {
                out.append(Violation(pointer: pointer, message: "more than \(max) items"))
            }
        }
    }

    /// JSON equality, with 1 and 1.0 the same number.
    private func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let x = a.doubleValue, let y = b.doubleValue { return x == y }
        return a == b
    }

    private func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number (\(render(value)))"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private func render(_ value: JSONValue) -> String {
        (try? String(decoding: ControlJSONText.encoder.encode(value), as: UTF8.self)) ?? "\(value)"
    }

    private func escape(_ name: String) -> String {
        name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}

/// A compact, key-sorted JSON encoder for messages.
enum ControlJSONText {
    static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }
}

/// Compiled `pattern`s, shared (the spec has a handful; responses check them thousands of
/// times).
final class Patterns: @unchecked Sendable {
    static let shared = Patterns()
    private let lock = NSLock()
    private var compiled: [String: NSRegularExpression?] = [:]

    func regex(_ pattern: String) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if let known = compiled[pattern] { return known }
        let made = try? NSRegularExpression(pattern: pattern)
        compiled[pattern] = made
        return made
    }
}
