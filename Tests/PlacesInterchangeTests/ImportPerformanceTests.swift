import PlacesInterchange
import Testing

/// Generated files of 10,000 places (3,000 in a debug build). The figures that count are
/// release ones (docs/import.md: parse ≤ 100 ms, dedup ≤ 50 ms); in a debug build, ~30×
/// slower, this only shows that no work is quadratic.
@Suite struct ImportPerformanceTests {
    #if DEBUG
        static let count = 3_000
    #else
        static let count = 10_000
    #endif

    static func takeout(_ count: Int) -> [UInt8] {
        var out = #"{"type":"FeatureCollection","features":["#
        for i in 0..<count {
            if i > 0 { out += "," }
            let lat = 38.6 + Double(i % 100) * 0.003
            let lon = -9.3 + Double(i / 100) * 0.003
            out += """
                {"geometry":{"coordinates":[\(lon),\(lat)],"type":"Point"},"properties":{"date":"2024-03-02T18:22:41Z",\
                "google_maps_url":"http://maps.google.com/?cid=\(9_155_464_584_434_325_736 - i)",\
                "location":{"address":"Rua Número \(i), 1400-038 Lisboa, Portugal","country_code":"PT",\
                "name":"Café nº \(i)"},"Comment":"Saved on a trip — number \(i)"},"type":"Feature"}
                """
        }
        return Array((out + "]}").utf8)
    }

    static func kml(_ count: Int) -> [UInt8] {
        var out = #"<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://earth.google.com/kml/2.2"><Document>"#
        for i in 0..<count {
            if i % 1000 == 0 { out += (i > 0 ? "</Folder>" : "") + "<Folder><name>List \(i / 1000)</name>" }
            let lat = 38.6 + Double(i % 100) * 0.003
            let lon = -9.3 + Double(i / 100) * 0.003
            out += """
                <Placemark><name>Café nº \(i)</name><description><![CDATA[<p>Bookmark <b>\(i)</b></p>]]></description>\
                <styleUrl>#placemark-red</styleUrl><Point><coordinates>\(lon),\(lat)</coordinates></Point>\
                <ExtendedData xmlns:mwm="https://omaps.app"><mwm:name><mwm:lang code="default">Café nº \(i)</mwm:lang>\
                </mwm:name><mwm:featureTypes><mwm:value>amenity-cafe</mwm:value></mwm:featureTypes><mwm:scale>17</mwm:scale>\
                </ExtendedData></Placemark>
                """
        }
        return Array((out + "</Folder></Document></kml>").utf8)
    }

    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    @Test func tenThousandPlacesParseAndDedupInLinearTime() throws {
        let n = Self.count
        let json = Self.takeout(n)
        let kml = Self.kml(n)
        var fromJSON = ImportResult(places: [], ignored: [])
        var fromKML = ImportResult(places: [], ignored: [])
        let jsonMs = try Self.milliseconds { fromJSON = try PlaceImport.read(json, mediaType: "application/geo+json") }
        let kmlMs = try Self.milliseconds {
            fromKML = try PlaceImport.read(kml, mediaType: "application/vnd.google-earth.kml+xml")
        }
        #expect(fromJSON.places.count == n && fromKML.places.count == n)
        #expect(fromKML.places[1234].categories == ["cafe", "List 1"])
        var plan: (add: [ImportedPlace], skipped: Int) = ([], 0)
        // Every place of the KML has a same-named twin in the library (the Takeout file).
        let dedupMs = Self.milliseconds { plan = ImportPlan.plan(importing: fromKML.places, existing: fromJSON.places) }
        #expect(plan.add.isEmpty && plan.skipped == n)
        var fresh: (add: [ImportedPlace], skipped: Int) = ([], 0)
        let freshMs = Self.milliseconds { fresh = ImportPlan.plan(importing: fromJSON.places, existing: []) }
        #expect(fresh.add.count == n)
        print(
            "import \(n): GeoJSON \(json.count / 1024) KiB parse \(Int(jsonMs)) ms; KML \(kml.count / 1024) KiB "
                + "parse \(Int(kmlMs)) ms; dedup against \(n) \(Int(dedupMs)) ms, alone \(Int(freshMs)) ms")
        // Quadratic work over 3,000 places would take minutes here.
        #expect(jsonMs < 10_000 && kmlMs < 10_000 && dedupMs < 10_000)
    }
}
