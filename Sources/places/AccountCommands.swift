import ArgumentParser
import Foundation
import PlacesAPI
import PlacesControlClient

// Identity and session: init, login, logout, whoami, status.

extension PlacesCommand {
    /// `places init`: register an identity and profile in the daemon.
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create your identity (a keypair) and profile, and log in.",
            discussion: """
                The secret key is sealed with a passphrase. On a terminal you are asked for it \
                twice; scripts and headless devices pass --passphrase-file (first line is \
                used) or --no-passphrase (the key file is stored unsealed, mode 0600).
                """)

        @OptionGroup var global: GlobalOptions

        @Option(help: "Your display name.")
        var name: String

        @Option(help: "Your username (what friends see next to your id).")
        var username: String

        @Option(help: "A short bio.")
        var bio: String?

        @Option(help: ArgumentHelp("Read the passphrase from the first line of this file.", valueName: "file"))
        var passphraseFile: String?

        @Flag(help: "Store the key unsealed (headless devices).")
        var noPassphrase = false

        func validate() throws {
            if passphraseFile != nil && noPassphrase {
                throw ValidationError("give either --passphrase-file or --no-passphrase, not both")
            }
        }

        func run() throws {
            var passphrase: String?
            if let passphraseFile {
                passphrase = try Passphrase.read(file: passphraseFile)
            } else if !noPassphrase {
                guard Passphrase.canPrompt else {
                    throw ValidationError(
                        "standard input is not a terminal: use --passphrase-file FILE or --no-passphrase")
                }
                passphrase = try Passphrase.promptNew()
            }
            let request = InitRequest(
                name: name, username: username, bio: bio, passphrase: passphrase,
                noPassphrase: noPassphrase ? true : nil)
            let reply = try global.api.post(Target.v1("init"), request)
            if global.json { return printRaw(reply) }
            let profile = try reply.decode(Profile.self)
            print(profile.id)
            print("identity created, logged in")
        }
    }

    /// `places login`: unlock the key in the daemon.
    struct Login: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Unlock your identity in the daemon so it signs and syncs again.",
            discussion: """
                Asks for the passphrase on a terminal, or reads the first line of \
                --passphrase-file. An unsealed key (init --no-passphrase) needs neither.
                """)

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("Read the passphrase from the first line of this file.", valueName: "file"))
        var passphraseFile: String?

        func run() throws {
            let api = global.api
            var passphrase: String?
            if let passphraseFile {
                passphrase = try Passphrase.read(file: passphraseFile)
            } else {
                let status = try api.get(Target.v1("status")).decode(PlacesAPI.Status.self)
                if status.initialized && status.passphraseProtected != false {
                    guard Passphrase.canPrompt else {
                        throw ValidationError(
                            "the key is sealed and standard input is not a terminal: use --passphrase-file FILE")
                    }
                    guard let typed = Passphrase.prompt("Passphrase: ") else {
                        throw ValidationError("no passphrase given")
                    }
                    passphrase = typed
                }
            }
            let reply = try api.post(Target.v1("login"), LoginRequest(passphrase: passphrase))
            if global.json { return printRaw(reply) }
            let status = try reply.decode(PlacesAPI.Status.self)
            print("logged in as \(status.name ?? "?") (@\(status.username ?? "?"))")
        }
    }

    /// `places logout`: wipe the key from the daemon's memory.
    struct Logout: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Wipe your key from the daemon's memory.",
            discussion: "A logged-out daemon keeps its data but signs nothing and syncs nothing until `places login`.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let reply = try global.api.post(Target.v1("logout"))
            if global.json { return printRaw(reply) }
            print("logged out")
        }
    }

    /// `places whoami`: the profile of the logged-in identity.
    struct Whoami: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show your id (the one friends add), name and username, and which of your devices this is.",
            discussion: "The id is your person's: the same on each of your devices (`places device list`).")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let api = global.api
            let reply = try api.get(Target.v1("profile"))
            if global.json { return printRaw(reply) }
            let profile = try reply.decode(Profile.self)
            var fields = Fields()
            fields["id"] = profile.id
            fields["name"] = profile.name
            fields["username"] = profile.username
            fields["bio"] = profile.bio
            // This device, when the person has several (an older daemon has no block); the
            // profile is printed whatever the status says.
            if let response = try? api.control.send("GET", Target.v1("status"), body: nil, headers: [:]),
                response.status == 200,
                let device = (try? JSONDecoder().decode(PlacesAPI.Status.self, from: Data(response.body)))?.device
            {
                fields["device"] = "\(device.name ?? "?") (\(device.id ?? "?"))"
            }
            fields.print()
        }
    }

    /// `places status`: what the daemon is and whether it is logged in.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the daemon's state: version, identity, login, data dir.",
            discussion: "Works while logged out; exits 3 when no daemon is running.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let reply = try global.api.get(Target.v1("status"))
            if global.json { return printRaw(reply) }
            let status = try reply.decode(PlacesAPI.Status.self)
            var fields = Fields()
            fields["daemon"] = "placesd \(status.version) (pid \(status.pid))"
            fields["identity"] = status.initialized ? (status.id ?? "yes") : "none (run `places init`)"
            if status.initialized {
                fields["login"] = status.loggedIn ? "logged in" : "logged out (run `places login`)"
                fields["key"] = status.passphraseProtected.map { $0 ? "sealed with a passphrase" : "unsealed" }
            }
            fields["name"] = status.name
            fields["username"] = status.username
            fields["data dir"] = status.dataDir
            fields["socket"] = status.socket
            fields["ops"] = status.opCount.map(String.init)
            if let device = status.device {
                var line = "\(device.name ?? "?") (\(device.id ?? "?"))"
                switch device.state {
                case "pairing":
                    line += ", joining: check code \(DeviceFormat.checkCode(device.checkCode ?? ""))"
                case "refused": line += ", join refused: \(device.reason ?? "no reason given")"
                default: break
                }
                fields["device"] = line
            }
            fields.print()
        }
    }
}
