/// Where each key of a short list is, for the lists of one op (the entities it touches, the
/// fields it sets on one): a scan of the keys while there are at most `scanLimit`, so that
/// the usual op (one entity, a few fields) hashes no string and allocates no table; a
/// dictionary past that, so that an op of thousands of changes stays linear.
struct SlotIndex<Key: Hashable> {
    /// The keys in the order they were added: key `i` is in slot `i`.
    private(set) var keys: [Key] = []
    private var table: [Key: Int]? = nil
    static var scanLimit: Int { 8 }

    /// The slot of `key`, nil when it has none.
    func slot(of key: Key) -> Int? {
        if let table { return table[key] }
        return keys.firstIndex(of: key)
    }

    /// Adds `key`, which has no slot yet, in the next slot and returns that slot.
    mutating func add(_ key: Key) -> Int {
        keys.append(key)
        let slot = keys.count - 1
        if table != nil {
            table?[key] = slot
        } else if keys.count > Self.scanLimit {
            table = Dictionary(uniqueKeysWithValues: zip(keys, keys.indices))
        }
        return slot
    }
}
