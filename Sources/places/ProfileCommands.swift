import ArgumentParser
import PlacesAPI
import PlacesModel

/// `places profile`: what friends and co-members see of you.
struct ProfileGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Show or change your profile: name, username, bio and picture.",
        discussion: "Your profile reaches your friends and the people you share itineraries with.",
        subcommands: [Show.self, Change.self],
        defaultSubcommand: Show.self)

    /// `places profile [show]`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show your profile.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let reply = try global.api.get(Target.v1("profile"))
            if global.json { return printRaw(reply) }
            ProfileGroup.print(try reply.decode(Profile.self))
        }
    }

    /// `places profile set …`.
    struct Change: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change your name, username, bio or picture.",
            discussion:
                "--bio \"\" clears the bio and --picture \"\" the picture. A picture is any photo file (JPEG, PNG, WebP, HEIC)."
        )
        @OptionGroup var global: GlobalOptions
        @Option(help: "Your display name.") var name: String?
        @Option(help: "Your username (1–32 letters, digits, '.', '_' or '-').") var username: String?
        @Option(help: "A short bio.") var bio: String?
        @Option(help: ArgumentHelp("A photo file for your picture.", valueName: "file")) var picture: String?
        @Flag(help: "Keep the picture's location (GPS EXIF) instead of removing it.") var keepLocation = false

        func validate() throws {
            if name == nil && username == nil && bio == nil && picture == nil {
                throw ValidationError("nothing to change: give --name, --username, --bio or --picture")
            }
        }

        func run() throws {
            var body = JSONBody()
            if let name { body["name"] = .string(name) }
            if let username {
                body["username"] = .string(username.hasPrefix("@") ? String(username.dropFirst()) : username)
            }
            if let bio { body["bio"] = bio.isEmpty ? .null : .string(bio) }
            if let picture {
                body["picture"] =
                    picture.isEmpty
                    ? .null
                    : .string(
                        try PhotoUpload.send(picture, keepLocation: keepLocation, api: global.api).decode(Photo.self).id
                    )
            }
            let reply = try global.api.patch(Target.v1("profile"), body)
            if global.json { return printRaw(reply) }
            ProfileGroup.print(try reply.decode(Profile.self))
        }
    }

    static func print(_ profile: Profile) {
        var fields = Fields()
        fields["id"] = profile.id
        fields["name"] = profile.name
        fields["username"] = "@" + profile.username
        fields["bio"] = profile.bio
        fields["picture"] = profile.picture
        fields.print()
    }
}
