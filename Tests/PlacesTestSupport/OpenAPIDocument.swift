import Foundation
import PlacesModel
import Yams

/// An OpenAPI 3.1 document read as plain JSON values, with the look-ups a response check
/// needs: `$ref` resolution and the operation for a concrete request.
public struct OpenAPIDocument: Sendable {
    /// The whole document.
    public let root: JSONValue

    /// `Protocol/control-api.yaml` of this checkout, read once.
    public static let controlAPI: Result<OpenAPIDocument, HarnessError> = {
        let spec = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Protocol/control-api.yaml")
        do {
            return .success(try OpenAPIDocument(yaml: try String(contentsOf: spec, encoding: .utf8)))
        } catch {
            return .failure(HarnessError("cannot read \(spec.path): \(error)"))
        }
    }()

    /// Parses YAML text. Scalars resolve as YAML 1.2's core schema does (no timestamps).
    public init(yaml: String) throws {
        let resolver = Resolver.basic.appending(.bool).appending(.int).appending(.float).appending(.null)
        guard let node = try Yams.compose(yaml: yaml, resolver) else { throw HarnessError("empty OpenAPI document") }
        root = try OpenAPIDocument.json(node)
    }

    /// Wraps an already parsed document (tests of the checker).
    public init(root: JSONValue) { self.root = root }

    private static func json(_ node: Node) throws -> JSONValue {
        switch node {
        case .scalar(let scalar):
            switch Tag.Name(rawValue: node.tag.rawValue) {
            case Tag.Name.null: return .null
            case Tag.Name.bool: return node.bool.map(JSONValue.bool) ?? .string(scalar.string)
            case Tag.Name.int: return node.int.map { .int(Int64($0)) } ?? .string(scalar.string)
            case Tag.Name.float: return node.float.map(JSONValue.double) ?? .string(scalar.string)
            default: return .string(scalar.string)
            }
        case .mapping(let mapping):
            var object = [String: JSONValue]()
            for (key, value) in mapping {
                guard let name = key.string else { throw HarnessError("a mapping key that is not a scalar") }
                object[name] = try json(value)
            }
            return .object(object)
        case .sequence(let sequence):
            return .array(try sequence.map(json))
        case .alias:
            throw HarnessError("YAML aliases are not used in the spec")
        }
    }

    /// The value at a local reference (`#/components/schemas/Place`, JSON pointer escapes).
    public func resolve(_ ref: String) -> JSONValue? {
        guard ref.hasPrefix("#") else { return nil }
        var node = root
        for token in ref.dropFirst().split(separator: "/", omittingEmptySubsequences: true) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch node {
            case .object(let o):
                guard let next = o[key] else { return nil }
                node = next
            case .array(let a):
                guard let i = Int(key), a.indices.contains(i) else { return nil }
                node = a[i]
            default: return nil
            }
        }
        return node
    }

    /// Follows `$ref` until an object without one (response and parameter objects).
    public func dereference(_ value: JSONValue) -> JSONValue? {
        var value = value
        for _ in 0..<16 {
            guard case .object(let o) = value, let ref = o["$ref"]?.stringValue else { return value }
            guard let next = resolve(ref) else { return nil }
            value = next
        }
        return nil
    }

    /// An operation found for a request.
    public struct Operation: Sendable {
        /// The path template, e.g. `/v1/itineraries/{itineraryRef}/places/{stopRef}`.
        public var template: String
        /// The operation object.
        public var object: [String: JSONValue]
    }

    /// The path template a concrete path (no query) matches, the one with the most literal
    /// segments when several do; empty segments are ignored, as the router ignores them.
    public func template(for path: String) -> String? {
        guard case .object(let paths)? = root.objectValue?["paths"] else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        var best: (template: String, literals: Int)?
        for template in paths.keys {
            let parts = template.split(separator: "/", omittingEmptySubsequences: true)
            guard parts.count == segments.count else { continue }
            var literals = 0
            var matches = true
            for (part, segment) in zip(parts, segments) {
                if part.hasPrefix("{") && part.hasSuffix("}") { continue }
                guard part == segment else {
                    matches = false
                    break
                }
                literals += 1
            }
            if matches, literals > (best?.literals ?? -1) { best = (template, literals) }
        }
        return best?.template
    }

    /// The operation for a method on a concrete path, if the document declares one.
    public func operation(method: String, path: String) -> Operation? {
        guard let template = template(for: path),
            case .object(let item)? = root.objectValue?["paths"]?.objectValue?[template],
            case .object(let op)? = item[method.lowercased()]
        else { return nil }
        return Operation(template: template, object: op)
    }
}

extension JSONValue {
    /// The members, if this is an object.
    var objectValue: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }
}
