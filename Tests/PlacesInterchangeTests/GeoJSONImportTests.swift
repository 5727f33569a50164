import PlacesInterchange
import Testing

@Suite struct GeoJSONImportTests {
    @Test func takeoutSavedPlacesCurrentShape() throws {
        let result = try Samples.read("Saved Places.json", "application/json")
        #expect(
            result.places.map(\.name) == [
                "Torre de Belém", "Pastéis de Belém", "Time Out Market Lisboa", "浅草寺 Sensō-ji",
            ])
        let tower = result.places[0]
        #expect(tower.latitude == 38.6915837 && tower.longitude == -9.2159723)
        #expect(tower.address == "Av. Brasília, 1400-038 Lisboa, Portugal")
        #expect(tower.url == "http://maps.google.com/?cid=9155464584434325736")
        #expect(result.places[1].notes == "Go before 10 — the queue after that is long.\nTake six to go.")
        // The saved place Takeout has no coordinates for is passed over, saying why.
        #expect(result.ignored.count == 1)
        #expect(result.ignored.first?.index == 3)
        #expect(result.ignored.first?.reason == "feature \"Tasca do Chico\" has no coordinates (0, 0)")
    }

    @Test func takeoutSavedPlacesOlderShape() throws {
        let result = try Samples.read("Saved Places 2019.json", "application/geo+json")
        #expect(result.places.map(\.name) == ["Tour Eiffel", "Dropped pin", "Musée du Louvre"])
        #expect(result.places[0].address == "Champ de Mars, 5 Av. Anatole France, 75007 Paris, France")
        #expect(result.places[0].url == "http://maps.google.com/?cid=17388185573215718127")
        // Geometry [0, 0] but "Geo Coordinates" given: those are used.
        #expect(result.places[2].latitude == 48.8606111 && result.places[2].longitude == 2.337644)
        #expect(result.ignored.map(\.index) == [3])
        #expect(result.ignored[0].reason.contains("Le Comptoir du Relais"))
    }

    @Test func plainFeaturesAndBarePoint() throws {
        let collection = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": 7, "geometry": {"type": "Point", "coordinates": [13.4, 52.52, 34]},
               "properties": {"title": "Berlin", "description": "Capital", "categories": ["city", "City ", "city"],
                              "url": "ftp://example.com/x"}},
              {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[13.4, 52.5], [13.5, 52.6]]},
               "properties": {"name": "Spree walk"}},
              {"type": "Feature", "geometry": null, "properties": {"name": "Somewhere"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [2.35, 48.85]}, "properties": null}
            ]}
            """
        let result = try PlaceImport.read(Array(collection.utf8), mediaType: "application/geo+json; charset=utf-8")
        #expect(result.places.count == 2)
        let berlin = result.places[0]
        #expect(berlin.name == "Berlin" && berlin.notes == "Capital" && berlin.sourceID == "7")
        #expect(berlin.categories == ["city", "City"])
        #expect(berlin.url == nil)  // not a web link: dropped, the place kept
        #expect(result.places[1].name == PlaceImport.unnamedPlaceName)
        #expect(result.ignored.map(\.index) == [1, 2])
        #expect(result.ignored[0].reason == "feature \"Spree walk\" is a LineString, not a point")

        let point = try PlaceImport.read(
            Array(#"{"type":"Point","coordinates":[-0.1276,51.5072]}"#.utf8), mediaType: Samples.geoJSON)
        #expect(point.places.map(\.latitude) == [51.5072])
        let feature = try PlaceImport.read(
            Array(
                #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"name":"x"}}"#.utf8),
            mediaType: Samples.geoJSON)
        #expect(feature.places.map(\.name) == ["x"])
    }

    @Test func coordinatesOutOfRangeRefuseTheFileNamingTheFeature() {
        let file = """
            {"type":"FeatureCollection","features":[
             {"type":"Feature","geometry":{"type":"Point","coordinates":[10,20]},"properties":{"name":"ok"}},
             {"type":"Feature","geometry":{"type":"Point","coordinates":[10,123]},"properties":{"name":"bad"}}]}
            """
        let error = Samples.refusal(file, Samples.geoJSON)
        #expect(error?.field == "features[1].geometry.coordinates")
        #expect(error?.message == "latitude 123 is out of range: it must be between -90 and 90")
        let lon = Samples.refusal(#"{"type":"Point","coordinates":[-180.5,0]}"#, Samples.geoJSON)
        #expect(lon?.message.hasPrefix("longitude -180.5 is out of range") == true)
    }

    @Test func numbersThatAreNotFiniteAreRefused() {
        #expect(
            Samples.refusal(#"{"type":"Point","coordinates":[1e999,0]}"#, Samples.geoJSON)?.message
                == "the number 1e999 is too large")
        #expect(
            Samples.refusal(#"{"type":"Point","coordinates":[NaN,0]}"#, Samples.geoJSON)?.field == "line 1, column 32")
        #expect(Samples.refusal(#"{"type":"Point","coordinates":["1","2"]}"#, Samples.geoJSON)?.field == "coordinates")
    }

    @Test func malformedJSONSaysWhere() {
        let truncated = "{\"type\": \"FeatureCollection\",\n \"features\": [\n  {\"type\": \"Feature\""
        let error = Samples.refusal(truncated, Samples.geoJSON)
        #expect(error?.description == "line 3, column 21: the file ends inside an object (missing '}')")
        #expect(
            Samples.refusal("{\"type\": \"Point\",}", Samples.geoJSON)?.message
                == "expected a member name in double quotes")
        #expect(Samples.refusal("[1, 2]", Samples.geoJSON)?.message == "a GeoJSON file holds an object")
        #expect(Samples.refusal(#"{"type":"Topology"}"#, Samples.geoJSON)?.field == "type")
    }
}
