import ArgumentParser
import Foundation
import PlacesAPI
import PlacesControlClient
import PlacesQR

#if canImport(Glibc)
    import Glibc
#endif

/// What the device commands print and how they wait.
enum DeviceFormat {
    /// "123 456" for "123456"; anything else unchanged.
    static func checkCode(_ digits: String) -> String {
        guard digits.count == 6, digits.allSatisfy(\.isASCIIDigit) else { return digits.isEmpty ? "?" : digits }
        return "\(digits.prefix(3)) \(digits.suffix(3))"
    }

    /// The 6 digits of a typed check code ("123 456", "123-456"), or a usage error.
    static func checkCodeDigits(_ text: String, option: String) throws -> String {
        let digits = text.filter { $0 != " " && $0 != "-" }
        guard digits.count == 6, digits.allSatisfy(\.isASCIIDigit) else {
            throw ValidationError("\(option) '\(text)' is not 6 digits like 123456 or 123 456")
        }
        return digits
    }

    /// A device id as the list shows it: the first group of a human id, 8 digits of hex.
    static func shortID(_ id: String) -> String {
        if let dash = id.firstIndex(of: "-") { return String(id[..<dash]) + "…" }
        return id.count > 12 ? String(id.prefix(8)) + "…" : id
    }

    /// The pairing code's QR: the daemon's drawing, else one drawn here.
    static func printQR(_ pairing: PairingCreated) throws {
        if let qr = pairing.qr, !qr.isEmpty { return print(qr.hasSuffix("\n") ? String(qr.dropLast()) : qr) }
        do {
            print(try QRCode(encoding: pairing.code, correction: .low).terminalString())
        } catch {
            printError("(the code is too long for a QR code: \(error))")
        }
    }

    /// Polls the pairings until `pairing` has a device waiting for confirmation.
    static func waitForJoin(_ pairing: PairingCreated, api: APIClient) throws -> PairingInfo {
        let deadline = Format.parseTime(pairing.expiresAt) ?? Date().addingTimeInterval(600)
        while true {
            let pairings = try api.get(Target.v1("devices", "pairings")).decode(PairingList.self).pairings
            guard let info = pairings.first(where: { $0.id == pairing.id }) else {
                throw CLIExit.fail("the daemon no longer lists the pairing (was it restarted?)", CLIExit.refused)
            }
            switch info.state {
            case "confirm": return info
            case "done":
                throw CLIExit.fail("the pairing was already confirmed (`places device list`)", CLIExit.refused)
            case "expired":
                throw CLIExit.fail(
                    "the code expired before a device joined: run `places device add` again", CLIExit.refused)
            case "cancelled":
                throw CLIExit.fail("the pairing was cancelled: run `places device add` again", CLIExit.refused)
            default: break
            }
            guard Date() < deadline else {
                throw CLIExit.fail(
                    "the code expired before a device joined: run `places device add` again", CLIExit.refused)
            }
            Thread.sleep(forTimeInterval: DeviceGroup.pollInterval)
        }
    }

    /// Asks for the check code on the terminal (echoed) until it is 6 digits; nil for no answer.
    static func promptCheckCode(_ name: String) -> String? {
        for _ in 0..<3 {
            writeStandardError("Type the check code shown on “\(name)” (Enter to decide later): ")
            guard let line = readLine(strippingNewline: true), !line.trimmingCharacters(in: .whitespaces).isEmpty
            else { return nil }
            if let digits = try? checkCodeDigits(line, option: "the check code") { return digits }
            printError("that is not 6 digits")
        }
        return nil
    }

    /// `POST /v1/devices/pairings/{id}/confirm`; a wrong check code says that the pairing is over.
    static func confirm(_ id: String, _ body: PairingConfirmation, api: APIClient) throws -> APIClient.Reply {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes: [UInt8]
        do { bytes = Array(try encoder.encode(body)) } catch {
            throw CLIExit.fail("cannot encode the request: \(error)", CLIExit.usage)
        }
        let target = Target.v1("devices", "pairings", id, "confirm")
        let response: ControlClient.Response
        do {
            response = try api.control.send("POST", target, body: bytes, headers: [:])
        } catch {
            throw APIClient.exit(for: error)
        }
        guard (200..<300).contains(response.status) else {
            if let problem = try? JSONDecoder().decode(Problem.self, from: Data(response.body)),
                problem.code == "invalid-field", problem.field == "checkCode"
            {
                throw CLIExit.fail(
                    "\(problem.detail)\nthe pairing is cancelled: make a new code with `places device add`",
                    CLIExit.refused)
            }
            throw APIClient.exit(status: response.status, body: response.body)
        }
        return APIClient.Reply(response: response)
    }

    static func printConfirmed(_ info: PairingInfo) {
        let name = info.deviceName.map { "“\($0)”" } ?? "the device"
        print(
            "added \(name)\(info.admin ? " (may manage devices)" : ""): "
                + "your profile, places and trips follow it as it syncs")
    }

    static func printPaired(_ status: PlacesAPI.Status) {
        let owner = status.name ?? "your person"
        print("Paired: this device is now \(owner)'s (id \(status.id ?? "?"))")
        if let device = status.device {
            print("device: \(device.name ?? "?") (\(device.id ?? "?"))")
        }
    }

    /// The pairing `reference` names: its id or a unique start of it (any case).
    static func pairing(_ reference: String, in pairings: [PairingInfo]) throws -> PairingInfo {
        let wanted = reference.lowercased()
        if let exact = pairings.first(where: { $0.id.lowercased() == wanted }) { return exact }
        let matches = pairings.filter { $0.id.lowercased().hasPrefix(wanted) }
        guard wanted.count >= 4, let first = matches.first else {
            throw CLIExit.fail("no pairing \(reference) (`places device add` makes one)", CLIExit.refused)
        }
        guard matches.count == 1 else {
            throw CLIExit.fail(
                "\(reference) starts several pairings: \(matches.map(\.id).joined(separator: ", "))", CLIExit.usage)
        }
        return first
    }

    /// The device `reference` names (its id, a unique start of the id ignoring case and
    /// dashes, or its name ignoring case); nil to let the daemon decide. Several: exits 2.
    static func device(_ reference: String, in devices: [DeviceInfo]) throws -> DeviceInfo? {
        func key(_ text: String) -> String { text.lowercased().filter { $0 != "-" } }
        let wanted = key(reference)
        if let exact = devices.first(where: { key($0.id) == wanted }) { return exact }
        let named = devices.filter { $0.name.lowercased() == reference.lowercased() }
        if named.count == 1 { return named[0] }
        let prefixed = wanted.count >= 4 ? devices.filter { key($0.id).hasPrefix(wanted) } : []
        let candidates = named.isEmpty ? prefixed : named
        guard candidates.count <= 1 else {
            var lines = ["\(reference) matches several devices; give its full id:"]
            for device in candidates { lines.append("  \(device.name)  \(device.id)") }
            throw CLIExit.fail(lines.joined(separator: "\n"), CLIExit.usage)
        }
        return candidates.first
    }

    /// NAME, ID, ADMIN, ADDED, LAST SEEN, REVOKED; the current device marked.
    static func table(_ devices: [DeviceInfo]) -> String {
        var table = Table("NAME", "ID", "ADMIN", "ADDED", "LAST SEEN", "REVOKED")
        for device in devices {
            table.append(
                device.name + (device.current ? " (this device)" : ""), shortID(device.id),
                device.admin ? "yes" : "no", device.addedAt.map(Format.time) ?? "—",
                device.current ? "now" : device.lastSeen.map(Format.time) ?? "never",
                device.revokedAt.map(Format.time) ?? "—")
        }
        return table.render()
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
