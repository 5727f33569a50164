/// The spot of the day: one of a destination's places, picked from the date and the
/// destination alone, so that every device of one person shows the same spot all day and
/// another the next day (`docs/destinations.md`).
public enum SpotOfTheDay {
    /// The index into `candidates` (place ids; their order does not matter) of the day's
    /// spot, nil when there is none. Candidates are ranked by a 64-bit FNV-1a hash of
    /// `date|destination|place id`: a stable hash (Swift's `Hasher` is seeded per process),
    /// and one that moves each place independently from one day to the next.
    public static func pick(date: String, destination: String, candidates: [String]) -> Int? {
        var best: (index: Int, score: UInt64)?
        for (i, id) in candidates.enumerated() {
            let score = fnv1a("\(date)|\(destination)|\(id)")
            if best.map({ score < $0.score || (score == $0.score && id < candidates[$0.index]) }) ?? true {
                best = (i, score)
            }
        }
        return best?.index
    }

    /// 64-bit FNV-1a of the UTF-8 bytes, finished with SplitMix64's mixer (FNV alone moves
    /// little when only the last characters differ).
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0100_0000_01b3
        }
        var z = hash &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
