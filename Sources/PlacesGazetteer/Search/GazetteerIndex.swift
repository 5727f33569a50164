import Foundation
import PlacesModel

/// The search index over a gazetteer: built once (lazily, on the first search), immutable,
/// shared by every search.
///
/// - Every folded name and alternate name of every entry, and every word-suffix of one
///   ("new york" also as "york"), is a key into one byte buffer; the keys are sorted, so
///   exact and prefix matches are one binary search and a contiguous range.
/// - For typos, the whole-name keys are grouped by length with a 32-bit letter signature
///   each: a one- or two-edit search scans only the keys of nearby lengths whose letters
///   differ by at most that many, then checks the edit distance.
/// - Per entry, only what ranking needs: kind, weighted population, region, and a unit
///   vector for distances.
///
/// About 10 bytes per key and 8 per whole-name key, plus the folded text; searches
/// allocate only their results.
public final class GazetteerIndex: Sendable {
    let source: any DiscoverSource
    /// The folded names, back to back (UTF-8).
    let bytes: [UInt8]
    /// Sorted keys: start in `bytes`, length (bit 15 set for a word-suffix key, bit 14 for
    /// an alternate name's), entry.
    let keyStart: [UInt32]
    let keyLength: [UInt16]
    let keyEntry: [UInt32]
    /// Whole-name keys (positions in the sorted arrays) grouped by length:
    /// `fuzzyKey[fuzzyLengthStart[n]..<fuzzyLengthStart[n + 1]]` have length n.
    let fuzzyKey: [UInt32]
    let fuzzyMask: [UInt32]
    let fuzzyLengthStart: [Int32]
    /// Per entry: kind (`kindCode`), population × kind weight, region slot (a region's own,
    /// a city's region's, else -1; slots number the regions 0..<regionCount), position on
    /// the unit sphere.
    let kind: [UInt8]
    let prominence: [Float]
    let regionSlot: [Int32]
    let regionCount: Int
    let unitX: [Float]
    let unitY: [Float]
    let unitZ: [Float]

    static let wordFlag: UInt16 = 0x8000
    /// Set on the keys of an alternate name (and its words).
    static let alternateFlag: UInt16 = 0x4000
    static let lengthMask: UInt16 = 0x3FFF
    /// Keys are cut to this many bytes (names are far shorter).
    static let maxKeyBytes = 255

    /// The index of `source`'s names. Takes ~100–200 ms for the bundled gazetteer (release).
    public init(_ source: any DiscoverSource) {
        self.source = source
        let n = source.count
        var kind = [UInt8](repeating: 0, count: n)
        var prominence = [Float](repeating: 0, count: n)
        var region = [Int32](repeating: -1, count: n)
        var unitX = [Float](repeating: 0, count: n)
        var unitY = [Float](repeating: 0, count: n)
        var unitZ = [Float](repeating: 0, count: n)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(n * 24)
        var starts: [UInt32] = []
        var lengths: [UInt16] = []
        var entries: [UInt32] = []
        starts.reserveCapacity(n * 4)
        lengths.reserveCapacity(n * 4)
        entries.reserveCapacity(n * 4)
        var folded: [UInt8] = []
        var seen: [(Int, Int)] = []  // this entry's keys so far (start, length), to drop repeats
        for i in 0..<n {
            let k = source.kind(i)
            kind[i] = Self.kindCode(k)
            let population = max(0, source.population(i))
            prominence[i] = Float(population) * Ranking.weight(k)
            if let r = source.region(i), r >= 0, r < n { region[i] = Int32(r) }
            let (x, y, z) = Self.unitVector(latitude: source.latitude(i), longitude: source.longitude(i))
            unitX[i] = x
            unitY[i] = y
            unitZ[i] = z
            seen.removeAll(keepingCapacity: true)
            var flag: UInt16 = 0  // the first name is the entry's own, the others alternates
            source.forEachName(i) { name in
                defer { flag = Self.alternateFlag }
                NameFolding.fold(utf8: name, into: &folded)
                if folded.count > Self.maxKeyBytes { folded.removeSubrange(Self.maxKeyBytes...) }
                if folded.isEmpty { return }
                if seen.contains(where: { $0.1 == folded.count && bytes[$0.0..<($0.0 + $0.1)].elementsEqual(folded) }) {
                    return
                }
                let start = bytes.count
                seen.append((start, folded.count))
                bytes.append(contentsOf: folded)
                starts.append(UInt32(start))
                lengths.append(UInt16(folded.count) | flag)
                entries.append(UInt32(i))
                // Each later word as a key of its own, so that "york" finds "new york".
                for p in 1..<folded.count where folded[p - 1] == 0x20 && folded[p] != 0x20 {
                    starts.append(UInt32(start + p))
                    lengths.append(UInt16(folded.count - p) | Self.wordFlag | flag)
                    entries.append(UInt32(i))
                }
            }
        }
        let order = Self.sortedOrder(bytes: bytes, starts: starts, lengths: lengths)
        self.keyStart = order.map { starts[Int($0)] }
        self.keyLength = order.map { lengths[Int($0)] }
        self.keyEntry = order.map { entries[Int($0)] }
        self.bytes = bytes
        (self.fuzzyKey, self.fuzzyMask, self.fuzzyLengthStart) = Self.fuzzyTable(
            bytes: bytes, keyStart: keyStart, keyLength: keyLength)
        self.kind = kind
        self.prominence = prominence
        // Dense region numbers, so that a search can keep a small array per region.
        var slots = [Int32](repeating: -1, count: n)
        var regionCount: Int32 = 0
        for i in 0..<n where kind[i] == 1 {
            slots[i] = regionCount
            regionCount += 1
        }
        for i in 0..<n where kind[i] == 0 && region[i] >= 0 && kind[Int(region[i])] == 1 {
            slots[i] = slots[Int(region[i])]
        }
        self.regionSlot = slots
        self.regionCount = Int(regionCount)
        self.unitX = unitX
        self.unitY = unitY
        self.unitZ = unitZ
    }

    /// The number of keys (names, alternate names and their later words).
    public var keyCount: Int { keyStart.count }

    /// Approximate bytes held by the index (not counting the gazetteer itself).
    public var approximateBytes: Int {
        bytes.count + keyStart.count * 10 + fuzzyKey.count * 8 + kind.count * (1 + 4 * 5)
    }

    static func kindCode(_ k: GazetteerKind) -> UInt8 {
        switch k {
        case .city: 0
        case .region: 1
        case .country: 2
        case .continent: 3
        }
    }

    static func unitVector(latitude: Double, longitude: Double) -> (Float, Float, Float) {
        guard latitude.isFinite, longitude.isFinite else { return (0, 0, 0) }
        let la = latitude * .pi / 180
        let lo = longitude * .pi / 180
        return (Float(cos(la) * cos(lo)), Float(cos(la) * sin(lo)), Float(sin(la)))
    }

    /// Key order: by bytes, shorter first on a common prefix; whole names before word keys
    /// and then by entry on equal bytes (a stable order, the same on every device).
    private static func sortedOrder(bytes: [UInt8], starts: [UInt32], lengths: [UInt16]) -> [UInt32] {
        // The first 8 bytes, big-endian, decide most comparisons without touching `bytes`.
        var items = [(head: UInt64, key: UInt32)](repeating: (0, 0), count: starts.count)
        bytes.withUnsafeBufferPointer { b in
            for k in 0..<starts.count {
                let s = Int(starts[k])
                let len = Int(lengths[k] & lengthMask)
                var h: UInt64 = 0
                for j in 0..<8 { h = (h << 8) | UInt64(j < len ? b[s + j] : 0) }
                items[k] = (h, UInt32(k))
            }
            // Radix sort on the heads (four 16-bit digits, least significant first; stable),
            // then each run of equal heads by the rest of its bytes.
            var other = items
            var counts = [Int](repeating: 0, count: 65_537)
            for shift in stride(from: 0, to: 64, by: 16) {
                for i in 0..<counts.count { counts[i] = 0 }
                for item in items { counts[Int((item.head >> UInt64(shift)) & 0xFFFF) + 1] += 1 }
                if counts[1...].contains(items.count) { continue }  // one value: already in order
                for i in 1..<counts.count { counts[i] += counts[i - 1] }
                for item in items {
                    let digit = Int((item.head >> UInt64(shift)) & 0xFFFF)
                    other[counts[digit]] = item
                    counts[digit] += 1
                }
                swap(&items, &other)
            }
            var runStart = 0
            while runStart < items.count {
                var runEnd = runStart + 1
                while runEnd < items.count, items[runEnd].head == items[runStart].head { runEnd += 1 }
                if runEnd - runStart > 1 {
                    items[runStart..<runEnd].sort { x, y in
                        let a = Int(x.key)
                        let c = Int(y.key)
                        let order = compare(
                            b, Int(starts[a]), Int(lengths[a] & lengthMask), b, Int(starts[c]),
                            Int(lengths[c] & lengthMask))
                        if order != 0 { return order < 0 }
                        if lengths[a] != lengths[c] { return lengths[a] < lengths[c] }
                        return a < c
                    }
                }
                runStart = runEnd
            }
        }
        return items.map(\.key)
    }

    /// -1, 0 or 1, comparing bytes and then lengths.
    @inline(__always)
    static func compare(
        _ a: UnsafeBufferPointer<UInt8>, _ aStart: Int, _ aLength: Int, _ b: UnsafeBufferPointer<UInt8>,
        _ bStart: Int, _ bLength: Int
    ) -> Int {
        let m = min(aLength, bLength)
        var j = 0
        while j < m {
            let x = a[aStart + j]
            let y = b[bStart + j]
            if x != y { return x < y ? -1 : 1 }
            j += 1
        }
        return aLength == bLength ? 0 : (aLength < bLength ? -1 : 1)
    }

    private static func fuzzyTable(bytes: [UInt8], keyStart: [UInt32], keyLength: [UInt16]) -> (
        [UInt32], [UInt32], [Int32]
    ) {
        var countByLength = [Int32](repeating: 0, count: maxKeyBytes + 2)
        for l in keyLength where l & wordFlag == 0 { countByLength[Int(l & lengthMask)] += 1 }
        var lengthStart = [Int32](repeating: 0, count: maxKeyBytes + 2)
        var total: Int32 = 0
        for l in 0...maxKeyBytes {
            lengthStart[l] = total
            total += countByLength[l]
        }
        lengthStart[maxKeyBytes + 1] = total
        var next = lengthStart
        var keys = [UInt32](repeating: 0, count: Int(total))
        var masks = [UInt32](repeating: 0, count: Int(total))
        bytes.withUnsafeBufferPointer { b in
            for k in 0..<keyStart.count where keyLength[k] & wordFlag == 0 {
                let l = Int(keyLength[k] & lengthMask)
                let slot = Int(next[l])
                next[l] += 1
                keys[slot] = UInt32(k)
                masks[slot] = letterMask(b, Int(keyStart[k]), l)
            }
        }
        return (keys, masks, lengthStart)
    }

    /// One bit per letter a–z, one for digits, one for a space, one for anything else.
    @inline(__always)
    static func letterMask(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> UInt32 {
        var m: UInt32 = 0
        for j in start..<(start + length) {
            let c = b[j]
            if c >= 0x61, c <= 0x7A {
                m |= 1 << UInt32(c - 0x61)
            } else if c >= 0x30, c <= 0x39 {
                m |= 1 << 26
            } else if c == 0x20 {
                m |= 1 << 27
            } else {
                m |= 1 << 28
            }
        }
        return m
    }
}
