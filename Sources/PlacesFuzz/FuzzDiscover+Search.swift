import Foundation
import PlacesGazetteer
import PlacesModel

extension FuzzDiscover {
    // MARK: Folding

    static func fold(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let folded = NameFolding.fold(text)
        check(folded: folded, of: text)
        precondition(NameFolding.fold(folded) == folded, "fold is not idempotent on \(text.debugDescription)")
        // Canonically equivalent inputs fold alike, below the cut at `maxOutputBytes` (the NFD
        // form of Hangul is longer, so the two are cut at different characters). Swift's ==
        // is canonical equivalence: Hangul may stay composed or not, but a combining accent
        // left in one form and not the other is a bug.
        // Checked for Latin text (with its combining accents), which is what the gazetteer
        // holds and what the folding promises: for other scripts the fold keeps letters as
        // Foundation lowercases them, and Hangul jamo or Brahmic marks may compose differently.
        let decomposed = text.decomposedStringWithCanonicalMapping
        let latin = decomposed.unicodeScalars.allSatisfy { $0.value < 0x250 || (0x300..<0x370).contains($0.value) }
        if latin, decomposed.utf8.count * 3 < NameFolding.maxOutputBytes {
            let nfc = NameFolding.fold(text.precomposedStringWithCanonicalMapping)
            let nfd = NameFolding.fold(decomposed)
            precondition(nfc == nfd, "NFC folds to \(nfc.debugDescription), NFD to \(nfd.debugDescription)")
        }
        // A word of another script beside Latin text does not change how the Latin text
        // folds ("Łódź 東京" is "lodz 東京", not "łodz 東京").
        if !folded.isEmpty, text.unicodeScalars.allSatisfy({ $0.value < 0x250 }),
            text.utf8.count * 3 < NameFolding.maxOutputBytes
        {
            let mixed = NameFolding.fold(text + " 東京")
            precondition(
                mixed == folded + " 東京",
                "\(text.debugDescription) folds to \(folded.debugDescription) alone, \(mixed.debugDescription) beside 東京"
            )
        }
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            precondition(NameFolding.fold(text.uppercased()) == folded, "ASCII case matters for \(text)")
        }
    }

    /// What any fold result looks like (design-15.md §1).
    static func check(folded: String, of text: String) {
        let u = Array(folded.utf8)
        precondition(u.first != 0x20 && u.last != 0x20, "untrimmed fold of \(text.debugDescription)")
        for (i, b) in u.enumerated() where b < 0x80 {
            let ok = (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || (b == 0x20 && u[i - 1] != 0x20)
            precondition(ok, "fold of \(text.debugDescription) keeps byte \(b): \(folded.debugDescription)")
        }
        // One scalar expands to at most 18 under compatibility decomposition (U+FDFA).
        precondition(u.count <= 40 * max(1, text.utf8.count), "fold of \(text.utf8.count) bytes gave \(u.count)")
    }

    // MARK: Search

    /// The fixture and its index, built once per process.
    static let fixture = (FuzzDiscoverFixture.standard, GazetteerIndex(FuzzDiscoverFixture.standard))

    static func search(_ reader: inout FuzzReader) {
        let (gazetteer, index) = fixture
        guard let kindBits = reader.byte(), let sortByte = reader.byte(), let limitByte = reader.byte(),
            let nearByte = reader.byte()
        else { return }
        let allKinds = DiscoverKind.allCases
        let kinds: Set<DiscoverKind>? =
            kindBits == 0
            ? nil : Set(allKinds.enumerated().filter { kindBits & (1 << ($0.offset % 8)) != 0 }.map(\.element))
        let sort: PopularitySort = [.off, .descending, .ascending][Int(sortByte % 3)]
        let limit = 1 + Int(limitByte % 100)
        var near: (latitude: Double, longitude: Double)?
        if nearByte & 1 == 1, let lat = reader.u16(), let lon = reader.u16() {
            near = (Double(lat) / 65_535 * 180 - 90, Double(lon) / 65_535 * 360 - 180)
        }
        // The rest: the query, then candidate names, separated by NUL.
        let parts = reader.rest().split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard let text = parts.first, (1...200).contains(text.count) else { return }
        let candidates = parts.dropFirst().prefix(16).enumerated().map { i, name in
            DiscoverCandidate(
                id: "place:\(String(format: "%032x", i))", names: [name], latitude: Double(i) - 8,
                longitude: Double(i) * 11 - 90)
        }
        let query = DiscoverQuery(text: text, kinds: kinds, near: near, limit: limit, sort: sort)
        // Popularity for the first candidates and a few gazetteer entries, from the bytes.
        var popular = [String: Int]()
        for (i, c) in candidates.enumerated() where i % 2 == 0 { popular[c.id] = i + 1 }
        for i in stride(from: 0, to: min(gazetteer.count, 5_000), by: 97) { popular[gazetteer.id(i)] = i % 7 }

        let hits = index.search(query, candidates: candidates, popular: popular)
        let folded = NameFolding.fold(text)
        let shortQuery = folded.utf8.count <= 3
        let foldedCount = folded.count
        precondition(hits.count <= limit, "\(hits.count) hits for limit \(limit)")
        var seen = Set<String>()
        var previous: DiscoverHit?
        for hit in hits {
            let id: String
            switch (hit.gazetteerIndex, hit.candidateIndex) {
            case (let g?, nil):
                precondition((0..<gazetteer.count).contains(g), "hit \(g) out of range")
                id = gazetteer.id(g)
                if let kinds {
                    let kind = DiscoverKind(rawValue: gazetteer.kind(g).rawValue)
                    precondition(kind.map(kinds.contains) == true, "a \(gazetteer.kind(g)) for kinds \(kinds)")
                }
            case (nil, let c?):
                precondition((0..<candidates.count).contains(c), "candidate \(c) out of range")
                id = candidates[c].id
                precondition(kinds?.contains(.place) ?? true, "a place for kinds \(kinds ?? [])")
            default: preconditionFailure("a hit names both or neither a gazetteer entry and a candidate")
            }
            precondition(seen.insert(id).inserted, "\(id) twice in one answer")
            precondition(hit.popularity == (popular[id] ?? 0), "\(id)'s popularity is not the one declared")
            // Lengths are the folded query's characters (docs/discover.md): "elþu" folds to
            // "elthu", five, so it may match with a typo.
            if foldedCount <= 4 { precondition(hit.quality != .fuzzy, "a fuzzy match for \(foldedCount) letters") }
            if let previous {
                switch sort {
                case .off:
                    // A query of at most 3 folded bytes is still being typed: its exact matches
                    // rank among its prefixes (docs/discover.md, "Search and ranking").
                    func tier(_ q: MatchQuality) -> Int {
                        shortQuery && q == .exact ? MatchQuality.prefix.rawValue : q.rawValue
                    }
                    precondition(tier(previous.quality) <= tier(hit.quality), "quality out of order")
                case .descending: precondition(previous.popularity >= hit.popularity, "not by popularity, desc")
                case .ascending: precondition(previous.popularity <= hit.popularity, "not by popularity, asc")
                }
            }
            previous = hit
        }
        // A smaller limit cuts the same list; the answer does not depend on the call.
        let again = index.search(query, candidates: candidates, popular: popular)
        precondition(again.map(key) == hits.map(key), "the same query answered differently")
        var shorter = query
        shorter.limit = max(1, limit / 2)
        let cut = index.search(shorter, candidates: candidates, popular: popular)
        precondition(cut.map(key) == Array(hits.prefix(shorter.limit)).map(key), "limit does not cut a prefix")

        // The popularity rule's "same place" lookup.
        let meters = Double(limitByte) * 1_000
        let lat = near?.latitude ?? 0, lon = near?.longitude ?? 0
        for e in index.entries(named: text, within: meters, ofLatitude: lat, longitude: lon) {
            precondition((0..<gazetteer.count).contains(e), "entry \(e) out of range")
            let names = [gazetteer.name(e)] + gazetteer.alternateNames(e)
            precondition(names.contains { NameFolding.fold($0) == folded }, "\(gazetteer.id(e)) is not named so")
            let d = distanceMeters(lat, lon, gazetteer.latitude(e), gazetteer.longitude(e))
            precondition(d <= meters + 1, "\(gazetteer.id(e)) is \(d) m away, not within \(meters)")
        }
    }

    static func key(_ hit: DiscoverHit) -> String {
        "\(hit.gazetteerIndex ?? -1)/\(hit.candidateIndex ?? -1)/\(hit.quality.rawValue)/\(hit.popularity)"
    }

    /// Great-circle distance (haversine, mean Earth radius).
    static func distanceMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_008.8, rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad, dLon = (lon2 - lon1) * rad
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * r * asin(min(1, sqrt(a)))
    }
}
