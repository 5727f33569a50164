#if canImport(Glibc)
    import Glibc
#endif

/// glibc's malloc tuning, looked up at run time (`malloc.h` is not in Swift's Glibc module):
/// nothing happens where the C library has no such function.
enum Malloc {
    private typealias Trim = @convention(c) (Int) -> Int32
    private typealias Option = @convention(c) (Int32, Int32) -> Int32
    /// `M_ARENA_MAX` in glibc's `malloc.h`.
    private static let arenaMax: Int32 = -8

    /// Gives free heap pages back to the system (`malloc_trim(0)`).
    static func trim() {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }

    /// At most `count` malloc arenas (`mallopt(M_ARENA_MAX, count)`), before threads allocate.
    static func limitArenas(_ count: Int32) {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            _ = unsafeBitCast(symbol, to: Option.self)(arenaMax, count)
        #endif
    }
}
