import Testing

@testable import PlacesExpenses

@Suite struct CSVWriterTests {
    @Test func quotesWhatRFC4180SaysAndEndsLinesWithCRLF() {
        let csv = CSVWriter.document(
            header: ["title", "amount"],
            rows: [
                [.text("Dinner at Ramiro"), .number("84.50")],
                [.text("Wine, \"good\" one"), .number("-12.50")],
                [.text("two\nlines"), .text("")],
            ])
        #expect(
            csv == "title,amount\r\nDinner at Ramiro,84.50\r\n\"Wine, \"\"good\"\" one\",-12.50\r\n\"two\nlines\",\r\n")
    }

    @Test func defusesFormulas() {
        #expect(CSVWriter.field(.text("=HYPERLINK(\"http://x\")")) == "\"'=HYPERLINK(\"\"http://x\"\")\"")
        #expect(CSVWriter.field(.text("+1")) == "'+1")
        #expect(CSVWriter.field(.text("-12.50")) == "'-12.50")
        #expect(CSVWriter.field(.text("@SUM(A1)")) == "'@SUM(A1)")
        #expect(CSVWriter.field(.text("\tx")) == "'\tx")
        #expect(CSVWriter.field(.text("\rx")) == "\"'\rx\"")
        #expect(CSVWriter.field(.text("a=b")) == "a=b")
        // A number cell stays a number only when it is one.
        #expect(CSVWriter.field(.number("-12.50")) == "-12.50")
        #expect(CSVWriter.field(.number("-1+cmd|' /C calc'!A0")) == "'-1+cmd|' /C calc'!A0")
        #expect(CSVWriter.field(.number("1.2.3")) == "1.2.3")
        #expect(CSVWriter.field(.number("-")) == "'-")
        #expect(CSVWriter.field(.number("5.")) == "5.")
    }

    @Test func writesMinorUnitsAsDecimals() {
        #expect(CSVWriter.Cell.minor(8450, digits: 2) == .number("84.50"))
        #expect(CSVWriter.Cell.minor(-5, digits: 2) == .number("-0.05"))
        #expect(CSVWriter.Cell.minor(-3000, digits: 3) == .number("-3.000"))
        #expect(CSVWriter.Cell.minor(1200, digits: 0) == .number("1200"))
        #expect(CSVWriter.Cell.minor(.min, digits: 2) == .number("-92233720368547758.08"))
    }
}
