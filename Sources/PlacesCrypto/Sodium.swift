import CSodium

/// One-time libsodium initialisation. Every public entry point of this module that calls
/// libsodium calls `Sodium.ensureInitialized()` first; `sodium_init` is itself idempotent
/// and thread-safe, so this only caches its result.
enum Sodium {
    private static let initResult: Int32 = sodium_init()

    static func ensureInitialized() throws(CryptoError) {
        // sodium_init returns 0 on first success, 1 if already initialised, -1 on failure.
        guard initResult >= 0 else {
            throw CryptoError(.unavailable, "libsodium failed to initialise; check the libsodium installation")
        }
    }

    /// Fills a new array with `count` cryptographically random bytes.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, count) }
        return bytes
    }
}
