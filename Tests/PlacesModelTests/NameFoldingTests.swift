import PlacesModel
import Testing

/// Names typed any way match: case, accents, apostrophes and punctuation don't matter.
@Suite struct NameFoldingTests {
    @Test(arguments: [
        ("São Paulo", "sao paulo"), ("Zürich", "zurich"), ("München", "munchen"), ("Île-de-France", "ile de france"),
        ("Córdoba", "cordoba"), ("Straße", "strasse"), ("Ærøskøbing", "aeroskobing"), ("Łódź", "lodz"),
        ("Đà Nẵng", "da nang"), ("Þórshöfn", "thorshofn"), ("Œuvre", "oeuvre"), ("Dıyarbakır", "diyarbakir"),
        ("İstanbul", "istanbul"), ("Côte d'Ivoire", "cote divoire"), ("N’Djamena", "ndjamena"), ("Hawaiʻi", "hawaii"),
        ("  Saint-Jean--de   Luz.  ", "saint jean de luz"), ("St. John's", "st johns"), ("Ǆemal", "dzemal"),
        ("e\u{301}cole", "ecole"), ("Ｔｏｋｙｏ", "tokyo"), ("Москва", "москва"), ("東京 Tokyo", "東京 tokyo"),
        ("Ἀθῆναι", "αθηναι"), ("Belém\tTower\n", "belem tower"), ("", ""), ("'''", ""), ("A&B/C", "a b c"),
        ("Nuevo León", "nuevo leon"), ("Xi'an", "xian"), ("Ḩalab", "halab"),
    ])
    func folds(_ input: String, _ expected: String) {
        #expect(NameFolding.fold(input) == expected)
    }

    @Test func theTableAgreesWithFoundationForEveryLatinLetter() {
        // Every Latin letter with a plain base folds to that base's lowercase (the table is
        // generated; this catches a wrong row).
        for v in UInt32(0xC0)..<0x250 {
            guard let scalar = Unicode.Scalar(v), scalar.properties.isAlphabetic else { continue }
            let folded = NameFolding.fold(String(Character(scalar)))
            #expect(!folded.isEmpty, "U+\(String(v, radix: 16)) folds to nothing")
            #expect(folded == NameFolding.fold(folded), "U+\(String(v, radix: 16)): not idempotent")
        }
    }

    @Test func foldingTwiceChangesNothing() {
        for s in ["São Paulo", "Ærø", "Москва", "  a  b ", "ǅ", "ß"] {
            #expect(NameFolding.fold(NameFolding.fold(s)) == NameFolding.fold(s))
        }
    }

    @Test func anyInputIsBoundedAndNeverTraps() {
        let huge = [
            String(repeating: "ß", count: 5000), String(repeating: "Ж", count: 5000),
            String(repeating: "é", count: 5000), String(repeating: "\u{FDFA}", count: 500),
            String(repeating: "a ", count: 5000), String(decoding: (0..<4096).map { UInt8($0 % 256) }, as: UTF8.self),
        ]
        for s in huge {
            let folded = NameFolding.fold(s)
            #expect(folded.utf8.count <= NameFolding.maxOutputBytes)
            #expect(!folded.hasPrefix(" ") && !folded.hasSuffix(" "))
        }
        var bytes: [UInt8] = [1, 2, 3]
        NameFolding.fold("Zürich", into: &bytes)
        #expect(bytes == Array("zurich".utf8))
    }
}

@Test("a mark with no letter before it (after invalid bytes) is dropped, so folding twice changes nothing")
func orphanMarkFoldsOnce() {
    let bytes: [UInt8] = [0x53, 0xC3, 0xA3, 0x6F, 0x20, 0x50, 0x61, 0x75, 0x95, 0x90, 0xDF, 0xBD, 0x9E, 0x79]
    let once = NameFolding.fold(String(decoding: bytes, as: UTF8.self))
    #expect(NameFolding.fold(once) == once, "\(Array(once.unicodeScalars))")
    #expect(once.hasPrefix("sao pau"))
}

@Test("a lowercase letter above U+0250 folds as its capital does (ʒ and Ʒ are z), alone and beside another script")
func lowercaseEzhFoldsLikeItsCapital() {
    #expect(NameFolding.fold("Ʒ") == "z")
    #expect(NameFolding.fold("ʒ") == "z")
    #expect(NameFolding.fold("p Ʒ 東京") == "p z 東京")
}
