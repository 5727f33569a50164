import ArgumentParser
import Foundation
import PlacesAPI

/// The map formats the library imports from and exports to.
enum PlaceFileFormat: String, ExpressibleByArgument, CaseIterable {
    case geojson, kml, gpx

    /// The media type the API reads and writes for this format.
    var mediaType: String {
        switch self {
        case .geojson: "application/geo+json"
        case .kml: "application/vnd.google-earth.kml+xml"
        case .gpx: "application/gpx+xml"
        }
    }

    /// The format a file name's extension says (`.geojson`, `.json`, `.kml`, `.gpx`).
    init?(fileName: String) {
        switch URL(fileURLWithPath: fileName).pathExtension.lowercased() {
        case "geojson", "json": self = .geojson
        case "kml": self = .kml
        case "gpx": self = .gpx
        default: return nil
        }
    }
}

/// The largest import body the daemon takes (Protocol/control-api.yaml, `importPlaces`).
let maximumImportBytes = 32 * 1024 * 1024

extension PlaceGroup {
    /// `places place import`.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import saved places from a GeoJSON, KML or GPX file into your library.",
            discussion: """
                Reads GeoJSON (also a Google Takeout "Saved Places" file), KML (Google My Maps, \
                Organic Maps; unzip a .kmz first) and GPX waypoints, up to 32 MiB. The format \
                comes from the extension (.geojson/.json, .kml, .gpx) unless --format is given. \
                Places already in your library (the same name nearby, or the same spot) \
                are skipped, so importing the same file twice adds nothing.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The file to import.")
        var file: String

        @Option(help: "geojson, kml or gpx (default: from the file's extension).")
        var format: PlaceFileFormat?

        func validate() throws {
            if format == nil && PlaceFileFormat(fileName: file) == nil {
                throw ValidationError(
                    "cannot tell the format of \(file) from its extension: give --format geojson|kml|gpx")
            }
        }

        func run() throws {
            let kind = format ?? PlaceFileFormat(fileName: file) ?? .geojson
            let attributes = try? FileManager.default.attributesOfItem(atPath: file)
            if let size = (attributes?[.size] as? NSNumber)?.intValue, size > maximumImportBytes {
                throw CLIExit.fail("\(file) is \(size) bytes; the daemon imports at most 32 MiB", CLIExit.usage)
            }
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CLIExit.fail("cannot read \(file)", CLIExit.usage)
            }
            let reply = try global.api.send(
                "POST", Target.v1("places", "import"), bytes: Array(data), contentType: kind.mediaType)
            if global.json { return printRaw(reply) }
            print(Self.summary(try reply.decode(ImportResult.self)))
        }

        /// "imported 12 places, skipped 3 already in your library" and the ignored entries.
        static func summary(_ result: ImportResult) -> String {
            var lines = [
                "imported \(result.imported) place\(result.imported == 1 ? "" : "s"), "
                    + "skipped \(result.skipped) already in your library"
            ]
            for ignored in result.ignored {
                lines.append("  ignored entry \(ignored.index + 1): \(ignored.reason)")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// `places place export`.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export your library as GeoJSON, KML or GPX.",
            discussion: "Written to standard output unless --output.")

        @OptionGroup var global: GlobalOptions

        @Option(help: "geojson, kml or gpx.")
        var format: PlaceFileFormat

        @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write to this file.", valueName: "file"))
        var output: String?

        func run() throws {
            let reply = try global.api.get(Target.v1("places", "export", query: [("format", format.rawValue)]))
            try emit(reply.response.body, output: output)
        }
    }
}
