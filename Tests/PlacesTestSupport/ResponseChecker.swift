import Foundation
import PlacesModel
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Checks each control-API response a test sees against `Protocol/control-api.yaml`: the
/// operation exists for the method and path (else the answer must be the router's 404
/// `no-route`), the status is declared, the media type is one the spec lists for it, and a
/// JSON body (each line of an NDJSON one) validates against its schema with unknown
/// properties refused (`SchemaValidator`). Other media (GPX, SVG) are checked by type only.
public struct ResponseChecker: Sendable {
    let document: OpenAPIDocument
    let validator: SchemaValidator

    public init(document: OpenAPIDocument) {
        self.document = document
        self.validator = SchemaValidator(document: document)
    }

    /// The checker of `Protocol/control-api.yaml`, or nil (with an issue recorded) when the
    /// file cannot be read.
    public static let controlAPI: ResponseChecker? = {
        switch OpenAPIDocument.controlAPI {
        case .success(let doc): return ResponseChecker(document: doc)
        case .failure: return nil
        }
    }()

    /// Every problem with one response; empty when it is as the spec says. `target` is the
    /// request target as sent (a query is ignored).
    public func problems(method: String, target: String, status: Int, contentType: String, body: [UInt8])
        -> [String]
    {
        let path = String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
        let decoded = path.removingPercentEncoding ?? path
        guard let op = document.operation(method: method, path: decoded) else {
            // Not in the spec: the only right answer is the documented 404 `no-route` (or
            // `not-found` outside /v1/).
            guard status == 404 else {
                return ["\(method) \(path) is not in the spec, yet it answered \(status) (expected 404 no-route)"]
            }
            return checkBody(
                route: "\(method) \(path)", status: status, contentType: contentType, body: body,
                content: [
                    "application/problem+json": .object([
                        "schema": .object(["$ref": .string("#/components/schemas/Problem")])
                    ])
                ])
        }
        let route = "\(method) \(op.template)"
        let responses = op.object["responses"]?.objectValue ?? [:]
        let declared = responses[String(status)] ?? responses["\(status / 100)XX"] ?? responses["default"]
        guard let declared, let response = document.dereference(declared)?.objectValue else {
            let known = responses.keys.sorted().joined(separator: ", ")
            return ["\(route): status \(status) is not declared (the spec lists \(known))"]
        }
        return checkBody(
            route: route, status: status, contentType: contentType, body: body,
            content: response["content"]?.objectValue ?? [:])
    }

    private func checkBody(
        route: String, status: Int, contentType: String, body: [UInt8], content: [String: JSONValue]
    ) -> [String] {
        let mediaType =
            contentType.split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        let at = "\(route) → \(status)"
        if content.isEmpty {
            if body.isEmpty { return [] }
            return ["\(at): the spec declares no body, yet one came (\(mediaType), \(body.count) bytes)"]
        }
        guard let media = content[mediaType]?.objectValue else {
            let known = content.keys.sorted().joined(separator: ", ")
            return ["\(at): media type '\(mediaType)' is not declared (the spec lists \(known))"]
        }
        guard let schema = media["schema"] else { return [] }
        let documents: [[UInt8]]
        if mediaType == "application/json" || mediaType.hasSuffix("+json") {
            documents = [body]
        } else if mediaType == "application/x-ndjson" {
            documents = body.split(separator: 10, omittingEmptySubsequences: true).map(Array.init)
        } else {
            return []  // GPX, SVG, …: the media type is what the spec can say about them.
        }
        var problems = [String]()
        for (n, text) in documents.enumerated() {
            guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text)) else {
                problems.append("\(at): the body is not JSON (\(mediaType))")
                continue
            }
            let line = documents.count > 1 ? " line \(n + 1)" : ""
            for v in validator.validate(value, against: schema) {
                problems.append("\(at)\(line) \(v.description)")
            }
        }
        return problems
    }

    /// Checks a response and records an issue in the running test for each problem (a
    /// field added in code and not in the spec fails the test that saw it).
    public static func record(
        method: String, target: String, status: Int, contentType: String, body: [UInt8],
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) {
        let sourceLocation = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: 1)
        guard let checker = controlAPI else {
            Issue.record("Protocol/control-api.yaml could not be read", sourceLocation: sourceLocation)
            return
        }
        let found = checker.problems(
            method: method, target: target, status: status, contentType: contentType, body: body)
        seen.withLock { $0 += 1 }
        if let file = ProcessInfo.processInfo.environment["PLACES_SPEC_COVERAGE"] {
            checker.appendCoverage(method: method, target: target, status: status, to: file)
        }
        for problem in found {
            Issue.record("the response breaks Protocol/control-api.yaml: \(problem)", sourceLocation: sourceLocation)
        }
    }

    /// Appends `METHOD template status` to `file` (`PLACES_SPEC_COVERAGE=file swift test …`,
    /// then `sort -u`): which operations and statuses the tests exercise.
    func appendCoverage(method: String, target: String, status: Int, to file: String) {
        let path = String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
        let template = document.operation(method: method, path: path.removingPercentEncoding ?? path)?.template
        let line = Array("\(method) \(template ?? "(not in the spec)") \(status)\n".utf8)
        let fd = open(file, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard fd >= 0 else { return }
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// How many responses were checked in this test process.
    public static var checkedCount: Int { seen.withLock { $0 } }
    private static let seen = Mutex(0)
}
