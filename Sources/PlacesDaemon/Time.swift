import Foundation

/// RFC 3339 timestamps (UTC, millisecond precision) from milliseconds since the epoch.
enum RFC3339 {
    static func string(ms: Int64) -> String {
        var seconds = time_t(ms / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let millis = Int(ms % 1000)
        // Fixed-width digits written straight into 24 bytes: this runs once per list row.
        return String(unsafeUninitializedCapacity: 24) { buffer in
            func put(_ value: Int, _ width: Int, at offset: Int) {
                var v = value
                for i in stride(from: offset + width - 1, through: offset, by: -1) {
                    buffer[i] = UInt8(48 + v % 10)
                    v /= 10
                }
            }
            put(Int(parts.tm_year) + 1900, 4, at: 0)
            buffer[4] = 45
            put(Int(parts.tm_mon) + 1, 2, at: 5)
            buffer[7] = 45
            put(Int(parts.tm_mday), 2, at: 8)
            buffer[10] = 84
            put(Int(parts.tm_hour), 2, at: 11)
            buffer[13] = 58
            put(Int(parts.tm_min), 2, at: 14)
            buffer[16] = 58
            put(Int(parts.tm_sec), 2, at: 17)
            buffer[19] = 46
            put(millis, 3, at: 20)
            buffer[23] = 90
            return 24
        }
    }

    static func nowMs() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
