import PlacesInterchange
import Testing

/// Files made to hurt the importer: each is refused whole, quickly, with a message that
/// says what is wrong, and nothing traps.
@Suite struct HostileFileTests {
    @Test func billionLaughsIsRefusedBeforeAnyExpansion() throws {
        let error = Samples.refusal(try Samples.bytes("billion-laughs.kml"), Samples.kml)
        #expect(
            error?.description == "line 3, column 3: the DOCTYPE declares entities; entity declarations are refused")
    }

    @Test func externalEntityIsRefusedAndNothingIsFetched() throws {
        let error = Samples.refusal(try Samples.bytes("external-entity.gpx"), Samples.gpx)
        #expect(error?.field == "line 3, column 3")
        // Without a declaration, a reference is simply undefined.
        let undeclared = Samples.refusal("<gpx><wpt lat=\"1\" lon=\"2\"><name>&secret;</name></wpt></gpx>", Samples.gpx)
        #expect(undeclared?.message == "undefined entity &secret; (only &lt; &gt; &amp; &quot; &apos; are defined)")
        // A DOCTYPE that declares nothing is harmless and read past.
        let plain = try PlaceImport.read(
            Array("<!DOCTYPE gpx SYSTEM \"gpx.dtd\"><gpx><wpt lat=\"1\" lon=\"2\"/></gpx>".utf8), mediaType: Samples.gpx
        )
        #expect(plain.places.count == 1)
    }

    @Test func deepNestingIsRefused() {
        let xml =
            "<kml>" + String(repeating: "<Folder>", count: 10_000) + String(repeating: "</Folder>", count: 10_000)
            + "</kml>"
        let error = Samples.refusal(xml, Samples.kml)
        #expect(error?.description == "line 1, column 510: elements are nested deeper than 64 levels")
        let json = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(
            Samples.refusal(json, Samples.geoJSON)?.message == "arrays and objects are nested deeper than 64 levels")
        let object = "{\"type\":\"Point\",\"x\":" + String(repeating: "{\"a\":", count: 10_000)
        #expect(Samples.refusal(object, Samples.geoJSON)?.field == "line 1, column 336")
    }

    @Test func truncatedFilesAreRefusedNamingTheOpenElement() throws {
        let whole = try Samples.bytes("Organic Maps.kml")
        for length in stride(from: 0, to: whole.count - 8, by: 61) {
            let message = Samples.refusal(Array(whole.prefix(length)), Samples.kml)?.message ?? "read"
            #expect(
                message.hasPrefix("unclosed ") || message.hasPrefix("the file ends")
                    || message == "the file holds no XML element", "\(length): \(message)")
        }
        let placemark = Samples.refusal("<kml>\n<Document>\n  <Placemark><name>A</name>", Samples.kml)
        #expect(placemark?.description == "line 3, column 3: unclosed <Placemark>: the file ends before its end tag")
        let mismatched = Samples.refusal("<kml>\n<Placemark>\n</Folder></kml>", Samples.kml)
        #expect(
            mismatched?.description == "line 3, column 1: </Folder> where <Placemark> (line 2, column 1) is still open")
        #expect(Samples.refusal("", Samples.kml)?.message == "the file holds no XML element")
        #expect(Samples.refusal("", Samples.geoJSON)?.message == "the file ends where a value was expected")
    }

    @Test func wrongMediaTypeNamesTheSupportedOnes() throws {
        let error = Samples.refusal(try Samples.bytes("Saved Places.json"), "text/csv")
        #expect(error?.field == "Content-Type")
        #expect(
            error?.message == "text/csv is not a format places import from; send one of application/geo+json, "
                + "application/json, application/vnd.google-earth.kml+xml, application/gpx+xml, application/xml, text/xml"
        )
        #expect(Samples.refusal([], "application/vnd.google-earth.kmz")?.message.hasPrefix("KMZ") == true)
        #expect(
            Samples.refusal(try Samples.bytes("Saved Places.json"), Samples.kml)?.description
                == "line 1, column 1: text before the root element: is this XML?")
    }

    @Test func oversizedFileIsRefusedBeforeParsing() {
        let big = [UInt8](repeating: 0x20, count: 33 * 1024 * 1024)
        let error = Samples.refusal(big, Samples.geoJSON)
        #expect(error?.description == "body: the file is 33.0 MiB; at most 32 MiB is accepted")
    }

    @Test func invalidUTF8IsRefusedWithItsPosition() {
        var bytes = Array("<gpx>\n<wpt lat=\"1\" lon=\"2\"><name>Caf".utf8)
        bytes += [0xE9]  // Latin-1 é
        bytes += Array("</name></wpt></gpx>".utf8)
        let error = Samples.refusal(bytes, Samples.gpx)
        #expect(error?.description == "line 2, column 31: byte 0xE9 is not valid UTF-8; save the file as UTF-8")
        #expect(
            Samples.refusal([0xFF, 0xFE, 0x3C, 0x00], Samples.gpx)?.message == "the file is UTF-16; save it as UTF-8")
        let latin1 = Samples.refusal("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><gpx/>", Samples.gpx)
        #expect(latin1?.message == "the file declares the encoding iso-8859-1; save it as UTF-8")
        // Surrogates written in UTF-8 (CESU) are not UTF-8 either.
        #expect(Samples.refusal([0x22, 0xED, 0xA0, 0x80, 0x22], Samples.geoJSON)?.field == "line 1, column 2")
    }

    @Test func malformedXMLIsRefusedPrecisely() {
        let cases: [(String, String)] = [
            ("<gpx><wpt lat=\"1\" lat=\"2\"/></gpx>", "the attribute lat appears twice in <wpt>"),
            ("<gpx><wpt lat=1/></gpx>", "an attribute value must be in quotes"),
            ("<gpx>AT&T</gpx>", "'&' must start a reference such as &amp; (write & as &amp;)"),
            ("<gpx>&#0;</gpx>", "&#0; is not a character XML allows"),
            ("<gpx><!-- a -- b --></gpx>", "'--' inside a comment"),
            ("<gpx/><gpx/>", "a second root element"),
            ("<gpx/>trailing", "text after the root element"),
            ("<gpx>\u{1}</gpx>", "control character U+0001 in XML"),
            ("<gpx><wpt lat=\"<\"/></gpx>", "'<' in an attribute value"),
            ("<gpx><![CDATA[never closed</gpx>", "unclosed CDATA section: the file ends first"),
            ("<gpx><" + String(repeating: "n", count: 300) + "/></gpx>", "a name longer than 256 bytes"),
        ]
        for (xml, message) in cases {
            #expect(Samples.refusal(xml, Samples.gpx)?.message == message, "\(xml.prefix(40))")
        }
        let attributes = (0..<65).map { "a\($0)=\"1\"" }.joined(separator: " ")
        #expect(Samples.refusal("<gpx \(attributes)/>", Samples.gpx)?.message == "more than 64 attributes in <gpx>")
    }

    @Test func hugeFeaturesAreRefusedBeforeTheyTakeMemory() {
        let wide = "<kml><Placemark>" + String(repeating: "<a/>", count: 10_001) + "</Placemark></kml>"
        #expect(
            Samples.refusal(wide, Samples.kml)?.description
                == "line 1, column 6: <Placemark> holds more than 10000 elements")
        let values = "{\"type\":\"Point\",\"x\":[" + String(repeating: "0,", count: 2_000_000) + "0]}"
        #expect(Samples.refusal(values, Samples.geoJSON)?.message == "the file holds more than 2000000 JSON values")
    }

    @Test func tooManyFeaturesAreRefused() {
        let feature = #"{"type":"Feature","geometry":null,"properties":{}}"#
        let json =
            #"{"type":"FeatureCollection","features":["#
            + Array(repeating: feature, count: 20_001).joined(separator: ",") + "]}"
        #expect(
            Samples.refusal(json, Samples.geoJSON)?.message
                == "20001 features; at most 20000 are accepted in one file")
        let gpx = "<gpx>" + String(repeating: "<wpt lat=\"1\" lon=\"1\"/>", count: 20_001) + "</gpx>"
        #expect(Samples.refusal(gpx, Samples.gpx)?.message.hasPrefix("more than 20000 waypoints") == true)
    }
}
