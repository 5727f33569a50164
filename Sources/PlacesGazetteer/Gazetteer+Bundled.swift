import Foundation

extension Gazetteer {
    /// The environment variable that names a gazetteer file to use instead of the bundled one.
    public static let environmentVariable = "PLACES_GAZETTEER"

    /// The name of the resource directory SwiftPM copies beside the built executables.
    static let resourceDirectories = ["places_PlacesGazetteer.resources", "Places_PlacesGazetteer.resources"]

    /// Where the gazetteer file is: `$PLACES_GAZETTEER` when set, else
    /// `<executable dir>/places_PlacesGazetteer.resources/gazetteer.tsv` (where SwiftPM copies
    /// it), else this source tree's `Resources/gazetteer.tsv` (a build run from its checkout).
    /// Throws `GazetteerError.notFound` naming every place it looked. (Not `Bundle.module`,
    /// which traps when the resource is missing.)
    public static func bundledURL(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executableURL: URL? = Bundle.main.executableURL
    ) throws -> URL {
        if let path = environment[environmentVariable], !path.isEmpty {
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw GazetteerError(.notFound, "\(environmentVariable) names \(path), which is not a readable file")
            }
            return URL(fileURLWithPath: path)
        }
        var looked: [String] = []
        if let executableURL {
            let directory = executableURL.resolvingSymlinksInPath().deletingLastPathComponent()
            for name in resourceDirectories {
                let url = directory.appendingPathComponent(name).appendingPathComponent("gazetteer.tsv")
                if FileManager.default.isReadableFile(atPath: url.path) { return url }
                looked.append(url.path)
            }
        }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Resources").appendingPathComponent("gazetteer.tsv")
        if FileManager.default.isReadableFile(atPath: source.path) { return source }
        looked.append(source.path)
        throw GazetteerError(
            .notFound,
            "no gazetteer file: \(environmentVariable) is not set and none at " + looked.joined(separator: ", "))
    }

    /// The gazetteer shipped with this build (`bundledURL()`), loaded.
    public static func bundled() throws -> Gazetteer {
        try load(contentsOf: bundledURL())
    }
}
