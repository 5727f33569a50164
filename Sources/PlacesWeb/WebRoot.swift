import Foundation

/// The app's static files: `index.html`, `css/`, `js/`, `vendor/`, `data/`. Shipped as the
/// `App` resource of this module (SwiftPM copies it beside the executables); for
/// development, `PLACES_WEB_ROOT` names a folder to serve instead (edit and reload, no
/// rebuild). Files are read on each request.
public struct WebRoot: Sendable {
    /// The environment variable naming a folder to serve instead of the bundled app.
    public static let environmentVariable = "PLACES_WEB_ROOT"

    /// The names of the resource directory SwiftPM copies beside the built executables.
    static let resourceDirectories = ["places_PlacesWeb.resources", "Places_PlacesWeb.resources"]

    /// The media types served, by file extension; any other file is not found.
    static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "json": "application/json",
        "geojson": "application/geo+json",
        "woff2": "font/woff2",
        "txt": "text/plain; charset=utf-8",
    ]

    /// The folder served.
    public let url: URL

    /// A folder served as is (a test's, or one the caller found).
    public init(url: URL) { self.url = url }

    /// `$PLACES_WEB_ROOT` when set, else `<executable dir>/places_PlacesWeb.resources/App`
    /// (where SwiftPM copies it), else this source tree's `App` (a build run from its
    /// checkout). Throws naming every place it looked. (Not `Bundle.module`, which traps
    /// when the resource is missing.)
    public static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executableURL: URL? = Bundle.main.executableURL
    ) throws(WebError) -> WebRoot {
        if let path = environment[environmentVariable], !path.isEmpty {
            guard isApp(URL(fileURLWithPath: path)) else {
                throw WebError(.webRootMissing, "\(environmentVariable) names \(path), which has no index.html")
            }
            return WebRoot(url: URL(fileURLWithPath: path).standardizedFileURL)
        }
        var looked: [String] = []
        if let executableURL {
            let directory = executableURL.resolvingSymlinksInPath().deletingLastPathComponent()
            for name in resourceDirectories {
                let url = directory.appendingPathComponent(name).appendingPathComponent("App")
                if isApp(url) { return WebRoot(url: url) }
                looked.append(url.path)
            }
        }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("App")
        if isApp(source) { return WebRoot(url: source) }
        looked.append(source.path)
        throw WebError(
            .webRootMissing,
            "the app's files are missing: \(environmentVariable) is not set and there is no index.html in "
                + looked.joined(separator: ", "))
    }

    private static func isApp(_ url: URL) -> Bool {
        FileManager.default.isReadableFile(atPath: url.appendingPathComponent("index.html").path)
    }

    /// A file of the app and its media type, for a request path below `/app/` given as its
    /// percent-decoded segments. Nil (not found) for an empty, hidden (`.x`), `..` or
    /// unusual segment, an extension not served, or a file that is not there.
    func file(segments: [String]) -> (contents: [UInt8], contentType: String)? {
        guard !segments.isEmpty, segments.count <= 16 else { return nil }
        for segment in segments {
            let allowed = segment.unicodeScalars.allSatisfy {
                ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0)
                    || "-_.".unicodeScalars.contains($0)
            }
            guard allowed, !segment.isEmpty, !segment.hasPrefix("."), segment.utf8.count <= 128 else { return nil }
        }
        guard let name = segments.last, let dot = name.lastIndex(of: "."),
            let contentType = Self.contentTypes[name[name.index(after: dot)...].lowercased()]
        else { return nil }
        var fileURL = url
        for segment in segments { fileURL.appendPathComponent(segment) }
        // The segments are plain names, so the file is inside the root; a symbolic link
        // placed in the root that leads out of it is refused all the same.
        let rootPath = url.resolvingSymlinksInPath().path + "/"
        guard fileURL.resolvingSymlinksInPath().path.hasPrefix(rootPath),
            let data = FileManager.default.contents(atPath: fileURL.path)
        else { return nil }
        return (Array(data), contentType)
    }

    /// The app's page.
    func index() -> [UInt8]? { file(segments: ["index.html"])?.contents }
}
