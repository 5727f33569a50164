import Foundation
import PlacesAPI
import PlacesTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `placesd` binary on a temp data dir, driven over its real socket.
@Suite("placesd lifecycle", .serialized)
struct DaemonLifecycleTests {
    @Test("data survives a restart; a sealed identity starts logged out and needs its passphrase")
    func restartLogoutLogin() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let d = DaemonProcess(dataDir: dir.path)
        try d.start()
        try d.initialize(passphrase: "correct horse")
        let place = try d.call(
            Place.self, "POST", "/v1/places",
            json: #"{"name":"Café A Brasileira","latitude":38.7107,"longitude":-9.1422}"#)
        #expect(d.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: d.socketPath), "the socket is removed on SIGTERM")

        try d.start()
        let status = try d.call(Status.self, "GET", "/v1/status")
        #expect(status.initialized && !status.loggedIn)
        let refused = try d.send("GET", "/v1/places")
        #expect(refused.status == 401)
        #expect(refused.text.contains("logged-out"))

        let wrong = try d.send("POST", "/v1/login", json: #"{"passphrase":"wrong horse"}"#)
        #expect(wrong.status == 401)
        #expect(wrong.text.contains("wrong-passphrase"))
        #expect(try d.call(Status.self, "GET", "/v1/status").loggedIn == false)

        let ok = try d.call(Status.self, "POST", "/v1/login", json: #"{"passphrase":"correct horse"}"#)
        #expect(ok.loggedIn)
        let places = try d.call(PlaceList.self, "GET", "/v1/places")
        #expect(places.places.map(\.id) == [place.id])
        #expect(places.places.first?.name == "Café A Brasileira")

        _ = try d.call(Status.self, "POST", "/v1/logout")
        #expect(try d.send("GET", "/v1/favorites").status == 401)
        #expect(try d.send("POST", "/v1/places", json: #"{"name":"x","latitude":1,"longitude":1}"#).status == 401)
        _ = try d.call(Status.self, "POST", "/v1/login", json: #"{"passphrase":"correct horse"}"#)
        #expect(try d.call(PlaceList.self, "GET", "/v1/places").count == 1)
    }

    @Test("an unsealed (headless) identity logs in by itself at start")
    func headlessAutoLogin() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let d = DaemonProcess(dataDir: dir.path)
        try d.start()
        try d.initialize(passphrase: nil)
        d.stop()
        try d.start()
        #expect(try d.call(Status.self, "GET", "/v1/status").loggedIn)
    }

    @Test("data dir 0700, socket and key file 0600")
    func permissions() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let d = DaemonProcess(dataDir: dir.path + "/data")
        try d.start()
        try d.initialize()
        func mode(_ path: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1) & 0o777
        }
        #expect(try mode(d.dataDir) == 0o700)
        #expect(try mode(d.socketPath) == 0o600)
        #expect(try mode(d.dataDir + "/identity.key") == 0o600)
    }

    @Test("a second daemon on the same data dir refuses to start; a crash leaves nothing stale")
    func singleInstanceAndStaleSocket() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let d = DaemonProcess(dataDir: dir.path)
        try d.start()
        let second = try runCommand(Binaries.placesd, ["--data-dir", dir.path])
        #expect(second.status != 0)
        #expect(second.stderr.contains("already running"))
        #expect(try d.send("GET", "/v1/status").status == 200, "the first daemon keeps serving")

        d.kill()
        #expect(FileManager.default.fileExists(atPath: d.socketPath), "SIGKILL leaves the socket file behind")
        try d.start()
        #expect(try d.send("GET", "/v1/status").status == 200)
    }

    @Test("a data dir too deep for a Unix socket path gets a clear error")
    func socketPathTooLong() throws {
        let deep = "/tmp/" + String(repeating: "d", count: 110)
        let r = try runCommand(Binaries.placesd, ["--data-dir", deep])
        #expect(r.status != 0)
        #expect(r.stderr.contains("too deep"))
        #expect(!FileManager.default.fileExists(atPath: deep))
    }

    @Test(
        "a client running as another user is refused even when the socket is opened up",
        .enabled(
            if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
            "needs root, setpriv and /usr/bin/python3 to act as another user"))
    func otherUserRefused() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let d = DaemonProcess(dataDir: dir.path)
        try d.start()
        chmod(dir.path, 0o755)
        chmod(d.socketPath, 0o666)
        let script = """
            import socket,sys
            s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
            try:
                s.sendall(b"GET /v1/status HTTP/1.1\\r\\nHost: places\\r\\n\\r\\n")
                data=s.recv(4096)
            except OSError: data=b""
            print("ANSWER" if data else "CLOSED")
            """
        let r = try runCommand(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script, d.socketPath])
        #expect(r.stdout.contains("CLOSED"), "stdout: \(r.stdout) stderr: \(r.stderr)")
        #expect(try d.send("GET", "/v1/status").status == 200)
    }
}
