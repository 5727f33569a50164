import PlacesInterchange
import Testing

/// Every imported place is within the library's bounds (Protocol/op-format.md §5), whatever
/// the file held.
@Suite struct NormalizationTests {
    private func place(_ properties: String) throws -> ImportedPlace? {
        let json =
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":"# + properties + "}"
        return try PlaceImport.read(Array(json.utf8), mediaType: Samples.geoJSON).places.first
    }

    @Test func longFieldsAreCutWithAnEllipsis() throws {
        let long = String(repeating: "é", count: 250)
        let p = try #require(
            try place(
                #"{"name":"\#(long)","address":"\#(String(repeating: "a", count: 600))","#
                    + #""notes":"\#(String(repeating: "n", count: 12_000))"}"#))
        #expect(p.name.count == 200 && p.name.hasSuffix("…"))
        #expect(p.address?.count == 500)
        #expect(p.notes?.count == 10_000)
    }

    @Test func namesAreOneTrimmedLineAndFallBackToTheAddress() throws {
        #expect(try place(#"{"name":"  Café\n\t Central  "}"#)?.name == "Café Central")
        #expect(try place(#"{"name":"   ","address":"Rua Augusta 1, Lisboa"}"#)?.name == "Rua Augusta 1, Lisboa")
        #expect(try place(#"{}"#)?.name == "Unnamed place")
        #expect(try place(#"{"name":"a\u0000b"}"#)?.name == "a b")
    }

    @Test func urlsAreKeptOnlyWhenTheLibraryAcceptsThem() throws {
        #expect(try place(#"{"url":" https://example.com/a "}"#)?.url == "https://example.com/a")
        #expect(try place(#"{"url":"javascript:alert(1)"}"#)?.url == nil)
        #expect(try place(#"{"url":"https://"}"#)?.url == nil)
        #expect(try place(#"{"url":"https://e.com/\#(String(repeating: "x", count: 2_000))"}"#)?.url == nil)
    }

    @Test func categoriesAreDistinctShortAndAtMostTwenty() throws {
        let many = (0..<30).map { "\"c\($0)\"" }.joined(separator: ",")
        #expect(try place(#"{"categories":[\#(many)]}"#)?.categories.count == 20)
        let long = String(repeating: "x", count: 60)
        let p = try place(#"{"categories":["\#(long)", "", " food ", "food", 3]}"#)
        #expect(p?.categories == [String(repeating: "x", count: 49) + "…", "food", "3"])
    }

    @Test func notesKeepTheirLines() throws {
        #expect(try place(#"{"notes":"  one\r\ntwo  \n\n\n\n\nthree\u0007 "}"#)?.notes == "one\ntwo\n\n\nthree")
    }
}
