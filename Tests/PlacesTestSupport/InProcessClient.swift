import Foundation
import PlacesAPI
import PlacesControl
import PlacesDaemon
import Synchronization

/// A daemon in the test's own process (`InProcessDaemon`: store, engine and router, no
/// socket), driven with the request API of `DaemonProcess`: `send`, `call`, `initialize`.
/// A behaviour test switches between the two by changing the type it starts; calls here are
/// `async` (with `await`, the same lines compile against `DaemonProcess`).
///
/// What the control server does before routing (refusing Origin/Referer headers, body and
/// target sizes, HTTP framing) is not here: those tests run against a real `placesd`.
public final class InProcessClient: Sendable {
    public let dataDir: String
    private let daemon = Mutex<InProcessDaemon?>(nil)

    public init(dataDir: String) { self.dataDir = dataDir }

    /// A response, with the members of `ControlClient.Response` (whose initializer is not
    /// public).
    public struct Response: Sendable {
        public var status: Int
        public var contentType: String
        public var body: [UInt8]
        /// The body as text.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Opens the data dir as `placesd` would at start (logging in with an unsealed key).
    public func start() async throws {
        let started = try await InProcessDaemon.start(dataDir: dataDir)
        daemon.withLock { $0 = started }
    }

    /// The running in-process daemon, for the hooks a feature's tests set (a clock).
    public var inProcessDaemon: InProcessDaemon? { daemon.withLock { $0 } }

    /// Closes the store, as a daemon stopping would.
    public func stop() {
        daemon.withLock { d in
            d?.shutdown()
            d = nil
        }
    }

    deinit { stop() }

    /// Sends a request with a JSON body given as text and answers what the control server
    /// would have written: status, content type and body. Every response is checked against
    /// `Protocol/control-api.yaml`. An event stream answers its first line, then ends.
    public func send(
        _ method: String, _ path: String, json: String? = nil, headers: [String: String] = [:],
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) async throws -> Response {
        guard headers.isEmpty else {
            throw HarnessError("request headers are checked by the control server: use DaemonProcess")
        }
        guard let d = daemon.withLock({ $0 }) else { throw HarnessError("the in-process daemon is not running") }
        let (decodedPath, query) = InProcessClient.split(target: path)
        let request = ControlRequest(
            method: method, path: decodedPath, query: query, body: json.map { Array($0.utf8) } ?? [])
        let r = await InProcessClient.response(await d.handle(request))
        ResponseChecker.record(
            method: method, target: path, status: r.status, contentType: r.contentType, body: r.body,
            fileID: fileID, filePath: filePath, line: line)
        return r
    }

    /// Sends a file as the body (an import) with its media type; checked like `send`.
    public func upload(
        _ method: String, _ path: String, body: [UInt8], contentType: String?,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) async throws -> Response {
        guard let d = daemon.withLock({ $0 }) else { throw HarnessError("the in-process daemon is not running") }
        let (decodedPath, query) = InProcessClient.split(target: path)
        let request = ControlRequest(
            method: method, path: decodedPath, query: query, body: body,
            contentType: ControlRequest.mediaType(contentType))
        let r = await InProcessClient.response(await d.handle(request))
        ResponseChecker.record(
            method: method, target: path, status: r.status, contentType: r.contentType, body: r.body,
            fileID: fileID, filePath: filePath, line: line)
        return r
    }

    /// Sends and decodes a 2xx JSON response, failing with the body otherwise.
    public func call<T: Decodable>(
        _ type: T.Type, _ method: String, _ path: String, json: String? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) async throws -> T {
        let r = try await send(method, path, json: json, fileID: fileID, filePath: filePath, line: line)
        guard (200..<300).contains(r.status) else { throw HarnessError("\(method) \(path) → \(r.status): \(r.text)") }
        return try JSONDecoder().decode(T.self, from: Data(r.body))
    }

    /// `places init` as `DaemonProcess.initialize` does it.
    public func initialize(name: String = "Ana", username: String = "ana", passphrase: String? = "correct horse")
        async throws
    {
        let body: String
        if let passphrase {
            body = #"{"name":"\#(name)","username":"\#(username)","passphrase":"\#(passphrase)"}"#
        } else {
            body = #"{"name":"\#(name)","username":"\#(username)","noPassphrase":true}"#
        }
        let r = try await send("POST", "/v1/init", json: body)
        guard r.status == 201 else { throw HarnessError("init failed: \(r.status) \(r.text)") }
    }

    /// The bytes `ControlServer` writes for a router answer (its `write`).
    static func response(_ answer: PlacesControl.ControlResponse) async -> Response {
        switch answer {
        case .json(let status, let body):
            return Response(
                status: status, contentType: status == 204 ? "" : "application/json", body: body)
        case .jsonParts(let status, _):
            return Response(status: status, contentType: "application/json", body: answer.jsonBody?.body ?? [])
        case .raw(let status, let type, let body):
            return Response(status: status, contentType: type, body: body)
        case .problem(let problem):
            let body = (try? ControlJSON.encoder.encode(problem)).map(Array.init) ?? []
            return Response(status: problem.status, contentType: "application/problem+json", body: body)
        case .stream(let stream):
            var first = [UInt8]()
            for await chunk in stream {
                first = chunk
                break
            }
            return Response(status: 200, contentType: "application/x-ndjson", body: first)
        }
    }

    /// Path and query as `ControlServer` splits a request target: the path percent-decoded,
    /// `+` a space in the query, the last occurrence of a name wins.
    static func split(target: String) -> (String, [String: String]) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        var query = [String: String]()
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let decode = { (s: Substring) in
                    String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s)
                }
                query[decode(kv[0])] = kv.count > 1 ? decode(kv[1]) : ""
            }
        }
        return (path, query)
    }
}
