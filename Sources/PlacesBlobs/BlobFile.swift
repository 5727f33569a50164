#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file descriptor, closed when the value goes away: positioned reads and writes
/// (no shared file offset, so concurrent readers of one blob do not disturb each other),
/// with every failure turned into a `BlobError`.
struct BlobFile: ~Copyable {
    private let fd: Int32
    /// The path, for error messages.
    let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }

    /// Opens an existing file for reading; `.notFound` when it does not exist.
    static func openForReading(_ path: String) throws(BlobError) -> BlobFile {
        try open(path, flags: O_RDONLY, mode: 0)
    }

    /// Opens an existing file for reading and writing; `.notFound` when it does not exist.
    static func openForUpdate(_ path: String) throws(BlobError) -> BlobFile {
        try open(path, flags: O_RDWR, mode: 0)
    }

    /// Opens a file for reading and writing, creating it readable only by its owner.
    static func openOrCreate(_ path: String) throws(BlobError) -> BlobFile {
        try open(path, flags: O_RDWR | O_CREAT, mode: 0o600)
    }

    /// Creates a new file readable only by its owner; fails if it already exists, so two
    /// writers never share a temporary file.
    static func create(_ path: String) throws(BlobError) -> BlobFile {
        try open(path, flags: O_RDWR | O_CREAT | O_EXCL, mode: 0o600)
    }

    private static func open(_ path: String, flags: Int32, mode: mode_t) throws(BlobError) -> BlobFile {
        let fd = retryingInterrupts { systemOpen(path, flags | O_CLOEXEC, mode) }
        guard fd >= 0 else {
            let err = errno
            if err == ENOENT { throw BlobError(.notFound, "\(path) does not exist") }
            throw BlobFile.failure("cannot open \(path)", errno: err)
        }
        return BlobFile(fd: fd, path: path)
    }

    /// The file's length in bytes.
    func size() throws(BlobError) -> Int64 {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw BlobFile.failure("cannot stat \(path)", errno: errno) }
        return Int64(info.st_size)
    }

    /// Exactly `count` bytes at `offset`; `.corrupt` when the file ends first (it was
    /// truncated under us).
    func read(at offset: Int64, count: Int) throws(BlobError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = out.withUnsafeMutableBytes { buf in
                retryingInterrupts {
                    pread(fd, buf.baseAddress.map { $0 + done }, count - done, off_t(offset) + off_t(done))
                }
            }
            guard n >= 0 else { throw BlobFile.failure("cannot read \(path)", errno: errno) }
            guard n > 0 else { throw BlobError(.corrupt, "\(path) ends early: it was truncated") }
            done += n
        }
        return out
    }

    /// Writes all of `bytes` at `offset`.
    func write(_ bytes: [UInt8], at offset: Int64) throws(BlobError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { buf in
                retryingInterrupts {
                    pwrite(fd, buf.baseAddress.map { $0 + done }, bytes.count - done, off_t(offset) + off_t(done))
                }
            }
            guard n > 0 else { throw BlobFile.failure("cannot write \(path)", errno: errno) }
            done += n
        }
    }

    /// Cuts the file to `length` bytes.
    func truncate(to length: Int64) throws(BlobError) {
        guard retryingInterrupts({ ftruncate(fd, off_t(length)) }) == 0 else {
            throw BlobFile.failure("cannot truncate \(path)", errno: errno)
        }
    }

    /// Waits until the bytes are on the disk, so that a rename after it never exposes a
    /// file whose contents a power cut could still lose.
    func sync() throws(BlobError) {
        guard retryingInterrupts({ fsync(fd) }) == 0 else {
            throw BlobFile.failure("cannot sync \(path)", errno: errno)
        }
    }

    /// An `.io` error naming the system's reason (disk full, permission denied, …).
    static func failure(_ message: String, errno err: Int32) -> BlobError {
        BlobError(.io, "\(message); check free space and permissions", cause: String(cString: strerror(err)))
    }
}

/// Calls `body` again while it fails with EINTR.
func retryingInterrupts<T: BinaryInteger>(_ body: () -> T) -> T {
    while true {
        let result = body()
        if result >= 0 || errno != EINTR { return result }
    }
}

private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
