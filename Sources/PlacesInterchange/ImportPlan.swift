/// Which imported places to add to a library: duplicates of places it already holds, or of
/// a place earlier in the same file, are skipped (docs/import.md).
///
/// Two places are duplicates when they are within `sameSpotMeters` of each other whatever
/// their names (the same pin renamed in one tool), or when their names are equal as
/// `NameKey` compares them (case, accents, whitespace and punctuation ignored) and they are
/// within `sameNameMeters`. A grid of cells over the globe finds the neighbours of each
/// place, so the work grows with the number of places, not its square.
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
        var grid = SpatialGrid(cellMeters: sameNameMeters)
        for place in existing { grid.insert(place) }
        var add: [ImportedPlace] = []
        var skipped = 0
        for place in importing {
            let key = NameKey.of(place.name)
            let unnamed = place.name == PlaceImport.unnamedPlaceName
            let duplicate = grid.contains(near: place, within: sameNameMeters) { other, meters in
                meters <= sameSpotMeters || (!unnamed && other.key == key)
            }
            if duplicate {
                skipped += 1
            } else {
                add.append(place)
                grid.insert(place, key: key)
            }
        }
        return (add, skipped)
    }
}
