import Foundation
import PlacesControl
import PlacesControlClient
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Answers every request with the same large JSON body.
private struct LargeBodyHandler: ControlHandler {
    let body: [UInt8]
    func handle(_ request: ControlRequest) async -> ControlResponse { .json(status: 200, body: body) }
}

@Suite("Control server")
struct ControlServerTests {
    /// A response larger than the socket buffer, on a connection the client asked to close
    /// (`Connection: close`, as `ControlClient` does): the server used to close the channel
    /// as soon as the response was handed to NIO, dropping the bytes still waiting for the
    /// client to read them ("the daemon closed the connection mid-response").
    @Test("a large response on a closing connection arrives whole")
    func largeResponseArrivesWhole() async throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/control.sock"
        let body = Array(("[" + String(repeating: "\"0123456789abcdef\",", count: 200_000) + "0]").utf8)
        let server = ControlServer(socketPath: path, handler: LargeBodyHandler(body: body), log: { _ in })
        let ready = Mutex(false)
        let serving = Task { try await server.run(onReady: { ready.withLock { $0 = true } }) }
        defer { serving.cancel() }
        while !ready.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }

        let client = ControlClient(socketPath: path)
        for round in 0..<5 {
            // The blocking client runs on its own thread, away from the server's tasks.
            let result = await Self.onThread { try client.send("GET", "/v1/large") }
            let response = try result.get()
            #expect(response.status == 200, "round \(round)")
            #expect(response.body.count == body.count, "round \(round)")
        }
    }

    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async -> Result<T, any Error> {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Result { try body() }) }.start()
        }
    }

    static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/places-control-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return String(cString: made)
    }
}
