import ArgumentParser
import Foundation
import PlacesAPI
import PlacesControlClient
import PlacesModel

/// The `places` side of the control API: typed requests over ``ControlClient`` that turn
/// every failure into the CLI's exit codes (see ``CLIExit``).
///
/// Each call either returns a 2xx response or throws an `ExitCode` after printing what went
/// wrong to standard error, so commands only deal with the happy path.
struct APIClient {
    /// The underlying one-request-per-connection socket client.
    let control: ControlClient

    init(socketPath: String) {
        self.control = ControlClient(socketPath: socketPath)
    }

    /// A successful answer: the raw response, kept for `--json`.
    struct Reply {
        var response: ControlClient.Response

        /// The body exactly as the daemon sent it.
        var text: String { response.text }

        /// Decodes the body as `type`; a body that does not decode is reported as a daemon fault.
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            do {
                return try JSONDecoder().decode(T.self, from: Data(response.body))
            } catch {
                throw CLIExit.fail(
                    "the daemon's answer is not the \(T.self) this CLI expects (\(error)); are `places` and `placesd` the same version?",
                    CLIExit.refused)
            }
        }
    }

    func get(_ target: String) throws -> Reply { try send("GET", target, body: nil) }

    func post(_ target: String, _ body: (any Encodable)? = nil) throws -> Reply {
        try send("POST", target, body: body)
    }

    func patch(_ target: String, _ body: any Encodable) throws -> Reply { try send("PATCH", target, body: body) }

    func delete(_ target: String) throws -> Reply { try send("DELETE", target, body: nil) }

    /// Sends one request; 2xx comes back, anything else exits with the mapped code.
    func send(_ method: String, _ target: String, body: (any Encodable)?) throws -> Reply {
        var bytes: [UInt8]?
        if let body {
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                bytes = Array(try encoder.encode(body))
            } catch {
                throw CLIExit.fail("cannot encode the request: \(error)", CLIExit.usage)
            }
        }
        return try send(method, target, bytes: bytes)
    }

    /// Sends one request with a body of raw bytes (`contentType`, JSON when nil); 2xx comes
    /// back, anything else exits with the mapped code.
    func send(_ method: String, _ target: String, bytes: [UInt8]?, contentType: String? = nil) throws -> Reply {
        let response: ControlClient.Response
        do {
            response = try control.send(
                method, target, body: bytes, headers: contentType.map { ["Content-Type": $0] } ?? [:])
        } catch {
            throw Self.exit(for: error)
        }
        guard (200..<300).contains(response.status) else {
            throw Self.exit(status: response.status, body: response.body)
        }
        return Reply(response: response)
    }

    /// Streams `target` line by line (for `GET /v1/events`); `onLine` returns false to stop.
    func stream(_ target: String, onLine: ([UInt8]) -> Bool) throws {
        var problemBody: [UInt8]?
        let status: Int
        do {
            status = try control.streamLines(target) { line in
                // A non-200 answer arrives as one final "line" holding the problem body.
                if (try? JSONDecoder().decode(Problem.self, from: Data(line))) != nil {
                    problemBody = line
                    return false
                }
                return onLine(line)
            }
        } catch {
            throw Self.exit(for: error)
        }
        if status != 200 { throw Self.exit(status: status, body: problemBody ?? []) }
    }

    /// Exit code and message for a socket-level failure.
    static func exit(for error: ControlClientError) -> ExitCode {
        switch error.code {
        case .noDaemon: CLIExit.fail(error.message, CLIExit.noDaemon)
        case .pathTooLong: CLIExit.fail(error.message, CLIExit.usage)
        case .io: CLIExit.fail("\(error.message): is `placesd` listening on this socket?", CLIExit.noDaemon)
        }
    }

    /// Exit code and message for an error answer (normally `application/problem+json`).
    static func exit(status: Int, body: [UInt8]) -> ExitCode {
        guard let problem = try? JSONDecoder().decode(Problem.self, from: Data(body)) else {
            let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return CLIExit.fail("the daemon answered HTTP \(status)\(text.isEmpty ? "" : ": \(text)")", CLIExit.refused)
        }
        switch problem.code {
        case "logged-out", "not-initialized":
            return CLIExit.fail(problem.detail, CLIExit.loggedOut)
        default:
            return CLIExit.fail(problem.detail, CLIExit.refused)
        }
    }
}

/// Builds request targets with percent-encoded path segments and query values.
enum Target {
    private static let segmentAllowed: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove(charactersIn: "/?#")
        return set
    }()

    private static let queryAllowed: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.remove(charactersIn: "&=+#")
        return set
    }()

    /// `/v1/` followed by the given segments, each percent-encoded (ids come from users).
    static func v1(_ segments: String..., query: [(String, String?)] = []) -> String {
        var target = "/v1"
        for segment in segments {
            target += "/" + (segment.addingPercentEncoding(withAllowedCharacters: segmentAllowed) ?? segment)
        }
        let items = query.compactMap { name, value in
            value.map { "\(name)=\($0.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? $0)" }
        }
        if !items.isEmpty { target += "?" + items.joined(separator: "&") }
        return target
    }
}

/// A JSON request body built field by field, for the POST/PATCH routes whose bodies are
/// "any subset of these fields" (absent = unchanged, `null` = cleared).
struct JSONBody: Encodable {
    var fields: [String: JSONValue] = [:]

    subscript(key: String) -> JSONValue? {
        get { fields[key] }
        set { fields[key] = newValue }
    }

    func encode(to encoder: any Encoder) throws {
        try JSONValue.object(fields).encode(to: encoder)
    }
}

/// What `--json` prints: the body verbatim (one trailing newline).
func printRaw(_ reply: APIClient.Reply) {
    let text = reply.text
    if text.isEmpty { return }
    print(text.hasSuffix("\n") ? String(text.dropLast()) : text)
}

/// Writes a file body (`--output`) or prints it; a write failure exits 1.
func emit(_ content: [UInt8], output: String?) throws {
    if let output {
        do {
            try Data(content).write(to: URL(fileURLWithPath: output))
        } catch {
            throw CLIExit.fail("cannot write \(output): \(error.localizedDescription)", CLIExit.refused)
        }
        return print("wrote \(output) (\(content.count) bytes)")
    }
    // Byte for byte (a calendar's CRLF lines stay CRLF), ending with a newline.
    var bytes = content
    if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
    FileHandle.standardOutput.write(Data(bytes))
}
