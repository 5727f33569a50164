import Foundation
import NIOCore
import PlacesAPI
import PlacesModel

/// A control-API request as handed to the daemon's router.
public struct ControlRequest: Sendable {
    /// HTTP method, uppercase.
    public var method: String
    /// The path without the query, percent-decoded segments joined by `/`.
    public var path: String
    /// Query parameters (last one wins).
    public var query: [String: String]
    /// The request body.
    public var body: [UInt8]
    /// The body's media type (`Content-Type` without parameters, lowercased), if given.
    public var contentType: String?
    /// Whether the client sent `Prefer: return=minimal` (RFC 7240 §4.2): a write it makes
    /// is answered 204 with no body instead of the representation (`minimal(_:)`).
    public var prefersMinimal: Bool

    public init(
        method: String, path: String, query: [String: String] = [:], body: [UInt8] = [], contentType: String? = nil,
        prefersMinimal: Bool = false
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.contentType = contentType
        self.prefersMinimal = prefersMinimal
    }

    /// Whether the values of the `Prefer` headers ask for `return=minimal`: the preferences
    /// are separated by commas, their parameters by semicolons; names are case-insensitive.
    public static func prefersMinimal(_ values: [String]) -> Bool {
        values.contains { value in
            value.split(separator: ",").contains { preference in
                let token = preference.split(separator: ";", maxSplits: 1).first ?? ""
                let parts = token.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces).lowercased()
                }
                return parts.count == 2 && parts[0] == "return" && parts[1].trimmingCharacters(in: ["\""]) == "minimal"
            }
        }
    }

    /// The media type of a `Content-Type` header value: before any `;`, trimmed, lowercased.
    public static func mediaType(_ header: String?) -> String? {
        guard let header, let type = header.split(separator: ";").first else { return nil }
        let trimmed = type.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Path segments after the leading slash.
    public var segments: [Substring] { path.split(separator: "/", omittingEmptySubsequences: true) }

    /// Decodes the JSON body, turning any failure into a 400 that names the problem.
    public func decode<T: Decodable>(_ type: T.Type) throws(Problem) -> T {
        guard !body.isEmpty else { throw Problem.malformed("the request needs a JSON body") }
        // Most routes take a JSON object as it is: read without `Codable` (anything it does
        // not read goes to JSONDecoder, whose errors are the ones reported).
        if T.self == [String: JSONValue].self, case .object(let object)? = JSONValue.parse(utf8: body),
            let object = object as? T
        {
            return object
        }
        if T.self == JSONValue.self, let value = JSONValue.parse(utf8: body) as? T { return value }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch let DecodingError.keyNotFound(key, _) {
            throw Problem.invalid(key.stringValue, "the field '\(key.stringValue)' is required")
        } catch let DecodingError.typeMismatch(_, context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw Problem.invalid(field, "the field '\(field)' has the wrong type: \(context.debugDescription)")
        } catch let DecodingError.valueNotFound(_, context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw Problem.invalid(field, "the field '\(field)' must not be null")
        } catch let DecodingError.dataCorrupted(context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            if field.isEmpty { throw Problem.malformed("the body is not valid JSON") }
            throw Problem.invalid(field, "the field '\(field)' is invalid: \(context.debugDescription)")
        } catch {
            throw Problem.malformed("the body is not valid JSON")
        }
    }
}

/// What the router answers.
public enum ControlResponse: Sendable {
    /// A JSON body with a status.
    case json(status: Int, body: [UInt8])
    /// A JSON body in parts, written one after the other: a large part kept between answers
    /// (an itinerary's places to go) goes to the socket as it is, not copied into one body.
    case jsonParts(status: Int, body: [ByteBuffer])
    /// A body of another media type (GPX, SVG, GeoJSON).
    case raw(status: Int, contentType: String, body: [UInt8])
    /// An error.
    case problem(Problem)
    /// A newline-delimited JSON stream (chunked), ended when the stream finishes or the
    /// client goes away.
    case stream(AsyncStream<[UInt8]>)

    /// The answer to `request` when it asked for `Prefer: return=minimal`: a write's 200
    /// with a body becomes a 204 with none (what changed is done; the client did not want it
    /// read back). Anything else is answered as it is: a 201 keeps its body (the created
    /// resource's id), a read ignores the preference. `applied` says whether it was honoured
    /// (the server then adds `Preference-Applied: return=minimal`).
    public func minimal(for request: ControlRequest) -> (response: ControlResponse, applied: Bool) {
        guard request.prefersMinimal, ["POST", "PUT", "PATCH", "DELETE"].contains(request.method) else {
            return (self, false)
        }
        switch self {
        case .json(200, _), .jsonParts(200, _): return (.json(status: 204, body: []), true)
        default: return (self, false)
        }
    }

    /// The status and whole body of a JSON answer (its parts joined), nil for any other.
    public var jsonBody: (status: Int, body: [UInt8])? {
        switch self {
        case .json(let status, let body): (status, body)
        case .jsonParts(let status, let parts):
            (status, parts.flatMap { $0.getBytes(at: $0.readerIndex, length: $0.readableBytes) ?? [] })
        default: nil
        }
    }

    /// Encodes `value` as the JSON body of a response.
    /// An itinerary, written by hand (`Itinerary.jsonBytes`): the same bytes, much faster for
    /// itineraries with many places to go.
    public static func encoding(_ value: Itinerary, status: Int = 200) -> ControlResponse {
        .json(status: status, body: value.jsonBytes())
    }

    public static func encoding<T: Encodable>(_ value: T, status: Int = 200) -> ControlResponse {
        do {
            return .json(status: status, body: Array(try ControlJSON.encoder.encode(value)))
        } catch {
            return .problem(
                Problem(status: 500, code: "internal", title: "Internal error", detail: "could not encode the response")
            )
        }
    }
}

/// The router the server calls for each request.
public protocol ControlHandler: Sendable {
    /// Answers one request. Must not throw: every failure is a `Problem`.
    func handle(_ request: ControlRequest) async -> ControlResponse
    /// An answer kept from an earlier request that is still the one `handle` would give,
    /// returned at once on the connection's event loop (no task, no hop to the engine); nil
    /// to go through `handle`. Must be quick and must not block.
    func keptAnswer(_ request: ControlRequest) -> ControlResponse?
}

extension ControlHandler {
    public func keptAnswer(_ request: ControlRequest) -> ControlResponse? { nil }
}
