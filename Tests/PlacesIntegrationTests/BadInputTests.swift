import Foundation
import PlacesAPI
import PlacesTestSupport
import Testing

/// What the control server refuses before routing, on a real socket: each gets a 4xx that
/// names it, changes nothing, and leaves the daemon serving. The router's refusals run
/// in-process (Tests/PlacesDaemonTests/API/BadInputTests.swift).
@Suite("Bad input", .serialized)
struct BadInputTests {
    @Test("an oversized body is refused with 413 and the daemon keeps serving")
    func oversizedBody() throws {
        let t = try LoggedInDaemon()
        let huge = #"{"name":""# + String(repeating: "x", count: 2 << 20) + #"","latitude":0,"longitude":0}"#
        let r = try t.d.send("POST", "/v1/places", json: huge)
        #expect(r.status == 413)
        #expect(r.text.contains("body-too-large"))
        #expect(try t.d.call(PlaceList.self, "GET", "/v1/places").count == 0)
        #expect(try t.d.send("GET", "/v1/status").status == 200)
    }

    @Test("garbage on the socket ends only that connection")
    func garbageConnection() throws {
        let t = try LoggedInDaemon()
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in t.d.socketPath.utf8.enumerated() { raw[i] = b }
        }
        _ = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        let junk: [UInt8] = Array(repeating: 0xFF, count: 4096) + Array("\r\n\r\n".utf8)
        _ = junk.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buf = [UInt8](repeating: 0, count: 512)
        _ = recv(fd, &buf, buf.count, 0)
        close(fd)
        #expect(try t.d.send("GET", "/v1/status").status == 200)
    }

    @Test("a browser-originated request is refused with 403")
    func browserRefused() throws {
        let t = try LoggedInDaemon()
        for header in ["Origin", "Referer"] {
            let r = try t.d.send(
                "POST", "/v1/places", json: #"{"name":"x","latitude":0,"longitude":0}"#,
                headers: [header: "http://evil.example"])
            #expect(r.status == 403)
        }
        #expect(try t.d.call(PlaceList.self, "GET", "/v1/places").count == 0)
    }
}

#if canImport(Glibc)
    import Glibc
#endif
