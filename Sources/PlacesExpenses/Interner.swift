/// Numbers distinct strings (traveller references, categories) 0, 1, 2… in order of first sight.
///
/// Balances look up some 250,000 references for a 10,000-expense trip; Swift's `Dictionary`
/// spends most of that time seeding and finalising SipHash for every 64-character key. This table
/// mixes 8 bytes at a time with a per-process random seed and probes linearly. Peers choose the
/// references, so should a probe ever run long (a crafted or unlucky collision), the table gives
/// up its own hashing and uses a `Dictionary` from then on: never quadratic.
struct Interner {
    /// The strings, by number.
    private(set) var names = [String]()
    private var hashes = [UInt64]()
    private var slots = [Int32](repeating: -1, count: 64)
    private var fallback: [String: Int]?
    private static let seed = UInt64.random(in: .min ... .max)
    /// Probes allowed before giving up on the table (tests set 0 to exercise the fallback).
    private let longestProbe: Int

    init(longestProbe: Int = 24) { self.longestProbe = longestProbe }

    var count: Int { names.count }

    /// The number of `name`, numbering it if it is new.
    mutating func index(_ name: String) -> Int {
        if fallback != nil { return fallbackIndex(name) }
        let hash = Interner.hash(name)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        var probes = 0
        while slots[slot] >= 0 {
            let found = Int(slots[slot])
            if hashes[found] == hash && names[found] == name { return found }
            slot = (slot + 1) & mask
            probes += 1
            if probes > longestProbe {
                fallback = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
                return fallbackIndex(name)
            }
        }
        names.append(name)
        hashes.append(hash)
        slots[slot] = Int32(truncatingIfNeeded: names.count - 1)
        if names.count * 2 > slots.count { grow() }
        return names.count - 1
    }

    private mutating func fallbackIndex(_ name: String) -> Int {
        if let known = fallback?[name] { return known }
        names.append(name)
        fallback?[name] = names.count - 1
        return names.count - 1
    }

    private mutating func grow() {
        guard slots.count < Int(Int32.max) else {
            return fallback = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        }
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(truncatingIfNeeded: index)
        }
    }

    /// A seeded 64-bit mix of the string's UTF-8 bytes, 8 at a time.
    static func hash(_ name: String) -> UInt64 {
        if let hash = name.utf8.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) { return hash }
        return Array(name.utf8).withUnsafeBytes { hash($0) }
    }

    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        var offset = 0
        while offset + 8 <= bytes.count {
            // One multiply per word; the final mix spreads every bit.
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            hash = ((hash ^ word) &* 0x9E37_79B9_7F4A_7C15) ^ (hash >> 29)
            offset += 8
        }
        var tail: UInt64 = 0
        while offset < bytes.count {
            tail = tail << 8 | UInt64(bytes[offset])
            offset += 1
        }
        return mix(hash ^ tail)
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &* 0xBF58_476D_1CE5_E9B9
        z ^= z >> 31
        z = z &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 29)
    }
}
