/// Which imported places to add to a library: duplicates of places it already holds, or of
/// a place earlier in the same file, are skipped (docs/import.md).
///
/// Two places are duplicates when they are within `sameSpotMeters` of each other whatever
/// their names (the same pin renamed in one tool), or when their names are equal as
/// `NameKey` compares them (case, accents, whitespace and punctuation ignored) and they are
/// within `sameNameMeters`. Grids of cells over the globe find the neighbours of each place,
/// and no cell can fill up (kept places are 1 m apart, same-named ones 100 m), so the work
/// grows with the number of places, not its square, even for a file of 20,000 places on one
/// street.
public enum ImportPlan {
    /// Places with equal names this close are one place (a pin dropped on the building
    /// rather than its entrance).
    public static let sameNameMeters = 100.0
    /// Places this close are one place whatever their names.
    public static let sameSpotMeters = 1.0

    /// The places of `importing` to add, in order, and how many were skipped as duplicates
    /// of `existing` (the library's places) or of an earlier place of `importing`.
    public static func plan(importing: [ImportedPlace], existing: [ImportedPlace]) -> (
        add: [ImportedPlace], skipped: Int
    ) {
        // Two grids, so that no cell ever holds many places: one of 1 m cells for the spot
        // rule (places within 1 m of a kept one are skipped), one of 100 m cells per name
        // (same-named places within 100 m of a kept one are skipped).
        var spots = SpatialGrid(cellMeters: sameSpotMeters, capacity: existing.count + importing.count)
        var names = SpatialGrid(cellMeters: sameNameMeters, capacity: existing.count + importing.count)
        func keep(_ place: ImportedPlace, key: String?) {
            spots.insert(latitude: place.latitude, longitude: place.longitude, key: "")
            if let key { names.insert(latitude: place.latitude, longitude: place.longitude, key: key) }
        }
        // "Unnamed place"s, and names of punctuation alone, are compared by spot only.
        func nameKey(_ place: ImportedPlace) -> String? {
            guard place.name != PlaceImport.unnamedPlaceName else { return nil }
            let key = NameKey.of(place.name)
            return key.isEmpty ? nil : key
        }
        for place in existing { keep(place, key: nameKey(place)) }
        var add: [ImportedPlace] = []
        var skipped = 0
        for place in importing {
            let key = nameKey(place)
            let duplicate =
                spots.contains(latitude: place.latitude, longitude: place.longitude, key: "", within: sameSpotMeters)
                || key.map {
                    names.contains(
                        latitude: place.latitude, longitude: place.longitude, key: $0, within: sameNameMeters)
                } ?? false
            if duplicate {
                skipped += 1
            } else {
                add.append(place)
                keep(place, key: key)
            }
        }
        return (add, skipped)
    }
}
