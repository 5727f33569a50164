import Foundation
import PlacesInterchange

/// The hand-written sample files in `Samples/` (excluded from the target's sources), made to
/// look like what each tool really exports.
enum Samples {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Samples")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func read(_ name: String, _ mediaType: String) throws -> ImportResult {
        try PlaceImport.read(bytes(name), mediaType: mediaType)
    }

    /// The error reading `text` as `mediaType` gives, or nil when it reads.
    static func refusal(_ text: String, _ mediaType: String) -> ImportError? {
        refusal(Array(text.utf8), mediaType)
    }

    static func refusal(_ bytes: [UInt8], _ mediaType: String) -> ImportError? {
        do {
            _ = try PlaceImport.read(bytes, mediaType: mediaType)
            return nil
        } catch {
            return error
        }
    }

    static let geoJSON = "application/geo+json"
    static let kml = "application/vnd.google-earth.kml+xml"
    static let gpx = "application/gpx+xml"
}
