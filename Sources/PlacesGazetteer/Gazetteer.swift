import Foundation

/// What a gazetteer entry is. The raw values are the prefixes of the entries' ids
/// (`city:2267057`, `region:PT.14`, `country:PT`, `continent:EU`).
public enum GazetteerKind: String, Sendable, CaseIterable {
    case city, region, country, continent
}

/// The whole gazetteer: continents, countries, first-level regions and cities of at least
/// 5,000 people (GeoNames), loaded once from `gazetteer.tsv` (docs/discover.md, "Gazetteer
/// data") and never changed.
///
/// Entries are numbered `0..<count` in file order: continents, then countries, then
/// regions, then cities (cities by ascending GeoNames id). Every accessor takes such an
/// index and traps on one out of range, like an array: indices come from this gazetteer
/// (`index(ofID:)`, a search), never from a peer.
///
/// It is kept as a struct of arrays, with every name and alternate name in one UTF-8
/// buffer, so that ~73,000 entries with ~400,000 names cost a few megabytes and no
/// per-name allocation; `name(_:)` and `alternateNames(_:)` make their strings on demand.
public final class Gazetteer: Sendable {
    /// Where each kind's entries start and end (file order: continents, countries,
    /// regions, cities).
    let continents: Range<Int>
    let countries: Range<Int>
    let regions: Range<Int>
    let cities: Range<Int>

    /// Names and alternates: entry `i`'s name is `text[textStart[i]..<alternatesStart[i]]`,
    /// its alternates, joined by `|`, `text[alternatesStart[i]..<textStart[i + 1]]`.
    let text: [UInt8]
    let textStart: [UInt32]
    let alternatesStart: [UInt32]

    /// Coordinates in units of 1e-4 degree (the file's four decimals, exactly).
    let latitudeE4: [Int32]
    let longitudeE4: [Int32]
    let populations: [Int64]
    /// The index of the entry this one lies in: a country's continent, a region's country,
    /// a city's region (or its country when GeoNames gives it no known region); -1 for a
    /// continent.
    let parents: [Int32]
    /// The GeoNames ids of the cities, ascending (`cities` order), for `index(ofID:)`.
    let cityIDs: [UInt32]
    /// The codes of the other entries (`EU`, `PT`, `PT.14`), in entry order.
    let codes: [String]
    /// Continent, country and region ids to their index.
    let codeIndex: [String: Int]

    init(
        continents: Range<Int>, countries: Range<Int>, regions: Range<Int>, cities: Range<Int>,
        text: [UInt8], textStart: [UInt32], alternatesStart: [UInt32],
        latitudeE4: [Int32], longitudeE4: [Int32], populations: [Int64], parents: [Int32],
        cityIDs: [UInt32], codes: [String]
    ) {
        self.continents = continents
        self.countries = countries
        self.regions = regions
        self.cities = cities
        self.text = text
        self.textStart = textStart
        self.alternatesStart = alternatesStart
        self.latitudeE4 = latitudeE4
        self.longitudeE4 = longitudeE4
        self.populations = populations
        self.parents = parents
        self.cityIDs = cityIDs
        self.codes = codes
        var index: [String: Int] = [:]
        index.reserveCapacity(codes.count)
        for (i, code) in codes.enumerated() {
            let kind: GazetteerKind =
                i < continents.upperBound ? .continent : i < countries.upperBound ? .country : .region
            index["\(kind.rawValue):\(code)"] = i
        }
        codeIndex = index
    }

    /// The attribution GeoNames' licence asks for, to show beside results and in `--version`.
    public static let attribution = "Place names: GeoNames (geonames.org), CC BY 4.0"

    /// The number of entries.
    public var count: Int { cities.upperBound }

    /// Entry `i`'s kind.
    public func kind(_ i: Int) -> GazetteerKind {
        precondition(i >= 0 && i < count, "gazetteer index out of range")
        if i >= cities.lowerBound { return .city }
        if i >= regions.lowerBound { return .region }
        if i >= countries.lowerBound { return .country }
        return .continent
    }

    /// Entry `i`'s id: `city:2267057`, `region:PT.14`, `country:PT` or `continent:EU`.
    public func id(_ i: Int) -> String {
        if i >= cities.lowerBound { return "city:\(cityIDs[i - cities.lowerBound])" }
        return "\(kind(i).rawValue):\(codes[i])"
    }

    /// Entry `i`'s name (GeoNames' own, in its usual script: "Lisbon", "München" is
    /// "Munich", "Île-de-France").
    public func name(_ i: Int) -> String {
        string(Int(textStart[i])..<Int(alternatesStart[i]))
    }

    /// Entry `i`'s other names in Latin script ("Lisboa", "Lissabon", …), none folding to
    /// the name or to each other.
    public func alternateNames(_ i: Int) -> [String] {
        let start = Int(alternatesStart[i])
        let end = Int(textStart[i + 1])
        guard start < end else { return [] }
        var names: [String] = []
        var from = start
        for j in start..<end where text[j] == UInt8(ascii: "|") {
            names.append(string(from..<j))
            from = j + 1
        }
        names.append(string(from..<end))
        return names
    }

    /// Entry `i`'s latitude in degrees (a region's or country's: the population-weighted
    /// centre of its cities).
    public func latitude(_ i: Int) -> Double { Double(latitudeE4[i]) / 10_000 }

    /// Entry `i`'s longitude in degrees.
    public func longitude(_ i: Int) -> Double { Double(longitudeE4[i]) / 10_000 }

    /// Entry `i`'s population (a region's: the sum of its cities of at least 1,000 people).
    public func population(_ i: Int) -> Int64 { populations[i] }

    /// The ISO 3166 alpha-2 code of the country entry `i` is or lies in; nil for a continent.
    public func countryCode(_ i: Int) -> String? {
        country(i).map { codes[$0] }
    }

    /// The index of the region a city lies in (nil when GeoNames gives none we know, and
    /// for other kinds).
    public func region(_ i: Int) -> Int? {
        guard i >= cities.lowerBound else { return nil }
        let p = Int(parents[i])
        return regions.contains(p) ? p : nil
    }

    /// The index of the country entry `i` is or lies in (itself for a country; nil for a
    /// continent).
    public func country(_ i: Int) -> Int? {
        var j = i
        // At most two steps up: city → region → country.
        for _ in 0..<3 {
            if countries.contains(j) { return j }
            if continents.contains(j) { return nil }
            j = Int(parents[j])
        }
        return nil
    }

    /// The index of the continent entry `i` is or lies in (itself for a continent).
    public func continent(_ i: Int) -> Int? {
        var j = i
        for _ in 0..<4 {
            if continents.contains(j) { return j }
            guard j >= 0 else { return nil }
            j = Int(parents[j])
        }
        return nil
    }

    /// The index of the entry with this id (`city:2267057`, `region:PT.14`, `country:PT`,
    /// `continent:EU`), or nil when there is none: any string may come in, from a peer or
    /// a request.
    public func index(ofID id: String) -> Int? {
        let city = "city:"
        guard id.hasPrefix(city) else { return codeIndex[id] }
        let digits = id.utf8.dropFirst(city.utf8.count)
        guard (1...10).contains(digits.count), digits.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let value = UInt32(Substring(digits))
        else { return nil }
        // Binary search: the cities are stored by ascending GeoNames id.
        var low = 0
        var high = cityIDs.count
        while low < high {
            let mid = (low + high) / 2
            if cityIDs[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low < cityIDs.count && cityIDs[low] == value ? cities.lowerBound + low : nil
    }

    private func string(_ range: Range<Int>) -> String {
        text.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }
}
