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
}
