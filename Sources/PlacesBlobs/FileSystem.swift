#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The directory operations of the store, over POSIX calls (no Foundation: the daemon
/// keeps its memory small), each failure turned into a `BlobError`.
enum FileSystem {
    /// Creates `path` if needed and makes it private to its owner (0700): blob names are
    /// photo hashes, which say whether somebody holds a given photo. True when it was created.
    @discardableResult
    static func makePrivateDirectory(_ path: String) throws(BlobError) -> Bool {
        let created = mkdir(path, 0o700) == 0
        if !created && errno != EEXIST {
            throw BlobFile.failure("cannot create the directory \(path)", errno: errno)
        }
        guard chmod(path, 0o700) == 0 else {
            throw BlobFile.failure("cannot restrict the permissions of \(path)", errno: errno)
        }
        return created
    }

    /// Renames atomically (the destination is replaced).
    static func rename(_ from: String, to: String) throws(BlobError) {
        guard posixRename(from, to) == 0 else {
            throw BlobFile.failure("cannot move \(from) to \(to)", errno: errno)
        }
    }

    /// Links `from` as `to`; false when `to` already exists. Unlike rename, never replaces.
    static func link(_ from: String, to: String) throws(BlobError) -> Bool {
        if posixLink(from, to) == 0 { return true }
        if errno == EEXIST { return false }
        throw BlobFile.failure("cannot link \(from) to \(to)", errno: errno)
    }

    /// Syncs a directory, so that a rename into it survives a power cut.
    static func syncDirectory(_ path: String) throws(BlobError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw BlobFile.failure("cannot open the directory \(path)", errno: errno) }
        defer { close(fd) }
        guard retryingInterrupts({ fsync(fd) }) == 0 else {
            throw BlobFile.failure("cannot sync the directory \(path)", errno: errno)
        }
    }

    /// Removes a file; a file that is already gone is not an error.
    static func remove(_ path: String) throws(BlobError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw BlobFile.failure("cannot delete \(path)", errno: errno)
        }
    }

    /// The size of the file at `path`, nil when there is none.
    static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// The names in a directory (without "." and ".."); empty when it does not exist.
    static func list(_ path: String) throws(BlobError) -> [String] {
        guard let dir = opendir(path) else {
            if errno == ENOENT { return [] }
            throw BlobFile.failure("cannot list the directory \(path)", errno: errno)
        }
        defer { closedir(dir) }
        var names = [String]()
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

// At file scope these names mean the C functions, which the methods above shadow.
private func posixRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
private func posixLink(_ from: String, _ to: String) -> Int32 { link(from, to) }
