import PlacesInterchange
import Testing

@Suite struct KMLImportTests {
    @Test func organicMapsBookmarksWithFoldersAndExtendedData() throws {
        let result = try Samples.read("Organic Maps.kml", Samples.kml)
        #expect(
            result.places.map(\.name) == ["Café Majestic", "Avillez (book!)", "Quinta do Crasto", "Livraria Lello"])
        let majestic = result.places[0]
        #expect(majestic.latitude == 41.1469553 && majestic.longitude == -8.6068877)
        #expect(majestic.notes == "Belle Époque café, 1921.\n\nTry the rabanadas & a galão.")
        #expect(majestic.categories == ["cafe", "Eat"])
        #expect(result.places[1].categories == ["restaurant", "regional", "Eat"])
        // Nested folders, and an altitude in the coordinates.
        #expect(result.places[2].categories == ["winery", "See", "Douro valley"])
        #expect(result.places[2].notes == "Wine tasting at 11:00 — book ahead <3 & lunch")
        #expect(result.places[3].categories == ["books", "attraction", "See"])
        #expect(result.places[3].longitude == -8.6148529)
        #expect(
            result.ignored == [
                ImportIgnored(index: 4, reason: "Placemark 5 \"Walk along the Ribeira\" is a LineString, not a point")
            ])
    }

    @Test func googleMyMapsLayers() throws {
        let result = try Samples.read("Lisbon trip (My Maps).kml", Samples.kml)
        #expect(result.places.map(\.name) == ["Time Out Market", "A Cevicheria", "Miradouro da Senhora do Monte"])
        let market = result.places[0]
        #expect(market.address == "Av. 24 de Julho 49, 1200-479 Lisboa")
        #expect(market.url == "https://www.timeoutmarket.com/lisboa/")
        #expect(market.notes == "Go early\nLots of stalls: try Marlene Vieira's\n\nAddress: Av. 24 de Julho 49")
        #expect(market.categories == ["Food"])
        #expect(result.places[2].notes == "Sunset ☀️ — bring a jacket")
        #expect(result.places[2].categories == ["Sights"])
        #expect(result.ignored.map(\.index) == [3])
    }

    @Test func xmlMediaTypeSniffsTheRootElement() throws {
        let kml = try Samples.read("Organic Maps.kml", "application/xml")
        #expect(kml.places.count == 4)
        let gpx = try Samples.read("eTrex 32x.gpx", "text/xml; charset=UTF-8")
        #expect(gpx.places.count == 3)
        let other = Samples.refusal("<?xml version=\"1.0\"?>\n<svg/>", "application/xml")
        #expect(
            other?.description == "line 2, column 1: the root element is <svg>; an XML file to import is KML or GPX")
        let mislabelled = Samples.refusal(try Samples.bytes("eTrex 32x.gpx"), Samples.kml)
        #expect(mislabelled?.message == "the root element is <gpx>, not <kml>: this is not a KML file")
    }

    @Test func coordinatesWrittenByHandWithSpacesAfterCommasRead() throws {
        let file =
            "<kml><Placemark><name>A</name><Point><coordinates>\n -9.14,  38.71 , 5\n</coordinates></Point></Placemark></kml>"
        let places = try PlaceImport.read(Array(file.utf8), mediaType: Samples.kml).places
        #expect(places.map(\.latitude) == [38.71] && places.map(\.longitude) == [-9.14])
    }

    @Test func placemarkErrorsNameThePlacemarkAndLine() {
        let file = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Placemark><name>Fine</name><Point><coordinates>1,2</coordinates></Point></Placemark>
            <Placemark><name>Off the map</name>
              <Point><coordinates>10,95</coordinates></Point></Placemark>
            </Document></kml>
            """
        let error = Samples.refusal(file, Samples.kml)
        #expect(error?.field == "line 4, column 10")
        #expect(
            error?.message == "Placemark 2 \"Off the map\": latitude 95 is out of range: it must be between -90 and 90")
        let garbage = Samples.refusal(
            "<kml><Placemark><Point><coordinates>east,north</coordinates></Point></Placemark></kml>", Samples.kml)
        #expect(garbage?.message == "Placemark 1: coordinates \"east,north\" are not longitude,latitude[,altitude]")
        let nan = Samples.refusal(
            "<kml><Placemark><Point><coordinates>nan,1</coordinates></Point></Placemark></kml>", Samples.kml)
        #expect(nan?.message == "Placemark 1: longitude nan is not a number of degrees")
    }
}
