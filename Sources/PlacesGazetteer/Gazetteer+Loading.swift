import Foundation

extension Gazetteer {
    /// The first field of the file's first line.
    static let magic = "places-gazetteer"
    /// The format version this build reads.
    static let formatVersion = 1
    /// More entries of one kind than this is not a gazetteer but an attack on memory.
    static let maxEntriesPerKind = 1_000_000

    /// Reads a gazetteer file (the format: docs/discover.md, "Gazetteer data", and
    /// contrib/gazetteer/build-gazetteer.py). Throws `GazetteerError` naming the file and
    /// the line at fault for anything malformed; never traps, whatever the bytes.
    public static func load(contentsOf url: URL) throws -> Gazetteer {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw GazetteerError(.unreadable, "cannot read the gazetteer \(url.path): \(error.localizedDescription)")
        }
        return try data.withUnsafeBytes { raw in
            var parser = GazetteerParser(bytes: raw.bindMemory(to: UInt8.self), file: url.path)
            return try parser.parse()
        }
    }

    /// Reads a gazetteer from bytes (`load(contentsOf:)`'s work; `file` names them in errors).
    public static func load(bytes: some Collection<UInt8>, file: String = "gazetteer") throws -> Gazetteer {
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { buffer in
            var parser = GazetteerParser(bytes: buffer, file: file)
            return try parser.parse()
        }
    }
}
