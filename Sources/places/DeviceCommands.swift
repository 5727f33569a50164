import ArgumentParser
import Foundation
import PlacesAPI
import PlacesControlClient
import PlacesQR

#if canImport(Glibc)
    import Glibc
#endif

/// `places device …`: the devices you use Places on (issue 29, `Protocol/devices.md`).
struct DeviceGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Use Places on several devices: add, join, confirm, list and revoke them.",
        discussion: """
            All your devices are one person to your friends: the same id, profile, places and \
            trips. To add one, run `places device add` on a device that may manage devices \
            (your first one, or one added with --admin); it prints a code. On the new device \
            (a fresh placesd, before any `places init`) run `places device join CODE --name \
            NAME`. Both show a 6-digit check code: type the new device's on the first one to \
            confirm. A code works once, for 10 minutes.

            `places device revoke` cuts a lost device off: its later changes are refused and \
            the trips it could read move to new keys.
            """,
        subcommands: [List.self, Add.self, Join.self, Confirm.self, Revoke.self],
        defaultSubcommand: List.self,
        aliases: ["devices"])

    /// How often a waiting command asks the daemon again.
    static let pollInterval: TimeInterval = 0.5

    /// `places device add [--admin] [--no-wait] [--check-code DIGITS]`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a pairing code for a new device, then confirm the device when it joins.",
            discussion: """
                Prints the code (and a QR code of it) to carry to the new device, which runs \
                `places device join CODE --name NAME`. Then waits (until the code expires, 10 \
                minutes) for the device to join, shows its name and check code, and asks you \
                to type the check code the new device shows. --check-code confirms without \
                asking; without a terminal and without --check-code, it tells you how to \
                confirm later (`places device confirm`). --no-wait only prints the code.

                With --json: the pairing as made, then the pairing as confirmed, one JSON \
                document per line.
                """)

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Let the new device add and revoke devices too (it then holds your person key).")
        var admin = false

        @Flag(help: "Print the code and return; confirm later with `places device confirm`.")
        var noWait = false

        @Option(help: "The check code the new device shows (6 digits): confirm without asking.")
        var checkCode: String?

        func validate() throws {
            if let checkCode { _ = try DeviceFormat.checkCodeDigits(checkCode, option: "--check-code") }
            if noWait && checkCode != nil {
                throw ValidationError("--check-code confirms once the device joins: it needs waiting (drop --no-wait)")
            }
        }

        func run() throws {
            let api = global.api
            let reply = try api.post(Target.v1("devices", "pairings"), PairingRequest(admin: admin ? true : nil))
            let pairing = try reply.decode(PairingCreated.self)
            if global.json {
                printRaw(reply)
            } else {
                print(pairing.code)
                printError(
                    "pairing code for a new \(admin ? "admin " : "")device, valid until \(Format.time(pairing.expiresAt))"
                )
                try DeviceFormat.printQR(pairing)
                print("On the new device run: places device join \(pairing.code) --name NAME")
            }
            if noWait { return }
            fflush(nil)
            printError("waiting for the new device to join (Ctrl-C to stop; the code stays valid)…")
            let info = try DeviceFormat.waitForJoin(pairing, api: api)
            let name = info.deviceName ?? "a new device"
            let shown = DeviceFormat.checkCode(info.checkCode ?? "")
            let joined = "Device “\(name)” wants to join. Its check code: \(shown)"
            // With --json, standard output is only the API's documents.
            let json = global.json
            let say: (String) -> Void = { json ? printError($0) : print($0) }
            say(joined)
            let later =
                "confirm it later with `places device confirm \(info.id) CHECKCODE` (until \(Format.time(info.expiresAt)))"
            let digits: String
            if let checkCode {
                digits = try DeviceFormat.checkCodeDigits(checkCode, option: "--check-code")
            } else {
                guard Passphrase.canPrompt else { return say("not confirmed yet: \(later)") }
                guard let typed = DeviceFormat.promptCheckCode(name) else { return say("not confirmed: \(later)") }
                digits = typed
            }
            let confirmed = try DeviceFormat.confirm(
                info.id, PairingConfirmation(checkCode: digits, admin: nil), api: api)
            if global.json { return printRaw(confirmed) }
            DeviceFormat.printConfirmed(try confirmed.decode(PairingInfo.self))
        }
    }

    /// `places device join CODE --name NAME`.
    struct Join: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make this daemon a device of yours, with a code from `places device add`.",
            discussion: """
                Run it against a fresh placesd (no `places init`). The daemon connects to the \
                device that made the code (the addresses in the code, this network, static \
                peers) and shows a check code: type it on that device. Once confirmed, this \
                device is you: your profile, places and trips follow by sync.

                This device's key file is sealed with a passphrase: asked twice on a terminal, \
                read from the first line of standard input with --passphrase-stdin (or of \
                --passphrase-file), or not sealed with --no-passphrase (headless devices).
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The pairing code (PLD1…); spaces and dashes are ignored.")
        var code: String

        @Option(help: "This device's name, as your devices list it (\"Ana's phone\"; at most 64 characters).")
        var name: String

        @Flag(help: "Read the passphrase from the first line of standard input.")
        var passphraseStdin = false

        @Option(help: ArgumentHelp("Read the passphrase from the first line of this file.", valueName: "file"))
        var passphraseFile: String?

        @Flag(help: "Store this device's key unsealed (headless devices).")
        var noPassphrase = false

        @Option(help: ArgumentHelp("Seconds to look for the device that made the code (1-120).", valueName: "seconds"))
        var wait: Int = 30

        /// How long to wait for the confirmation on the other device.
        static let confirmationTimeout: TimeInterval = 600

        func validate() throws {
            let sources = [passphraseStdin, passphraseFile != nil, noPassphrase].filter { $0 }.count
            if sources > 1 {
                throw ValidationError("give one of --passphrase-stdin, --passphrase-file and --no-passphrase")
            }
            guard (1...120).contains(wait) else { throw ValidationError("--wait must be between 1 and 120 seconds") }
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, name.count <= 64 else {
                throw ValidationError("--name must be 1 to 64 characters")
            }
        }

        func run() throws {
            var passphrase: String?
            if passphraseStdin {
                passphrase = try Passphrase.read(file: "-")
            } else if let passphraseFile {
                passphrase = try Passphrase.read(file: passphraseFile)
            } else if !noPassphrase {
                guard Passphrase.canPrompt else {
                    throw ValidationError(
                        "standard input is not a terminal: use --passphrase-stdin, --passphrase-file FILE or --no-passphrase"
                    )
                }
                passphrase = try Passphrase.promptNew()
            }
            let api = global.api
            let request = DeviceJoinRequest(
                code: code, name: name, passphrase: passphrase, noPassphrase: noPassphrase ? true : nil,
                waitSeconds: wait)
            let reply = try api.post(Target.v1("devices", "join"), request)
            let accepted = try reply.decode(DeviceJoinAccepted.self)
            if global.json {
                printRaw(reply)
            } else {
                print(
                    "Check code: \(DeviceFormat.checkCode(accepted.checkCode)) — confirm it on the device that made the code"
                )
            }
            // Shown now, not when the wait ends (stdout may be a pipe a script reads).
            fflush(nil)
            let deadline = Date().addingTimeInterval(Self.confirmationTimeout)
            while true {
                let statusReply = try api.get(Target.v1("status"))
                let status = try statusReply.decode(PlacesAPI.Status.self)
                switch status.device?.state {
                case "paired":
                    if global.json { return printRaw(statusReply) }
                    return DeviceFormat.printPaired(status)
                case "refused":
                    if global.json { printRaw(statusReply) }
                    let reason = status.device?.reason ?? "no reason given"
                    throw CLIExit.fail("the pairing was refused: \(reason)", CLIExit.refused)
                case "pairing":
                    break
                default:
                    // No join under way any more (the daemon restarted, or an older daemon).
                    throw CLIExit.fail(
                        "the daemon is no longer joining (was it restarted?): run `places device join` again",
                        CLIExit.refused)
                }
                guard Date() < deadline else {
                    throw CLIExit.fail(
                        "not confirmed within 10 minutes; the daemon keeps waiting until the code expires (see `places status`)",
                        CLIExit.refused)
                }
                Thread.sleep(forTimeInterval: DeviceGroup.pollInterval)
            }
        }
    }

    /// `places device confirm [PAIRING] CHECKCODE [--admin]`.
    struct Confirm: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Confirm a device that joined with your code, by the check code it shows.",
            usage: "places device confirm [<pairing>] <check-code> [--admin]",
            discussion: """
                PAIRING (its id from `places device add`, or a unique start of it) may be left \
                out when exactly one device waits for confirmation. A wrong check code cancels \
                the pairing: make a new code with `places device add`.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(
            help: ArgumentHelp(
                "[PAIRING] CHECK-CODE: the pairing's id or its start (needed only when several devices wait), then the 6 digits.",
                valueName: "check-code"))
        var arguments: [String] = []

        @Flag(help: "Let the device add and revoke devices too (overrides the choice made with `device add`).")
        var admin = false

        func validate() throws {
            guard (1...2).contains(arguments.count) else {
                throw ValidationError("give the check code, and before it the pairing when several devices wait")
            }
            _ = try DeviceFormat.checkCodeDigits(arguments[arguments.count - 1], option: "the check code")
        }

        func run() throws {
            let api = global.api
            let digits = try DeviceFormat.checkCodeDigits(arguments[arguments.count - 1], option: "the check code")
            let pairings = try api.get(Target.v1("devices", "pairings")).decode(PairingList.self).pairings
            let pairing: PairingInfo
            if arguments.count == 2 {
                pairing = try DeviceFormat.pairing(arguments[0], in: pairings)
            } else {
                let waiting = pairings.filter { $0.state == "confirm" }
                guard let only = waiting.first else {
                    throw CLIExit.fail(
                        "no device waits for confirmation: make a code with `places device add`, then run `places device join CODE --name NAME` on the new device",
                        CLIExit.refused)
                }
                guard waiting.count == 1 else {
                    var lines = ["\(waiting.count) devices wait for confirmation; give the pairing:"]
                    for info in waiting {
                        lines.append(
                            "  places device confirm \(info.id) CHECKCODE   (“\(info.deviceName ?? "?")”, check code \(DeviceFormat.checkCode(info.checkCode ?? "")))"
                        )
                    }
                    throw CLIExit.fail(lines.joined(separator: "\n"), CLIExit.usage)
                }
                pairing = only
            }
            let confirmed = try DeviceFormat.confirm(
                pairing.id, PairingConfirmation(checkCode: digits, admin: admin ? true : nil), api: api)
            if global.json { return printRaw(confirmed) }
            DeviceFormat.printConfirmed(try confirmed.decode(PairingInfo.self))
        }
    }

    /// `places device [list]`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List your devices: which is this one, which may manage devices, when each was last seen.",
            aliases: ["ls"])

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let reply = try global.api.get(Target.v1("devices"))
            if global.json { return printRaw(reply) }
            let list = try reply.decode(DeviceList.self)
            print(DeviceFormat.table(list.devices))
            if let warning = list.warning { print("\nwarning: \(warning)") }
        }
    }

    /// `places device revoke DEVICE [--yes]`.
    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke a device (a lost phone): it can no longer act as you.",
            discussion: """
                DEVICE is its name, its id or a unique start of the id (`places device list`). \
                Its later changes are refused everywhere the revocation reaches, and every trip \
                it could read moves to a new key. A revoked device cannot be added back: pair \
                it again as a new device. Only a device that may manage devices revokes, and \
                not itself.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The device: its name, its id or a unique start of the id.")
        var device: String

        @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
        var yes = false

        func run() throws {
            let api = global.api
            let devices = try api.get(Target.v1("devices")).decode(DeviceList.self).devices
            let found = try DeviceFormat.device(device, in: devices)
            let label = found.map { "“\($0.name)” (\(DeviceFormat.shortID($0.id)))" } ?? device
            if !yes {
                guard Passphrase.canPrompt else {
                    throw ValidationError("standard input is not a terminal: add --yes to revoke without asking")
                }
                writeStandardError("Revoke \(label)? It can no longer act as you. [y/N] ")
                let answer = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased()
                guard answer == "y" || answer == "yes" else { return print("not revoked") }
            }
            let reply = try api.delete(Target.v1("devices", found?.id ?? device))
            if global.json { return printRaw(reply) }
            let list = try reply.decode(DeviceList.self)
            print(
                "revoked \(label): "
                    + "its later changes are refused, and the trips it could read move to new keys")
            if let warning = list.warning { print("warning: \(warning)") }
        }
    }
}
