extension GazetteerIndex {
    /// The most edits a fuzzy match may need for a folded query of `length` bytes: none
    /// under 5 (too many short names are one edit apart), one from 5, two from 9.
    static func allowedEdits(queryLength length: Int) -> Int {
        length >= 9 ? 2 : (length >= 5 ? 1 : 0)
    }

    /// Whole-name keys within the allowed edits of `query` but not equal to it: (entry,
    /// edits), in key order.
    func fuzzyMatches(_ query: UnsafeBufferPointer<UInt8>, bytes b: UnsafeBufferPointer<UInt8>) -> [(
        entry: Int, edits: Int
    )] {
        let n = query.count
        // Typos are allowed by the query's length in characters (user-perceived: a letter
        // with its marks is one), not bytes ("o東京" is three characters: no typo), while the
        // edit distance below counts bytes.
        let characters = String(decoding: query, as: UTF8.self).count
        let k = Self.allowedEdits(queryLength: characters)
        guard k > 0 else { return [] }
        let queryMask = Self.letterMask(query, 0, n)
        var found: [(entry: Int, edits: Int)] = []
        for length in max(1, n - k)...min(Self.maxKeyBytes, n + k) {
            for slot in Int(fuzzyLengthStart[length])..<Int(fuzzyLengthStart[length + 1]) {
                let mask = fuzzyMask[slot]
                // Each edit brings at most one letter the other side lacks.
                if (mask & ~queryMask).nonzeroBitCount > k || (queryMask & ~mask).nonzeroBitCount > k { continue }
                let key = Int(fuzzyKey[slot])
                let edits = Self.editDistance(query, b, Int(keyStart[key]), length, atMost: k)
                if edits >= 1, edits <= k { found.append((Int(keyEntry[key]), edits)) }
            }
        }
        return found
    }

    /// The optimal-string-alignment distance (insertions, deletions, substitutions and
    /// transpositions of neighbours) between `a` and `b[start..<start+m]`, or `limit + 1`
    /// as soon as it must exceed `limit`.
    static func editDistance(
        _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ m: Int, atMost limit: Int
    ) -> Int {
        let n = a.count
        if abs(n - m) > limit { return limit + 1 }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * (m + 1)) { rows in
            var before = 0  // row i-2
            var previous = m + 1  // row i-1
            var current = 2 * (m + 1)  // row i
            for j in 0...m { rows[previous + j] = j }
            for i in 1...max(n, 1) where n > 0 {
                rows[current] = i
                var rowMin = i
                let ai = a[i - 1]
                for j in 1...max(m, 1) where m > 0 {
                    let bj = b[start + j - 1]
                    var v = min(rows[previous + j] + 1, rows[current + j - 1] + 1)
                    v = min(v, rows[previous + j - 1] + (ai == bj ? 0 : 1))
                    if i > 1, j > 1, ai == b[start + j - 2], a[i - 2] == bj {
                        v = min(v, rows[before + j - 2] + 1)
                    }
                    rows[current + j] = v
                    rowMin = min(rowMin, v)
                }
                if rowMin > limit { return limit + 1 }
                (before, previous, current) = (previous, current, before)
            }
            return n == 0 ? m : rows[previous + m]
        }
    }
}
