/// One pass over the file's bytes: no `String` per line or field, so that 5 MB load in a
/// few tens of milliseconds.
struct GazetteerParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    var position = 0
    var line = 0

    init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
        self.bytes = bytes
        self.file = file
    }

    func fail(_ message: String) -> GazetteerError {
        GazetteerError(.malformed, "\(file), line \(line): \(message)", line: line)
    }

    /// The next line that is not a `#` comment, without its newline; nil at the end.
    mutating func nextLine() -> Range<Int>? {
        while position < bytes.count {
            line += 1
            let start = position
            var end = start
            while end < bytes.count && bytes[end] != 10 { end += 1 }
            position = end + 1
            if end > start && bytes[start] == UInt8(ascii: "#") { continue }
            return start..<end
        }
        return nil
    }

    /// The line's tab-separated fields; exactly `count` of them or an error.
    func fields(_ range: Range<Int>, count: Int) throws -> [Range<Int>] {
        var result: [Range<Int>] = []
        result.reserveCapacity(count)
        var from = range.lowerBound
        for j in range where bytes[j] == 9 {
            result.append(from..<j)
            from = j + 1
            guard result.count < count else { break }
        }
        result.append(from..<range.upperBound)
        guard result.count == count else {
            throw fail(
                "expected \(count) tab-separated fields, found \(result.count > count ? "more" : "\(result.count)")")
        }
        return result
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// A non-negative decimal integer of at most `maxDigits` digits, without sign or
    /// leading zeros (but "0").
    func integer(_ range: Range<Int>, _ what: String, maxDigits: Int = 18) throws -> Int64 {
        guard !range.isEmpty, range.count <= maxDigits, range.count == 1 || bytes[range.lowerBound] != 48 else {
            throw fail("\(what) must be a whole number without leading zeros, not '\(string(range))'")
        }
        var value: Int64 = 0
        for j in range {
            let d = bytes[j] &- 48
            guard d < 10 else { throw fail("\(what) must be a whole number, not '\(string(range))'") }
            value = value * 10 + Int64(d)  // ≤ 18 digits: cannot overflow
        }
        return value
    }

    /// A coordinate with at most four decimals, in units of 1e-4 degree, within ±`limit`.
    func coordinate(_ range: Range<Int>, _ what: String, limit: Int32) throws -> Int32 {
        var j = range.lowerBound
        let negative = j < range.upperBound && bytes[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        var whole: Int32 = 0
        var digits = 0
        while j < range.upperBound, bytes[j] &- 48 < 10, digits < 3 {
            whole = whole * 10 + Int32(bytes[j] &- 48)
            digits += 1
            j += 1
        }
        var fraction: Int32 = 0
        var decimals = 0
        if digits > 0, j < range.upperBound, bytes[j] == UInt8(ascii: ".") {
            j += 1
            while j < range.upperBound, bytes[j] &- 48 < 10, decimals < 4 {
                fraction = fraction * 10 + Int32(bytes[j] &- 48)
                decimals += 1
                j += 1
            }
            if decimals == 0 { digits = 0 }
        }
        guard digits > 0, j == range.upperBound else {
            throw fail("\(what) must be degrees with at most four decimals, not '\(string(range))'")
        }
        for _ in decimals..<4 { fraction *= 10 }
        let value = whole * 10_000 + fraction  // ≤ 999.9999e4: fits
        guard value <= limit * 10_000 else { throw fail("\(what) \(string(range)) is beyond ±\(limit)°") }
        return negative ? -value : value
    }

    /// Whether a code is 1...`max` uppercase ASCII letters or digits (letters only if `letters`).
    func isCode(_ range: Range<Int>, length: ClosedRange<Int>, letters: Bool) -> Bool {
        guard length.contains(range.count) else { return false }
        return range.allSatisfy { j in
            let b = bytes[j]
            return (b >= 65 && b <= 90) || (!letters && b >= 48 && b <= 57)
        }
    }
}

extension GazetteerParser {
    /// The header, then continents, countries, regions and cities, each `code TAB name TAB
    /// latitude TAB longitude TAB population TAB parent TAB alternates`.
    mutating func parse() throws -> Gazetteer {
        guard let header = nextLine() else { throw fail("empty file: not a gazetteer") }
        let head = try fields(header, count: 6)
        guard string(head[0]) == Gazetteer.magic else {
            throw fail("not a gazetteer: the first line must start with '\(Gazetteer.magic)'")
        }
        guard string(head[1]) == String(Gazetteer.formatVersion) else {
            throw fail("gazetteer format \(string(head[1])), this build reads format \(Gazetteer.formatVersion)")
        }
        var counts: [Int] = []
        for (k, what) in ["continents", "countries", "regions", "cities"].enumerated() {
            let n = try integer(head[2 + k], "the number of \(what)", maxDigits: 7)
            guard n <= Gazetteer.maxEntriesPerKind else { throw fail("\(n) \(what) is more than a gazetteer holds") }
            counts.append(Int(n))
        }
        let total = counts.reduce(0, +)
        var builder = Builder(capacity: total, textCapacity: bytes.count)
        let kinds: [GazetteerKind] = [.continent, .country, .region, .city]
        for (k, kind) in kinds.enumerated() {
            for _ in 0..<counts[k] {
                guard let record = nextLine() else {
                    throw fail(
                        "the file ends after \(builder.count) of \(total) entries (the header promises \(counts[k]) \(kind)s)"
                    )
                }
                try readRecord(record, kind: kind, into: &builder)
            }
        }
        while let extra = nextLine() {
            guard extra.isEmpty else { throw fail("more entries than the header's \(total)") }
        }
        let ends = counts.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1) }
        builder.textStart.append(UInt32(builder.text.count))
        return Gazetteer(
            continents: ends[0]..<ends[1], countries: ends[1]..<ends[2], regions: ends[2]..<ends[3],
            cities: ends[3]..<ends[4], text: builder.text, textStart: builder.textStart,
            alternatesStart: builder.alternatesStart, latitudeE4: builder.latitudes, longitudeE4: builder.longitudes,
            populations: builder.populations, parents: builder.parents, cityIDs: builder.cityIDs, codes: builder.codes)
    }

    /// The arrays being filled, and the codes seen so far (parents come before children).
    struct Builder {
        var text: [UInt8] = []
        var textStart: [UInt32] = []
        var alternatesStart: [UInt32] = []
        var latitudes: [Int32] = []
        var longitudes: [Int32] = []
        var populations: [Int64] = []
        var parents: [Int32] = []
        var cityIDs: [UInt32] = []
        var codes: [String] = []
        var seen: [String: Int32] = [:]
        var count: Int { parents.count }

        init(capacity n: Int, textCapacity: Int) {
            textStart.reserveCapacity(n + 1)
            alternatesStart.reserveCapacity(n)
            latitudes.reserveCapacity(n)
            longitudes.reserveCapacity(n)
            populations.reserveCapacity(n)
            parents.reserveCapacity(n)
            text.reserveCapacity(textCapacity)
        }
    }

    mutating func readRecord(_ record: Range<Int>, kind: GazetteerKind, into b: inout Builder) throws {
        let f = try fields(record, count: 7)
        let code = f[0]
        let parentCode = string(f[5])
        var parent: Int32 = -1
        switch kind {
        case .continent:
            guard isCode(code, length: 2...2, letters: true) else {
                throw fail("a continent code is two capital letters")
            }
            guard f[5].isEmpty else { throw fail("a continent lies in nothing: its parent field must be empty") }
        case .country:
            guard isCode(code, length: 2...2, letters: true) else {
                throw fail("a country code is two capital letters")
            }
            guard let p = b.seen["continent:" + parentCode] else {
                throw fail("country \(string(code)) is in continent '\(parentCode)', which is not listed before it")
            }
            parent = p
        case .region:
            let dot = code.firstIndex { bytes[$0] == UInt8(ascii: ".") } ?? code.upperBound
            guard isCode(code.lowerBound..<dot, length: 2...2, letters: true), dot < code.upperBound,
                isCode(dot + 1..<code.upperBound, length: 1...20, letters: false)
            else {
                throw fail(
                    "a region code is a country code, '.' and 1–20 capital letters or digits, not '\(string(code))'")
            }
            guard string(code.lowerBound..<dot) == parentCode, let p = b.seen["country:" + parentCode] else {
                throw fail("region \(string(code)) must name its country, listed before it, as its parent")
            }
            parent = p
        case .city:
            let id = try integer(code, "a city's GeoNames id", maxDigits: 10)
            guard id > 0, id <= Int64(UInt32.max) else { throw fail("GeoNames id \(id) is out of range") }
            guard b.cityIDs.last.map({ Int64($0) < id }) ?? true else {
                throw fail("city \(id) is out of order: cities are listed by ascending GeoNames id, once each")
            }
            let key = parentCode.contains(".") ? "region:" + parentCode : "country:" + parentCode
            guard let p = b.seen[key] else {
                throw fail("city \(id) lies in '\(parentCode)', which is no region or country listed before it")
            }
            parent = p
            b.cityIDs.append(UInt32(id))
        }
        if kind != .city {
            let key = "\(kind.rawValue):\(string(code))"
            guard b.seen[key] == nil else { throw fail("\(key) is listed twice") }
            b.seen[key] = Int32(b.count)
            b.codes.append(string(code))
        }
        let latitude = try coordinate(f[2], "the latitude", limit: 90)
        let longitude = try coordinate(f[3], "the longitude", limit: 180)
        let population = try integer(f[4], "the population", maxDigits: 11)
        try appendNames(name: f[1], alternates: f[6], into: &b)
        b.latitudes.append(latitude)
        b.longitudes.append(longitude)
        b.populations.append(population)
        b.parents.append(parent)
    }

    /// Copies the name and alternates into the text buffer, checking they are UTF-8 without
    /// empty names or control characters.
    func appendNames(name: Range<Int>, alternates: Range<Int>, into b: inout Builder) throws {
        guard !name.isEmpty else { throw fail("an entry needs a name") }
        let names = bytes[name]
        guard !names.contains(UInt8(ascii: "|")) else { throw fail("a name cannot contain '|'") }
        for range in [name, alternates] {
            let slice = UnsafeBufferPointer(rebasing: bytes[range])
            guard !slice.contains(where: { $0 < 32 || $0 == 127 }) else {
                throw fail("names cannot contain control characters")
            }
            var decoder = UTF8()
            var iterator = slice.makeIterator()
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue: continue
                case .emptyInput: break decoding
                case .error: throw fail("a name is not valid UTF-8")
                }
            }
        }
        if !alternates.isEmpty {
            let a = bytes[alternates]
            guard a.first != UInt8(ascii: "|"), a.last != UInt8(ascii: "|"),
                !zip(a, a.dropFirst()).contains(where: { $0 == UInt8(ascii: "|") && $1 == UInt8(ascii: "|") })
            else { throw fail("an alternate name is empty (a stray '|')") }
        }
        guard b.text.count + name.count + alternates.count < Int(UInt32.max) else { throw fail("too much text") }
        b.textStart.append(UInt32(b.text.count))
        b.text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[name]))
        b.alternatesStart.append(UInt32(b.text.count))
        b.text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[alternates]))
    }
}
