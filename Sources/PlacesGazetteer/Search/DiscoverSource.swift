/// What ``GazetteerIndex`` reads from a gazetteer: `Gazetteer` conforms, and tests build
/// small ones of their own.
///
/// Entries are numbered `0..<count`; `region(i)` is the index of the region entry that
/// contains city `i` (nil for anything else or when unknown).
public protocol DiscoverSource: Sendable {
    /// The number of entries.
    var count: Int { get }
    /// Entry `i`'s kind.
    func kind(_ i: Int) -> GazetteerKind
    /// Entry `i`'s id, such as `city:2267057`.
    func id(_ i: Int) -> String
    /// Entry `i`'s name.
    func name(_ i: Int) -> String
    /// Entry `i`'s other names (exonyms, native names).
    func alternateNames(_ i: Int) -> [String]
    /// Entry `i`'s latitude in degrees.
    func latitude(_ i: Int) -> Double
    /// Entry `i`'s longitude in degrees.
    func longitude(_ i: Int) -> Double
    /// Entry `i`'s population (0 when unknown).
    func population(_ i: Int) -> Int64
    /// The index of the region entry that contains city `i`.
    func region(_ i: Int) -> Int?
    /// The entry with this id.
    func index(ofID id: String) -> Int?
    /// Calls `body` with the UTF-8 of entry `i`'s name, then of each alternate name (the
    /// index's build reads every name this way; the default makes Strings).
    func forEachName(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void)
}

extension DiscoverSource {
    public func forEachName(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        for var name in [self.name(i)] + alternateNames(i) {
            name.withUTF8(body)
        }
    }
}

extension Gazetteer: DiscoverSource {
    /// Straight from the gazetteer's buffer (`name|alternate|…`), without a String per name:
    /// a third of the index's build time otherwise.
    public func forEachName(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let start = Int(textStart[i])
        let split = Int(alternatesStart[i])
        let end = Int(textStart[i + 1])
        text.withUnsafeBufferPointer { b in
            body(UnsafeBufferPointer(rebasing: b[start..<split]))
            guard split < end else { return }
            var from = split
            for j in split..<end where b[j] == UInt8(ascii: "|") {
                body(UnsafeBufferPointer(rebasing: b[from..<j]))
                from = j + 1
            }
            body(UnsafeBufferPointer(rebasing: b[from..<end]))
        }
    }
}
