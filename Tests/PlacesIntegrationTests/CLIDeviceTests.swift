import Foundation
import PlacesAPI
import PlacesModel
import PlacesTestSupport
import Testing

/// `places device …` and `places whoami` of the real `places` binary against a scripted
/// daemon (issue 29): what they send (checked against the spec's request schemas), what a
/// user reads, and that every scripted answer conforms to Protocol/control-api.yaml.
@Suite("places CLI: devices", .serialized)
struct CLIDeviceTests {
    static let person = "AOQQPP7-TZYIL44-HLQ3UMO-OS6ATFL-T6JVRQT-OSQ2XYH-53SDGIE-SVGG4AV"
    static let phone = "CJ6W3LB-FNVKEBE-4T6ZUMR-OBXHNIA-2QTSCXN-NHP3TXS-XMU7XEY-IMVXJ4R"
    static let code =
        "PLD1AFH5BGOM2R6XRE675HWCIQKOZMGZWVBAEMVK2MGZDRDFXYZ4XZS4IEARCIJRIFIWC4MBSGQ3DQOR4HYAAAAZ25TQ27AAA3TDHB3Q"
    static let pairingID = "7c1e0b5a9d3f4e2a8b6c0d1e2f3a4b5c"
    static let created = PairingCreated(
        id: pairingID, code: code, expiresAt: "2099-04-10T08:10:00.000Z", qr: "██  ██\n  ██\n")

    static func pairing(_ state: String, id: String = pairingID, name: String = "Ana's phone") -> PairingInfo {
        PairingInfo(
            id: id, state: state, deviceName: state == "waiting" ? nil : name,
            checkCode: state == "waiting" ? nil : "042917", expiresAt: "2099-04-10T08:10:00.000Z", admin: false)
    }

    static let devices = DeviceList(
        devices: [
            DeviceInfo(
                id: person, name: "Ana's laptop", current: true, admin: true, addedAt: "2026-04-10T08:00:00.000Z",
                lastSeen: "2026-04-12T18:30:00.000Z", revokedAt: nil),
            DeviceInfo(
                id: phone, name: "Ana's phone", current: false, admin: false, addedAt: "2026-04-11T09:12:00.000Z",
                lastSeen: nil, revokedAt: nil),
        ],
        warning: "Only this device may manage your devices.")

    static func status(_ device: DeviceStatus?, initialized: Bool = true) -> PlacesAPI.Status {
        var status = PlacesAPI.Status(
            id: initialized ? person : nil, version: "0.1.0", initialized: initialized, loggedIn: initialized,
            passphraseProtected: initialized ? false : nil, name: initialized ? "Ana" : nil,
            username: initialized ? "ana" : nil, dataDir: "/tmp/x", socket: "/tmp/x/placesd.sock", pid: 1,
            opCount: nil)
        status.device = device
        return status
    }

    static func json<T: Encodable>(_ value: T, status: Int = 200) throws -> ScriptedDaemon.Answer {
        ScriptedDaemon.Answer(
            status: status, contentType: "application/json", body: Array(try ControlJSON.encoder.encode(value)))
    }

    static func problem(_ status: Int, _ code: String, _ detail: String, field: String? = nil) throws
        -> ScriptedDaemon.Answer
    {
        let problem = Problem(status: status, code: code, title: "Refused", detail: detail, field: field)
        return ScriptedDaemon.Answer(
            status: status, contentType: "application/problem+json",
            body: Array(try ControlJSON.encoder.encode(problem)))
    }

    /// Runs `places` against a daemon answering `script`; every answer and every JSON
    /// request body is checked against Protocol/control-api.yaml.
    func run(
        _ arguments: [String], _ script: [String: ScriptedDaemon.Answer] = [:], input: String? = nil
    ) throws -> (result: CommandResult, requests: [ScriptedDaemon.Request]) {
        let checker = try #require(ResponseChecker.controlAPI)
        let document = try OpenAPIDocument.controlAPI.get()
        for (key, answer) in script {
            let parts = key.split(separator: " ", maxSplits: 1).map(String.init)
            let problems = checker.problems(
                method: parts[0], target: parts[1], status: answer.status, contentType: answer.contentType,
                body: answer.body)
            #expect(problems.isEmpty, "\(key): \(problems)")
        }
        let dir = TempDir()
        defer { dir.remove() }
        let daemon = try ScriptedDaemon(socketPath: dir.path + ".sock", script: script)
        defer { daemon.stop() }
        let result = try runCommand(Binaries.places, ["--socket", daemon.socketPath] + arguments, input: input)
        for request in daemon.requests where request.contentType == "application/json" && !request.body.isEmpty {
            let path = String(request.target.split(separator: "?")[0])
            let op = try #require(document.operation(method: request.method, path: path), "\(path) not in the spec")
            let schema = op.object["requestBody"]?.members["content"]?.members["application/json"]?.members["schema"]
            let body = try JSONDecoder().decode(JSONValue.self, from: Data(request.body))
            let violations = SchemaValidator(document: document).validate(body, against: try #require(schema))
            #expect(violations.isEmpty, "\(request.method) \(path) body \(request.text): \(violations)")
        }
        return (result, daemon.requests)
    }

    func body(_ request: ScriptedDaemon.Request?) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(try #require(request).body))
    }

    @Test("device add --admin --no-wait prints the code, its QR and what to run on the new device")
    func addNoWait() throws {
        let (added, requests) = try run(
            ["device", "add", "--admin", "--no-wait"],
            ["POST /v1/devices/pairings": try Self.json(Self.created, status: 201)])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(
            added.stdout == """
                \(Self.code)
                ██  ██
                  ██
                On the new device run: places device join \(Self.code) --name NAME

                """)
        #expect(added.stderr.contains("pairing code for a new admin device"), "\(added.stderr)")
        #expect(requests.count == 1)
        #expect(try body(requests.first).members["admin"] == .bool(true))
    }

    @Test("device add waits for the device, shows its check code and confirms with --check-code")
    func addAndConfirm() throws {
        let script = [
            "POST /v1/devices/pairings": try Self.json(Self.created, status: 201),
            "GET /v1/devices/pairings": try Self.json(PairingList(pairings: [Self.pairing("confirm")])),
            "POST /v1/devices/pairings/\(Self.pairingID)/confirm": try Self.json(Self.pairing("done")),
        ]
        let (added, requests) = try run(["device", "add", "--check-code", "042 917"], script)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(
            added.stdout.contains("Device “Ana's phone” wants to join. Its check code: 042 917\n"), "\(added.stdout)")
        #expect(added.stdout.hasSuffix("added “Ana's phone”: your profile, places and trips follow it as it syncs\n"))
        let confirm = requests.last
        #expect(confirm?.target == "/v1/devices/pairings/\(Self.pairingID)/confirm")
        #expect(try body(confirm) == .object(["checkCode": .string("042917")]))

        // No terminal and no --check-code: it says how to confirm later and exits 0.
        let (later, sent) = try run(["device", "add"], script)
        #expect(later.status == 0, "\(later.stderr)")
        #expect(
            later.stdout.contains("not confirmed yet: confirm it later with `places device confirm \(Self.pairingID)"))
        #expect(!sent.contains { $0.target.hasSuffix("/confirm") })

        // A pairing that ends while waiting.
        let expired = [
            "POST /v1/devices/pairings": try Self.json(Self.created, status: 201),
            "GET /v1/devices/pairings": try Self.json(PairingList(pairings: [Self.pairing("expired")])),
        ]
        let gone = try run(["device", "add"], expired).result
        #expect(gone.status == 1 && gone.stderr.contains("expired"), "\(gone.stderr)")

        let bad = try run(["device", "add", "--check-code", "12345"]).result
        #expect(bad.status == 2 && bad.stderr.contains("not 6 digits"), "\(bad.stderr)")
    }

    @Test("device join sends the code and name, shows the check code and waits until paired or refused")
    func join() throws {
        let paired = DeviceStatus(state: "paired", id: Self.phone, name: "Ana's phone")
        let script = [
            "POST /v1/devices/join": try Self.json(DeviceJoinAccepted(checkCode: "042917"), status: 202),
            "GET /v1/status": try Self.json(Self.status(paired)),
        ]
        let (joined, requests) = try run(
            ["device", "join", Self.code, "--name", "Ana's phone", "--no-passphrase"], script)
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(
            joined.stdout == """
                Check code: 042 917 — confirm it on the device that made the code
                Paired: this device is now Ana's (id \(Self.person))
                device: Ana's phone (\(Self.phone))

                """)
        #expect(
            try body(requests.first)
                == .object([
                    "code": .string(Self.code), "name": .string("Ana's phone"), "noPassphrase": .bool(true),
                    "waitSeconds": .int(30),
                ]))

        let withPassphrase = try run(
            ["device", "join", Self.code, "--name", "Pi", "--passphrase-stdin", "--wait", "5"], script,
            input: "correct horse\n"
        ).requests
        #expect(try body(withPassphrase.first).members["passphrase"] == .string("correct horse"))
        #expect(try body(withPassphrase.first).members["waitSeconds"] == .int(5))

        let refused = DeviceStatus(state: "refused", id: nil, name: "Pi", reason: "wrong-check-code")
        let no = try run(
            ["device", "join", Self.code, "--name", "Pi", "--no-passphrase"],
            [
                "POST /v1/devices/join": try Self.json(DeviceJoinAccepted(checkCode: "042917"), status: 202),
                "GET /v1/status": try Self.json(Self.status(refused, initialized: false)),
            ]
        ).result
        #expect(no.status == 1 && no.stderr.contains("refused: wrong-check-code"), "\(no.stderr)")

        let unreachable = try run(
            ["device", "join", Self.code, "--name", "Pi", "--no-passphrase"],
            [
                "POST /v1/devices/join": try Self.problem(
                    504, "no-device-reachable", "The device that made the code was not reached within 30 s.")
            ]
        ).result
        #expect(unreachable.status == 1 && unreachable.stderr.contains("not reached"), "\(unreachable.stderr)")

        let noTerminal = try run(["device", "join", Self.code, "--name", "Pi"])
        #expect(noTerminal.result.status == 2 && noTerminal.requests.isEmpty, "\(noTerminal.result.stderr)")
        let both = try run(["device", "join", Self.code, "--name", "Pi", "--no-passphrase", "--passphrase-stdin"])
        #expect(both.result.status == 2 && both.requests.isEmpty)
    }

    @Test("device confirm takes the only waiting pairing, or names it; a wrong check code says the pairing is over")
    func confirm() throws {
        let target = "POST /v1/devices/pairings/\(Self.pairingID)/confirm"
        let pairings = try Self.json(
            PairingList(pairings: [Self.pairing("done", id: "0000aaaa"), Self.pairing("confirm")]))
        let one = ["GET /v1/devices/pairings": pairings, target: try Self.json(Self.pairing("done"))]
        let (confirmed, requests) = try run(["device", "confirm", "123456"], one)
        #expect(confirmed.status == 0, "\(confirmed.stderr)")
        #expect(confirmed.stdout.hasPrefix("added “Ana's phone”"), "\(confirmed.stdout)")
        #expect(try body(requests.last) == .object(["checkCode": .string("123456")]))

        let admin = try run(["device", "confirm", "7c1e", "123-456", "--admin"], one).requests
        #expect(try body(admin.last) == .object(["checkCode": .string("123456"), "admin": .bool(true)]))

        let none = try run(
            ["device", "confirm", "123456"], ["GET /v1/devices/pairings": try Self.json(PairingList(pairings: []))]
        ).result
        #expect(none.status == 1 && none.stderr.contains("no device waits for confirmation"), "\(none.stderr)")

        let two = try run(
            ["device", "confirm", "123456"],
            [
                "GET /v1/devices/pairings": try Self.json(
                    PairingList(pairings: [
                        Self.pairing("confirm"), Self.pairing("confirm", id: "1234abcd", name: "Pi"),
                    ]))
            ]
        ).result
        #expect(two.status == 2 && two.stderr.contains("places device confirm 1234abcd CHECKCODE"), "\(two.stderr)")

        let wrong = try run(
            ["device", "confirm", "123456"],
            [
                "GET /v1/devices/pairings": pairings,
                target: try Self.problem(
                    400, "invalid-field", "The check code does not match: the pairing is cancelled.",
                    field: "checkCode"),
            ]
        ).result
        #expect(wrong.status == 1 && wrong.stderr.contains("make a new code with `places device add`"))

        let usage = try run(["device", "confirm", "12345"])
        #expect(usage.result.status == 2 && usage.requests.isEmpty)
    }

    @Test("device list shows a table (this device marked, the warning); --json prints the API's body")
    func list() throws {
        let script = ["GET /v1/devices": try Self.json(Self.devices)]
        let listed = try run(["device", "list"], script).result
        #expect(listed.status == 0, "\(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "NAME                        ID        ADMIN  ADDED             LAST SEEN  REVOKED")
        #expect(lines[1].hasPrefix("Ana's laptop (this device)  AOQQPP7…  yes    "), "\(listed.stdout)")
        #expect(lines[1].hasSuffix("  now        —"))
        #expect(
            lines[2].hasPrefix("Ana's phone                 CJ6W3LB…  no     ") && lines[2].hasSuffix("  never      —"))
        #expect(listed.stdout.hasSuffix("\nwarning: Only this device may manage your devices.\n"))

        let json = try run(["device", "list", "--json"], script).result
        #expect(json.status == 0)
        #expect(try JSONDecoder().decode(DeviceList.self, from: Data(json.stdout.utf8)) == Self.devices)
    }

    @Test("device revoke resolves the device, asks unless --yes, and deletes it by its full id")
    func revoke() throws {
        var after = Self.devices
        after.devices[1].revokedAt = "2026-04-13T10:00:00.000Z"
        let script = [
            "GET /v1/devices": try Self.json(Self.devices),
            "DELETE /v1/devices/\(Self.phone)": try Self.json(after),
        ]
        let (revoked, requests) = try run(["device", "revoke", "ana's PHONE", "--yes"], script)
        #expect(revoked.status == 0, "\(revoked.stderr)")
        #expect(revoked.stdout.hasPrefix("revoked “Ana's phone” (CJ6W3LB…): its later changes are refused"))
        #expect(requests.last?.method == "DELETE")

        let byPrefix = try run(["device", "revoke", "cj6w", "--yes"], script).requests
        #expect(byPrefix.last?.target == "/v1/devices/\(Self.phone)")

        let unasked = try run(["device", "revoke", "Ana's phone"], script)
        #expect(unasked.result.status == 2 && unasked.result.stderr.contains("--yes"))
        #expect(!unasked.requests.contains { $0.method == "DELETE" })

        let current = try run(
            ["device", "revoke", "Ana's laptop", "--yes"],
            [
                "GET /v1/devices": try Self.json(Self.devices),
                "DELETE /v1/devices/\(Self.person)": try Self.problem(
                    409, "current-device", "This is the device answering: revoke it from another device."),
            ]
        ).result
        #expect(current.status == 1 && current.stderr.contains("another device"))
    }

    @Test("whoami prints the person's id, and this device when the status names one")
    func whoami() throws {
        let profile = try Self.json(Profile(id: Self.person, name: "Ana", username: "ana"))
        let device = DeviceStatus(state: "paired", id: Self.phone, name: "Ana's phone")
        let shown = try run(
            ["whoami"], ["GET /v1/profile": profile, "GET /v1/status": try Self.json(Self.status(device))]
        ).result
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(
            shown.stdout == """
                id:       \(Self.person)
                name:     Ana
                username: ana
                device:   Ana's phone (\(Self.phone))

                """)
        let single = try run(
            ["whoami"], ["GET /v1/profile": profile, "GET /v1/status": try Self.json(Self.status(nil))])
        #expect(single.result.stdout == "id:       \(Self.person)\nname:     Ana\nusername: ana\n")
    }
}

extension JSONValue {
    fileprivate var members: [String: JSONValue] { if case .object(let o) = self { o } else { [:] } }
}
