import PlacesStore

/// When a burst of stored ops last ended, and whether memory was given back since. An
/// engine's `trimWhenIdle` gives back SQLite's spare cache and malloc's free pages once,
/// 10 s after a burst (a relay's stored ops, a daemon's sync rounds), so that an idle
/// daemon's resident set does not stay at what the burst grew.
struct IdleTrim {
    static let afterMs: Int64 = 10_000
    private var lastBurstMs: Int64 = 0
    private var trimmed = true

    mutating func noteBurst(atMs now: Int64 = RFC3339.nowMs()) {
        lastBurstMs = now
        trimmed = false
    }

    /// Gives memory back if a burst ended `afterMs` ago and it was not given back since.
    mutating func trimIfDue(_ store: Store, atMs now: Int64 = RFC3339.nowMs()) {
        guard !trimmed, now - lastBurstMs >= Self.afterMs else { return }
        trimmed = true
        store.releaseMemory()
        Malloc.trim()
    }
}
