import Foundation

/// Where a daemon keeps its files. Resolved from `--data-dir`, else `PLACES_HOME`, else
/// `$XDG_DATA_HOME/places`, else `~/.local/share/places`.
public struct DataPaths: Sendable {
    public let dataDir: String
    public var socket: String { dataDir + "/placesd.sock" }
    public var database: String { dataDir + "/places.sqlite" }
    public var keyFile: String { dataDir + "/identity.key" }
    public var lockFile: String { dataDir + "/placesd.lock" }

    /// The longest socket path the kernel accepts (sun_path is 108 bytes with the NUL).
    public static let maxSocketPathBytes = 107

    public init(dataDir: String?) {
        let env = ProcessInfo.processInfo.environment
        let chosen: String
        if let dataDir, !dataDir.isEmpty {
            chosen = dataDir
        } else if let home = env["PLACES_HOME"], !home.isEmpty {
            chosen = home
        } else if let xdg = env["XDG_DATA_HOME"], !xdg.isEmpty {
            chosen = xdg + "/places"
        } else {
            chosen = (env["HOME"] ?? NSHomeDirectory()) + "/.local/share/places"
        }
        let absolute = chosen.hasPrefix("/") ? chosen : FileManager.default.currentDirectoryPath + "/" + chosen
        self.dataDir = URL(fileURLWithPath: absolute).standardizedFileURL.path
    }
}
