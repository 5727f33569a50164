/// Fractional indexes order list items (places to go, favorites) without renumbering:
/// a key is a non-empty string over the digits `0-9a-z` (base 36), compared bytewise, that
/// never ends in `0`, so there is always room between two keys. Moving an item is one LWW
/// write of its key; concurrent inserts at the same spot may pick equal keys and are then
/// ordered by entity id.
public enum FractionalIndex {
    private static let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
    private static let base = 36

    private static func value(_ c: UInt8) -> Int {
        switch c {
        case 48...57: Int(c) - 48
        case 97...122: Int(c) - 87
        default: 0
        }
    }

    /// Whether `key` is a well-formed index.
    public static func isValid(_ key: String) -> Bool {
        let u = Array(key.utf8)
        guard !u.isEmpty, u.count <= maxLength, u.last != 48 else { return false }
        return u.allSatisfy { (48...57).contains($0) || (97...122).contains($0) }
    }

    /// A key strictly between `lower` and `upper` (nil means the open end). Requires
    /// `lower < upper` when both are given.
    public static func between(_ lower: String?, _ upper: String?) -> String {
        if let lower, upper == nil { return after(lower) }
        let a = Array((lower ?? "").utf8)
        let b: [UInt8]? = upper.map { Array($0.utf8) }
        var out = [UInt8]()
        var i = 0
        while true {
            let da = i < a.count ? value(a[i]) : 0
            let db: Int = {
                guard let b else { return base }
                return i < b.count ? value(b[i]) : base
            }()
            if da == db {
                out.append(digits[da])
                i += 1
                continue
            }
            // db > da here (lower < upper).
            if db - da > 1 {
                out.append(digits[(da + db) / 2])
                return String(decoding: out, as: UTF8.self)
            }
            // Adjacent digits: keep lower's digit and find room after it.
            out.append(digits[da])
            i += 1
            // From here the upper bound is open.
            var j = i
            while true {
                let dj = j < a.count ? value(a[j]) : 0
                if dj < base - 1 {
                    out.append(digits[(dj + base) / 2])
                    return String(decoding: out, as: UTF8.self)
                }
                out.append(digits[dj])
                j += 1
            }
        }
    }

    /// The longest key `isValid` accepts (and peers take).
    public static let maxLength = 256

    /// A short key after `key`, such that appending item after item to a list grows keys
    /// logarithmically: 100,000 appends end at 7 characters.
    ///
    /// Keys are read as `m` leading `z`s (the key's class) and a block of `m + 1` digits that
    /// does not start with `z`: class 0 is `1`…`y`, class 1 `z01`…`zyz`, class 2
    /// `zz001`…`zzyzz`, and so on, each class 36 times larger than the one before. The key
    /// after is the block plus one (a shorter block is read padded with `0`s, a longer one
    /// cut to `m + 1` digits), with trailing `0`s dropped; a block that would start with `z`
    /// moves on to the first key of the next class (`y` → `z01`, `zyz` → `zz001`).
    static func after(_ key: String) -> String {
        let u = Array(key.utf8)
        let m = u.prefix { $0 == digits[base - 1] }.count
        var block = u[m...].prefix(m + 1).map(value)
        block += repeatElement(0, count: m + 1 - block.count)
        // Add one, carrying from the last digit.
        var i = block.count - 1
        while i >= 0 && block[i] == base - 1 {
            block[i] = 0
            i -= 1
        }
        var out: [UInt8]
        if i > 0 || (i == 0 && block[0] + 1 < base - 1) {
            block[i] += 1
            out = Array(u[..<m]) + block.map { digits[$0] }
        } else {
            // The class is full: the first key of the next one.
            out = Array(repeating: digits[base - 1], count: m + 1) + Array(repeating: digits[0], count: m + 1)
            out.append(digits[1])
        }
        while out.last == digits[0] { out.removeLast() }
        // Keys from before this scheme (`zz…zd`, one character more per 35 appends) would
        // get a block as long as their run of `z`s: past the limit, bump the first digit
        // below `z` instead (or append `1` to a key of only `z`s), which keeps such a key
        // about as short as it was.
        if out.count > maxLength {
            guard let j = u.firstIndex(where: { value($0) < base - 1 }) else {
                return String(decoding: u + [digits[1]], as: UTF8.self)
            }
            return String(decoding: u[..<j] + [digits[value(u[j]) + 1]], as: UTF8.self)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `count` keys for a whole list at once (a new itinerary's places, a reorder), in
    /// ascending order: evenly spaced values of the fewest digits that leave at least one
    /// free value between neighbours, so that later inserts anywhere stay short.
    public static func spread(_ count: Int) -> [String] {
        guard count > 0 else { return [] }
        var length = 1, space = base
        while space < 2 * (count + 1) {
            length += 1
            space *= base
        }
        return (1...count).map { i in
            var v = i * (space / (count + 1)) + i * (space % (count + 1)) / (count + 1)
            var out = [UInt8](repeating: digits[0], count: length)
            for j in stride(from: length - 1, through: 0, by: -1) {
                out[j] = digits[v % base]
                v /= base
            }
            while out.last == digits[0] { out.removeLast() }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
