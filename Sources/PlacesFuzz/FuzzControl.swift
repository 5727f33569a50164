import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import PlacesAPI
import PlacesModel

@testable import PlacesControl
@testable import PlacesDaemon

/// `control`: bytes a local client writes to the control socket, through the same NIO
/// HTTP/1 server pipeline `ControlServer` configures (`configureHTTPServerPipeline(
/// withErrorHandling: true)`), then, per request, what `ControlServer` does before routing
/// (body limit, Origin/Referer refusal, URI length, path and query splitting) and the JSON
/// decoding of every request-body type the router reads (`ControlRequest.decode`).
///
/// Input: byte 0 is the chunk size the bytes arrive in (0: all at once); the rest is the
/// stream (several pipelined requests may follow each other).
///
/// Checked besides "no crash": `FastJSONWriter.string` writes exactly what
/// `ControlJSON.encoder` writes for the same string (its documented promise), and the
/// daemon's `FlatJSONObject.parse` returns either nil or what `JSONDecoder` reads.
enum FuzzControl {
    /// Small, so that inputs reach the limit.
    static let maxBodyBytes = 4096

    static func run(_ input: [UInt8]) {
        var reader = FuzzReader(input)
        let chunk = Int(reader.byte() ?? 0)
        let stream = reader.rest()
        let channel = EmbeddedChannel()
        do {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
        } catch {
            fatalError("could not configure the HTTP pipeline: \(error)")
        }
        var head: HTTPRequestHead?
        var body: [UInt8] = []
        var tooLarge = false
        var start = 0
        var failed = false
        while start < stream.count, !failed {
            let end = chunk == 0 ? stream.count : min(stream.count, start + chunk)
            do {
                try channel.writeInbound(ByteBuffer(bytes: stream[start..<end]))
            } catch {
                failed = true
            }
            start = end
            while let part = try? channel.readInbound(as: HTTPServerRequestPart.self) {
                switch part {
                case .head(let h):
                    head = h
                    body = []
                    tooLarge = false
                case .body(var buffer):
                    if body.count + buffer.readableBytes > maxBodyBytes {
                        tooLarge = true
                    } else if let bytes = buffer.readBytes(length: buffer.readableBytes) {
                        body += bytes
                    }
                case .end:
                    guard let h = head else { continue }
                    if !tooLarge { handle(h, body: body) }
                    head = nil
                    // Answer, so that the pipelining handler lets the next request through.
                    var headers = HTTPHeaders()
                    headers.add(name: "Content-Length", value: "0")
                    _ = try? channel.writeOutbound(
                        HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)))
                    _ = try? channel.writeOutbound(HTTPServerResponsePart.end(nil))
                }
            }
            while (try? channel.readOutbound(as: ByteBuffer.self)) ?? nil != nil {}
        }
        _ = try? channel.finish()
    }

    /// What `ControlServer.prepare` does with a request, then every body decoder of the router.
    static func handle(_ head: HTTPRequestHead, body: [UInt8]) {
        if head.headers.contains(name: "origin") || head.headers.contains(name: "referer") { return }
        guard head.uri.utf8.count <= ControlServer.maxURIBytes else { return }
        let (path, query) = ControlServer.split(uri: head.uri)
        let request = ControlRequest(method: head.method.rawValue, path: path, query: query, body: body)
        _ = request.segments
        _ = try? request.decode(InitRequest.self)
        _ = try? request.decode(LoginRequest.self)
        _ = try? request.decode(AddFavoriteRequest.self)
        _ = try? request.decode(MoveRequest.self)
        _ = try? request.decode(AddStopRequest.self)
        _ = try? request.decode(ShareRequest.self)
        _ = try? request.decode(LinkRequest.self)
        _ = try? request.decode(JoinRequest.self)
        _ = try? request.decode(AddPeerRequest.self)
        _ = try? request.decode(JSONValue.self)

        let text = String(decoding: body, as: UTF8.self)
        checkFastJSON(text)
        for value in query.values.prefix(4) { checkFastJSON(value) }
        if let flat = FlatJSONObject.parse(text) {
            let full = try? JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))
            precondition(full == flat, "FlatJSONObject.parse read \(flat), JSONDecoder \(String(describing: full))")
        }
    }

    /// The hand-written JSON string escaper is the op bodies' (`JSONValue.writeString`): what
    /// it writes must read back as the same string. (It spells U+0008 and U+000C `\u0008` and
    /// `\u000c` where `JSONEncoder` writes `\b` and `\f`: the same JSON value, other bytes;
    /// comparing bytes with `JSONEncoder` was this check until the two escapers became one.)
    static func checkFastJSON(_ text: String) {
        var writer = FastJSONWriter()
        writer.string(text)
        var opBody = [UInt8]()
        JSONValue.writeString(text, to: &opBody)
        precondition(writer.bytes == opBody, "FastJSONWriter and the op-body escaper disagree on \(writer.bytes)")
        let back = try? JSONDecoder().decode(String.self, from: Data(writer.bytes))
        precondition(
            back == text, "FastJSONWriter wrote \(writer.bytes), which reads back as \(String(describing: back))")
    }
}
