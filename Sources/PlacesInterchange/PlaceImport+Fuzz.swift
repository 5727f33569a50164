extension PlaceImport {
    /// The media types the fuzz harness reads every input as.
    static let fuzzMediaTypes = [
        "application/geo+json", "application/vnd.google-earth.kml+xml", "application/gpx+xml", "text/xml",
    ]

    /// A fuzz harness for the lead's `places-fuzz` target: reads `bytes` in every format and,
    /// for what reads, checks the invariants with `precondition` (a crash is a bug): every
    /// place within the library's bounds, no more features than allowed, each export format
    /// read back to the same places, and the import plan accounting for every place.
    /// Never throws; a refused file is fine.
    public static func fuzz(_ bytes: [UInt8]) {
        for mediaType in fuzzMediaTypes {
            guard let result = try? read(bytes, mediaType: mediaType) else { continue }
            precondition(
                result.places.count + result.ignored.count <= ImportLimits.maxFeatures, "more features than allowed")
            for place in result.places { checkBounds(place) }
            for format in ImportFormat.allCases {
                let exported = PlaceExport.data(result.places, as: format)
                guard let back = try? read(exported, as: format) else {
                    preconditionFailure("the \(format.rawValue) export of an imported file does not read back")
                }
                precondition(back.places == result.places, "the \(format.rawValue) export reads back different places")
                precondition(back.ignored.isEmpty, "the \(format.rawValue) export holds something that is not a place")
            }
            let plan = ImportPlan.plan(importing: result.places, existing: [])
            precondition(plan.add.count + plan.skipped == result.places.count, "the import plan lost places")
            precondition(!result.places.isEmpty || plan.add.isEmpty, "the import plan made up places")
            let again = ImportPlan.plan(importing: result.places, existing: plan.add)
            precondition(again.add.isEmpty, "a place already in the library was added again")
        }
    }

    /// Traps unless `place` is within the library's bounds (Protocol/op-format.md §5).
    static func checkBounds(_ place: ImportedPlace) {
        precondition(!place.name.isEmpty && place.name == place.name.trimmed, "a name is empty or untrimmed")
        precondition(place.name.count <= ImportLimits.maxNameCharacters, "a name is too long")
        precondition(abs(place.latitude) <= 90 && abs(place.longitude) <= 180, "coordinates out of range")
        precondition(!(place.latitude == 0 && place.longitude == 0), "a place at 0, 0")
        precondition(place.address.map { !$0.isEmpty && $0.count <= ImportLimits.maxAddressCharacters } ?? true)
        precondition(place.notes.map { !$0.isEmpty && $0.count <= ImportLimits.maxNotesCharacters } ?? true)
        precondition(place.url.map { PlaceDraft.webURL($0) == $0 } ?? true, "a url the library refuses")
        precondition(place.categories.count <= ImportLimits.maxCategories, "too many categories")
        precondition(Set(place.categories).count == place.categories.count, "repeated categories")
        for category in place.categories {
            precondition(
                !category.isEmpty && category == category.trimmed
                    && category.count <= ImportLimits.maxCategoryCharacters,
                "a category the library refuses")
        }
        precondition(place.sourceID.map { !$0.isEmpty && $0.utf8.count <= 200 } ?? true, "an oversized source id")
    }
}
