import PlacesInterchange
import Testing

@Suite struct GPXImportTests {
    @Test func waypointsFromAGPSAndATrackPassedOver() throws {
        let result = try Samples.read("eTrex 32x.gpx", Samples.gpx)
        #expect(result.places.map(\.name) == ["KLEINE SCHEIDEGG", "HUT", "003"])
        let scheidegg = result.places[0]
        #expect(scheidegg.latitude == 46.557912 && scheidegg.longitude == 7.985321)
        #expect(scheidegg.notes == "Train to Jungfraujoch")  // cmt repeats desc: once
        #expect(scheidegg.address == "Kleine Scheidegg, Grindelwald, 3818, CH")
        #expect(scheidegg.categories == ["Trip 2024"])
        let hut = result.places[1]
        #expect(hut.notes == "Mountain hut, cash only\n\nWater refill")
        #expect(hut.url == "https://www.example.ch/huette")
        #expect(hut.categories.isEmpty)
        #expect(result.ignored == [ImportIgnored(index: 3, reason: "a track is not a place")])
    }

    @Test func gpx10WaypointWithTypeAndURL() throws {
        let file = """
            <?xml version="1.0"?>
            <gpx version="1.0" creator="x" xmlns="http://www.topografix.com/GPX/1/0">
            <wpt lat="-33.8568" lon="151.2153"><name>Opera House</name><url>https://www.sydneyoperahouse.com</url>
            <type>Theatre</type></wpt>
            <rte><name>Harbour walk</name><rtept lat="-33.86" lon="151.21"/></rte>
            </gpx>
            """
        let result = try PlaceImport.read(Array(file.utf8), mediaType: Samples.gpx)
        #expect(
            result.places == [
                ImportedPlace(
                    name: "Opera House", latitude: -33.8568, longitude: 151.2153,
                    url: "https://www.sydneyoperahouse.com", categories: ["Theatre"])
            ])
        #expect(result.ignored == [ImportIgnored(index: 1, reason: "a route is not a place")])
    }

    @Test func waypointErrors() {
        let missing = Samples.refusal("<gpx>\n  <wpt lat=\"1\"><name>A</name></wpt></gpx>", Samples.gpx)
        #expect(missing?.description == "line 2, column 3: waypoint 1: a <wpt> needs lat and lon attributes")
        let range = Samples.refusal("<gpx><wpt lat=\"12\" lon=\"200\"><name>A</name></wpt></gpx>", Samples.gpx)
        #expect(range?.message == "waypoint 1 \"A\": longitude 200 is out of range: it must be between -180 and 180")
        let words = Samples.refusal("<gpx><wpt lat=\"north\" lon=\"2\"/></gpx>", Samples.gpx)
        #expect(words?.message == "waypoint 1: lat \"north\" and lon \"2\" must be decimal degrees")
    }
}
