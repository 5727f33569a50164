import Foundation
import PlacesModel
import PlacesTestSupport
import Testing

/// `Protocol/control-api.yaml` is consistent with itself: what the response check relies on
/// (references that resolve, examples that conform) holds, so a violation it reports is
/// the code's or the schema's, never a broken reference.
@Suite("Protocol/control-api.yaml is consistent")
struct SpecDocumentTests {
    func document() throws -> OpenAPIDocument { try OpenAPIDocument.controlAPI.get() }

    /// Every value under `node` with its JSON pointer.
    func walk(_ node: JSONValue, _ pointer: String = "", _ visit: (JSONValue, String) -> Void) {
        visit(node, pointer)
        switch node {
        case .object(let o):
            for (k, v) in o { walk(v, pointer + "/" + k.replacingOccurrences(of: "/", with: "~1"), visit) }
        case .array(let a): for (i, v) in a.enumerated() { walk(v, pointer + "/\(i)", visit) }
        default: break
        }
    }

    @Test("every $ref points at something")
    func referencesResolve() throws {
        let doc = try document()
        var refs = 0
        walk(doc.root) { node, pointer in
            guard case .object(let o) = node, case .string(let ref)? = o["$ref"] else { return }
            refs += 1
            #expect(doc.resolve(ref) != nil, "\(pointer): \(ref) resolves to nothing")
        }
        #expect(refs > 100)
    }

    @Test("every example of a request or response body conforms to its schema")
    func examplesConform() throws {
        let doc = try document()
        let validator = SchemaValidator(document: doc)
        var examples = 0
        walk(doc.root) { node, pointer in
            guard case .object(let media) = node, let schema = media["schema"], let example = media["example"],
                pointer.contains("/content/")
            else { return }
            let values: [JSONValue]
            if pointer.hasSuffix("x-ndjson"), case .string(let text) = example {
                values = text.split(separator: "\n").compactMap {
                    try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8))
                }
            } else {
                values = [example]
            }
            for value in values {
                examples += 1
                let problems = validator.validate(value, against: schema)
                #expect(problems.isEmpty, "\(pointer): \(problems)")
            }
        }
        #expect(examples >= 4)
    }
}
