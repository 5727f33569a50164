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
        guard !u.isEmpty, u.count <= 256, u.last != 48 else { return false }
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

    /// A short key after `key`: bump its first digit below `z` and drop the rest, so that
    /// appending to a list grows keys by one character only every ~35 appends.
    static func after(_ key: String) -> String {
        var u = Array(key.utf8)
        for i in u.indices where value(u[i]) < base - 1 {
            u[i] = digits[value(u[i]) + 1]
            return String(decoding: u[...i], as: UTF8.self)
        }
        u.append(digits[1])
        return String(decoding: u, as: UTF8.self)
    }

    /// `count` evenly spread keys for an initial list, in ascending order.
    public static func spread(_ count: Int) -> [String] {
        var keys = [String]()
        var previous: String? = nil
        for _ in 0..<count {
            let k = between(previous, nil)
            keys.append(k)
            previous = k
        }
        return keys
    }
}
