import Foundation

/// A feature's fields as a file gives them, before they are brought within the library's
/// bounds (`place`). Each importer fills one per feature; `place()` does the rest the same
/// way for every format.
struct PlaceDraft {
    var name: String?
    var latitude: Double
    var longitude: Double
    var address: String?
    var notes: String?
    var url: String?
    var categories: [String] = []
    var sourceID: String?
    var openingHours: String?

    /// The name a place gets when the file gives it neither a name nor an address.
    static let unnamed = "Unnamed place"

    /// Why `latitude`/`longitude` cannot be a place's, in words, or nil when they can.
    static func coordinateProblem(latitude: Double, longitude: Double) -> String? {
        guard latitude.isFinite else { return "latitude \(latitude) is not a number of degrees" }
        guard longitude.isFinite else { return "longitude \(longitude) is not a number of degrees" }
        guard abs(latitude) <= 90 else {
            return "latitude \(format(latitude)) is out of range: it must be between -90 and 90"
        }
        guard abs(longitude) <= 180 else {
            return "longitude \(format(longitude)) is out of range: it must be between -180 and 180"
        }
        return nil
    }

    /// Exactly (0, 0): what Google Takeout writes for a saved place it has no coordinates
    /// for. No one saves the point in the Gulf of Guinea, so every format treats it as no
    /// location (docs/import.md).
    static func isNullIsland(latitude: Double, longitude: Double) -> Bool { latitude == 0 && longitude == 0 }

    static func format(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }

    /// The place within the library's bounds (Protocol/op-format.md §5): text cleaned and
    /// cut, the url kept only when it is an http(s) link with a host, categories distinct.
    /// The coordinates must have passed `coordinateProblem`.
    func place() -> ImportedPlace {
        let address = clean(address, limit: ImportLimits.maxAddressCharacters, line: true)
        var name = clean(name, limit: ImportLimits.maxNameCharacters, line: true)
        if name == nil, let address {
            name = TextCleaning.truncated(address, to: ImportLimits.maxNameCharacters)
        }
        var kept: [String] = []
        for raw in categories where kept.count < ImportLimits.maxCategories {
            if let c = clean(raw, limit: ImportLimits.maxCategoryCharacters, line: true), !kept.contains(c) {
                kept.append(c)
            }
        }
        // Opening hours longer than a place keeps are dropped, not cut: a cut rule would say
        // something else.
        let hours = openingHours.map(TextCleaning.line).flatMap {
            $0.isEmpty || $0.count > ImportLimits.maxOpeningHoursCharacters ? nil : $0
        }
        var id = sourceID.map(TextCleaning.line)
        if let s = id, s.isEmpty || s.utf8.count > 200 { id = nil }
        return ImportedPlace(
            name: name ?? PlaceDraft.unnamed, latitude: latitude, longitude: longitude, address: address,
            notes: clean(notes, limit: ImportLimits.maxNotesCharacters, line: false), url: PlaceDraft.webURL(url),
            categories: kept, sourceID: id, openingHours: hours)
    }

    private func clean(_ s: String?, limit: Int, line: Bool) -> String? {
        guard let s else { return nil }
        let cleaned = line ? TextCleaning.line(s) : TextCleaning.text(s)
        return cleaned.isEmpty ? nil : TextCleaning.truncated(cleaned, to: limit)
    }

    /// The place a Google Maps search link names (`?q=Tasca+do+Chico,+R.+do+Diário…` →
    /// "Tasca do Chico"), for the reason a Takeout place without coordinates is ignored.
    static func mapsQuery(_ url: String?) -> String? {
        guard let url, url.utf8.count <= 4_096,
            let query = URLComponents(string: url)?.queryItems?.first(where: { $0.name == "q" })?.value,
            let name = query.split(separator: ",").first.map({ String($0.map { $0 == "+" ? " " : $0 }).trimmed }),
            !name.isEmpty
        else { return nil }
        return name
    }

    /// `s` trimmed when it is an `http` or `https` URL with a host of at most 2,000
    /// characters (what the library accepts) and no space or control character inside
    /// (which Foundation would accept, and XML cannot always carry), else nil.
    static func webURL(_ s: String?) -> String? {
        guard let s = s?.trimmed, !s.isEmpty, s.utf8.count <= 4 * ImportLimits.maxURLCharacters,
            s.count <= ImportLimits.maxURLCharacters,
            s.unicodeScalars.allSatisfy({ !TextCleaning.isWhitespace($0) && !TextCleaning.isControl($0) }),
            let u = URL(string: s),
            let scheme = u.scheme?.lowercased(), scheme == "http" || scheme == "https", u.host != nil
        else { return nil }
        return s
    }
}
