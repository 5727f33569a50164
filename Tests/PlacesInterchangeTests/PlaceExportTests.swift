import Foundation
import PlacesInterchange
import Testing

@Suite struct PlaceExportTests {
    static let places = [
        ImportedPlace(
            name: "Tom & Jerry's <\"best\"> café", latitude: 38.6915837, longitude: -9.2159723,
            address: "Rua \"A\" 1 & 2, Lisboa", notes: "Line one\nLine <two> & 'three'\n\n  indented?",
            url: "https://example.com/?a=1&b=<2>", categories: ["food", "a, b", "日本"],
            sourceID: "0123456789abcdef0123456789abcdef"),
        ImportedPlace(name: "浅草寺 Sensō-ji 🏯", latitude: 35.7147651, longitude: 139.7966553),
        ImportedPlace(name: "Tiny", latitude: 0.0000123456789, longitude: -1e-7, notes: "&nbsp; stays literal"),
        ImportedPlace(name: "Edge", latitude: -90, longitude: 180, categories: ["x"]),
    ]

    /// What our importer makes of the places: the same, except that notes are stored as
    /// the importer cleans them.
    static var expected: [ImportedPlace] {
        var out = places
        out[0].notes = "Line one\nLine <two> & 'three'\n\nindented?"
        return out
    }

    @Test(arguments: ImportFormat.allCases)
    func exportReadsBackToTheSamePlaces(_ format: ImportFormat) throws {
        let bytes = PlaceExport.data(Self.places, as: format)
        let back = try PlaceImport.read(bytes, mediaType: format.mediaType)
        #expect(back.places == Self.expected)
        #expect(back.ignored.isEmpty)
        #expect(String(validating: bytes, as: UTF8.self) != nil)
    }

    @Test func numbersAreWrittenWithoutExponents() {
        let kml = String(decoding: PlaceExport.kml(Self.places), as: UTF8.self)
        #expect(kml.contains("<coordinates>-0.0000001,0.0000123456789</coordinates>"))
        #expect(kml.contains("<coordinates>180,-90</coordinates>"))
    }

    @Test func controlCharactersXMLCannotCarryAreDropped() throws {
        let place = ImportedPlace(name: "a\u{1}b", latitude: 1, longitude: 2, notes: "x\u{0}y")
        let back = try PlaceImport.read(PlaceExport.gpx([place]), as: .gpx)
        #expect(back.places.first?.name == "ab")
        #expect(back.places.first?.notes == "xy")
    }

    /// Python's standard library (json, xml.etree) reads each export to the same places: the
    /// files are valid for a reader that is not ours.
    @Test(arguments: ImportFormat.allCases)
    func anIndependentReaderReadsTheSamePlaces(_ format: ImportFormat) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("places-export-\(UUID()).\(format)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(PlaceExport.data(Self.places, as: format)).write(to: file)
        let process = Process()
        // Python 3's standard library only (nothing for scripts/bootstrap.sh to install).
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.oracle, format.rawValue, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: output) as? [[Any]])
        #expect(rows.count == Self.places.count)
        for (row, place) in zip(rows, Self.places) {
            #expect(row[0] as? String == place.name)
            #expect(row[1] as? Double == place.latitude)
            #expect(row[2] as? Double == place.longitude)
            #expect(row[3] as? String == place.address)
            #expect(
                (row[4] as? String)?.trimmingCharacters(in: .whitespaces)
                    == place.notes?.trimmingCharacters(in: .whitespaces))
            #expect(row[5] as? String == place.url)
            #expect(row[6] as? [String] == place.categories)
            #expect(row[7] as? String == place.sourceID)
        }
    }

    static let oracle = #"""
        import html, json, sys
        import xml.etree.ElementTree as ET
        fmt, path = sys.argv[1], sys.argv[2]
        rows = []
        if fmt == "geojson":
            for f in json.load(open(path, encoding="utf-8"))["features"]:
                p = f["properties"]
                lon, lat = f["geometry"]["coordinates"]
                rows.append([p["name"], lat, lon, p.get("address"), p.get("notes"), p.get("url"), p["categories"], f.get("id")])
        elif fmt == "kml":
            ns = {"k": "http://www.opengis.net/kml/2.2"}
            for pm in ET.parse(path).getroot().iter("{http://www.opengis.net/kml/2.2}Placemark"):
                data = [(d.get("name"), d.find("k:value", ns).text) for d in pm.iter("{http://www.opengis.net/kml/2.2}Data")]
                lon, lat = pm.find("k:Point/k:coordinates", ns).text.split(",")
                desc = pm.find("k:description", ns)
                addr = pm.find("k:address", ns)
                first = lambda n: next((v for k, v in data if k == n), None)
                rows.append([pm.find("k:name", ns).text, float(lat), float(lon), addr.text if addr is not None else None,
                             html.unescape(desc.text) if desc is not None else None, first("url"),
                             [v for k, v in data if k == "category"], first("id")])
        else:
            g = "{http://www.topografix.com/GPX/1/1}"
            x = "{urn:x-places:gpx:1}"
            for w in ET.parse(path).getroot().iter(g + "wpt"):
                text = lambda e: e.text if e is not None else None
                link = w.find(g + "link")
                rows.append([w.find(g + "name").text, float(w.get("lat")), float(w.get("lon")), text(w.find(".//" + x + "address")),
                             text(w.find(g + "desc")), link.get("href") if link is not None else None,
                             [c.text for c in w.iter(x + "category")], text(w.find(".//" + x + "id"))])
        print(json.dumps(rows))
        """#
}
