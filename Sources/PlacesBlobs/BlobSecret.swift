import PlacesCrypto

/// The store's secret, DATA_DIR/blobs/.key: 32 random bytes (mode 0600) from which each
/// blob's key is derived. Copying the blob files without it reveals nothing about the photos.
enum BlobSecret {
    static let length = 32

    /// Reads the secret, or creates it when the store holds no blob yet. A missing key with
    /// blobs present is an error: a new key would silently make every stored photo unreadable.
    static func loadOrCreate(_ paths: BlobPaths, storedBlobCount: Int) throws(BlobError) -> [UInt8] {
        if let secret = try load(paths.key) { return secret }
        guard storedBlobCount == 0 else {
            throw BlobError(
                .corrupt,
                "\(paths.key) is missing but \(storedBlobCount) photos are stored; restore the key from a backup, "
                    + "or delete \(paths.root) to fetch the photos again from peers")
        }
        let secret = SecureRandom.bytes(length)
        let temp = BlobPaths.temporary(for: paths.key)
        let linked: Bool
        do throws(BlobError) {
            let file = try BlobFile.create(temp)
            try file.write(secret, at: 0)
            try file.sync()
            // link, not rename: if another process created the key meanwhile, keep theirs.
            linked = try FileSystem.link(temp, to: paths.key)
            try FileSystem.remove(temp)
            try FileSystem.syncDirectory(paths.root)
        } catch {
            try? FileSystem.remove(temp)
            throw error
        }
        if linked { return secret }
        guard let theirs = try load(paths.key) else {
            throw BlobError(.io, "\(paths.key) appeared and vanished while the store opened; start again")
        }
        return theirs
    }

    private static func load(_ path: String) throws(BlobError) -> [UInt8]? {
        let file: BlobFile
        do throws(BlobError) {
            file = try BlobFile.openForReading(path)
        } catch  where error.code == .notFound {
            return nil
        }
        guard try file.size() == Int64(length) else {
            throw BlobError(
                .corrupt,
                "\(path) is damaged (it must be \(length) bytes); restore it from a backup, "
                    + "or the stored photos cannot be read")
        }
        return try file.read(at: 0, count: length)
    }
}
