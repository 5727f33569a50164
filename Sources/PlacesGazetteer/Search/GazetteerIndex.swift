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
    /// Sorted keys: start in `bytes`, length (bit 15 set for a word-suffix key), entry.
    let keyStart: [UInt32]
    let keyLength: [UInt16]
    let keyEntry: [UInt32]
    /// Whole-name keys (positions in the sorted arrays) grouped by length:
    /// `fuzzyKey[fuzzyLengthStart[n]..<fuzzyLengthStart[n + 1]]` have length n.
    let fuzzyKey: [UInt32]
    let fuzzyMask: [UInt32]
    let fuzzyLengthStart: [Int32]
    /// Per entry: kind (`kindCode`), population × kind weight, region entry (-1: none),
    /// position on the unit sphere.
    let kind: [UInt8]
    let prominence: [Float]
    let region: [Int32]
    let unitX: [Float]
    let unitY: [Float]
    let unitZ: [Float]

    static let wordFlag: UInt16 = 0x8000
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
            let alternates = source.alternateNames(i)
            for nameIndex in -1..<alternates.count {
                NameFolding.fold(nameIndex < 0 ? source.name(i) : alternates[nameIndex], into: &folded)
                if folded.count > Self.maxKeyBytes { folded.removeSubrange(Self.maxKeyBytes...) }
                if folded.isEmpty { continue }
                if seen.contains(where: { $0.1 == folded.count && bytes[$0.0..<($0.0 + $0.1)].elementsEqual(folded) }) {
                    continue
                }
                let start = bytes.count
                seen.append((start, folded.count))
                bytes.append(contentsOf: folded)
                starts.append(UInt32(start))
                lengths.append(UInt16(folded.count))
                entries.append(UInt32(i))
                // Each later word as a key of its own, so that "york" finds "new york".
                for p in 1..<folded.count where folded[p - 1] == 0x20 && folded[p] != 0x20 {
                    starts.append(UInt32(start + p))
                    lengths.append(UInt16(folded.count - p) | Self.wordFlag)
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
        self.region = region
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
        var heads = [UInt64](repeating: 0, count: starts.count)
        bytes.withUnsafeBufferPointer { b in
            for k in 0..<starts.count {
                let s = Int(starts[k])
                let len = Int(lengths[k] & ~wordFlag)
                var h: UInt64 = 0
                for j in 0..<8 { h = (h << 8) | UInt64(j < len ? b[s + j] : 0) }
                heads[k] = h
            }
        }
        var order = (0..<UInt32(starts.count)).map { $0 }
        bytes.withUnsafeBufferPointer { b in
            order.sort { x, y in
                let hx = heads[Int(x)]
                let hy = heads[Int(y)]
                if hx != hy { return hx < hy }
                let c = compare(
                    b, Int(starts[Int(x)]), Int(lengths[Int(x)] & ~wordFlag), b, Int(starts[Int(y)]),
                    Int(lengths[Int(y)] & ~wordFlag))
                if c != 0 { return c < 0 }
                if lengths[Int(x)] != lengths[Int(y)] { return lengths[Int(x)] < lengths[Int(y)] }
                return x < y
            }
        }
        return order
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
        for l in keyLength where l & wordFlag == 0 { countByLength[Int(l)] += 1 }
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
                let l = Int(keyLength[k])
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
