import ArgumentParser
import Foundation
import PlacesAPI

/// `places photo …`: add a photo to the daemon's store, or save one it holds.
struct PhotoGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photo",
        abstract: "Add a photo (for a post or your picture) or save one the daemon holds.",
        discussion: """
            A photo is recognized by its bytes (JPEG, PNG, WebP or HEIC, at most 20 MiB). Its \
            location, camera serial and maker notes are removed when it is added, unless \
            --keep-location; its id names the stored bytes, the same on every device.
            """,
        subcommands: [Add.self, Get.self],
        aliases: ["photos"])

    /// `places photo add FILE`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a photo; prints its id, type, size and dimensions.",
            discussion: "`places post --photo FILE` and `places profile set --picture FILE` add the file themselves.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("The image file.", valueName: "file")) var file: String
        @Flag(help: "Keep the photo's location (GPS EXIF) instead of removing it.") var keepLocation = false

        func run() throws {
            let reply = try PhotoUpload.send(file, keepLocation: keepLocation, api: global.api)
            if global.json { return printRaw(reply) }
            let photo = try reply.decode(Photo.self)
            var fields = Fields()
            fields["id"] = photo.id
            fields["type"] = photo.contentType
            fields["size"] = PhotoUpload.size(photo.bytes)
            fields["dimensions"] = "\(photo.width) × \(photo.height)"
            fields.print()
        }
    }

    /// `places photo get ID -o FILE`.
    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save a photo the daemon holds to a file.",
            discussion:
                "A friend's photo arrives after their post does: until then the daemon answers that it has none yet.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The photo's id (64 hex digits, as `places photo add` or `places post show` print it).")
        var id: String
        @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Where to write it.", valueName: "file"))
        var output: String

        func run() throws {
            let reply = try global.api.get(Target.v1("photos", id.lowercased()))
            let bytes = reply.response.body
            do {
                try Data(bytes).write(to: URL(fileURLWithPath: output))
            } catch {
                throw CLIExit.fail("cannot write \(output): \(error.localizedDescription)", CLIExit.refused)
            }
            print("wrote \(output) (\(PhotoUpload.size(Int64(bytes.count))))")
        }
    }
}

/// Sends an image file to `POST /v1/photos`.
enum PhotoUpload {
    /// The daemon's cap on one photo (`POST /v1/photos` answers 413 above it).
    static let maxBytes = 20 << 20

    /// Uploads `file` with a media type from its extension; the reply holds the `Photo`.
    static func send(_ file: String, keepLocation: Bool, api: APIClient) throws -> APIClient.Reply {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file)
        if let byteCount = (attributes?[.size] as? NSNumber)?.intValue, byteCount > maxBytes {
            throw CLIExit.fail("\(file) is \(size(Int64(byteCount))); a photo is at most 20 MiB", CLIExit.refused)
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CLIExit.fail("cannot read \(file)", CLIExit.usage)
        }
        return try api.send(
            "POST", Target.v1("photos", query: [("keepLocation", keepLocation ? "true" : nil)]), bytes: Array(data),
            contentType: mediaType(of: file))
    }

    /// The media type its extension names; the daemon looks at the bytes either way.
    static func mediaType(of file: String) -> String {
        switch URL(fileURLWithPath: file).pathExtension.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "webp": "image/webp"
        case "heic", "heif": "image/heic"
        default: "application/octet-stream"
        }
    }

    /// Uploads each file in turn, returning the photos' ids.
    static func ids(_ files: [String], keepLocation: Bool, api: APIClient) throws -> [String] {
        try files.map { file in
            do {
                return try send(file, keepLocation: keepLocation, api: api).decode(Photo.self).id
            } catch let code as ExitCode {
                // Say which file was refused; the daemon's reason is already printed.
                if files.count > 1 { printError("(while adding \(file))") }
                throw code
            }
        }
    }

    /// "2.4 MiB", "830 KiB" or "512 bytes".
    static func size(_ bytes: Int64) -> String {
        if bytes >= 1 << 20 { return String(format: "%.1f MiB", Double(bytes) / Double(1 << 20)) }
        if bytes >= 1 << 10 { return String(format: "%.0f KiB", Double(bytes) / Double(1 << 10)) }
        return "\(bytes) bytes"
    }
}

extension PlaceGroup {
    /// `places place photo add|remove PLACE …`: a pin's photos (friends see them on your map).
    struct Photos: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "photo", abstract: "Add or remove a photo of a place in your library.",
            subcommands: [Add.self, Remove.self])

        /// `places place photo add PLACE FILE`.
        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Add a photo (its location data removed unless --keep-location) to a place.")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "The place: its id, id prefix or name.") var place: String
            @Argument(help: "A JPEG, PNG, WebP or HEIC file.") var file: String
            @Flag(help: "Keep the photo's EXIF location.") var keepLocation = false

            func run() throws {
                let id = try PhotoUpload.ids([file], keepLocation: keepLocation, api: global.api)[0]
                let reply = try global.api.post(
                    Target.v1("places", try global.names.place(place), "photos"), ["photo": id])
                if global.json { return printRaw(reply) }
                let updated = try reply.decode(Place.self)
                print("added photo \(id.prefix(12)) to \(updated.name) (\(updated.photos?.count ?? 0) in all)")
            }
        }

        /// `places place photo remove PLACE PHOTO`.
        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Remove a photo from a place.")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "The place: its id, id prefix or name.") var place: String
            @Argument(help: "The photo's id.") var photo: String

            func run() throws {
                let reply = try global.api.delete(Target.v1("places", try global.names.place(place), "photos", photo))
                if global.json { return printRaw(reply) }
                let updated = try reply.decode(Place.self)
                print("removed the photo from \(updated.name) (\(updated.photos?.count ?? 0) left)")
            }
        }
    }
}
