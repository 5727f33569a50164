import Foundation
import Testing

@testable import PlacesGazetteer

/// A tiny gazetteer in the committed file's format (line numbers matter to the tests).
private let valid = """
    places-gazetteer\t1\t1\t1\t1\t2
    # comment
    EU\tEurope\t48.6909\t9.1406\t741000000\t\tEuropa|Europe
    PT\tPortugal\t39.5\t-8\t10281762\tEU\t
    PT.14\tLisboa\t38.75\t-9.2\t2200000\tPT\tLisbon District
    2267057\tLisbon\t38.7251\t-9.1498\t517802\tPT.14\tLisboa|Lissabon
    2742611\tPorto\t41.1496\t-8.611\t249633\tPT\t

    """

/// `valid` with line `number` (1-based) replaced.
private func replacing(line number: Int, with text: String) -> String {
    var lines = valid.components(separatedBy: "\n")
    lines[number - 1] = text
    return lines.joined(separator: "\n")
}

private func load(_ text: String) throws -> Gazetteer {
    try Gazetteer.load(bytes: Array(text.utf8), file: "test.tsv")
}

@Suite("Loading a gazetteer file")
struct GazetteerLoadingTests {
    @Test("a small well-formed file loads, links and all")
    func smallFile() throws {
        let g = try load(valid)
        #expect(g.count == 5)
        #expect((0..<5).map(g.kind) == [.continent, .country, .region, .city, .city])
        #expect((0..<5).map(g.id) == ["continent:EU", "country:PT", "region:PT.14", "city:2267057", "city:2742611"])
        #expect(g.alternateNames(3) == ["Lisboa", "Lissabon"] && g.alternateNames(1).isEmpty)
        #expect(g.region(3) == 2 && g.region(4) == nil && g.country(4) == 1 && g.continent(4) == 0)
        #expect(g.longitude(1) == -8 && g.latitude(2) == 38.75)
        #expect(g.index(ofID: "city:2742611") == 4 && g.index(ofID: "region:PT.14") == 2)
    }

    @Test(
        "a malformed file gives an error naming the line and what is wrong, never a crash",
        arguments: [
            (1, "places-gazetteer\t2\t1\t1\t1\t2", "format 2"),
            (1, "gazetteer\t1\t1\t1\t1\t2", "not a gazetteer"),
            (1, "places-gazetteer\t1\t1\t1\t1\t99999999", "whole number"),
            (3, "EU\tEurope\t48.6909\t9.1406\t741000000\t", "expected 7 tab-separated fields, found 6"),
            (3, "EU\tEurope\t48.6909\t9.1406\t741000000\t\ta\tb", "found more"),
            (3, "eu\tEurope\t48.6909\t9.1406\t741000000\t\t", "two capital letters"),
            (4, "PT\tPortugal\t39.5\t-8\t10281762\tXX\t", "continent 'XX'"),
            (5, "PT.14\tLisboa\t38.75\t-9.2\t2200000\tES\t", "must name its country"),
            (5, "PT.\tLisboa\t38.75\t-9.2\t2200000\tPT\t", "a region code is"),
            (6, "2267057\tLisbon\t91\t-9.1498\t517802\tPT.14\t", "beyond ±90°"),
            (6, "2267057\tLisbon\t38.72519\t-9.1498\t517802\tPT.14\t", "at most four decimals"),
            (6, "2267057\tLisbon\t38.7251\t-9.1498\t-5\tPT.14\t", "the population must be a whole number"),
            (6, "2267057\tLisbon\t38.7251\t-9.1498\t517802\tPT.99\t", "no region or country listed before"),
            (6, "2267057\t\t38.7251\t-9.1498\t517802\tPT.14\t", "needs a name"),
            (6, "2267057\tLisbon\t38.7251\t-9.1498\t517802\tPT.14\tLisboa||Lissabon", "stray '|'"),
            (6, "99999999999\tLisbon\t38.7251\t-9.1498\t517802\tPT.14\t", "whole number"),
            (6, "4294967296\tLisbon\t38.7251\t-9.1498\t517802\tPT.14\t", "out of range"),
            (7, "2267057\tPorto\t41.1496\t-8.611\t249633\tPT\t", "out of order"),
            (7, "", "expected 7 tab-separated fields"),
        ])
    func malformed(line: Int, text: String, says: String) throws {
        let error = #expect(throws: GazetteerError.self) { try load(replacing(line: line, with: text)) }
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.message.contains("test.tsv, line \(line): ") == true)
        #expect(error?.message.contains(says) == true, "\(String(describing: error))")
        #expect(error?.code == .malformed)
    }

    @Test("a short, long, empty or non-UTF-8 file is refused in words")
    func wholeFileProblems() throws {
        let short = valid.components(separatedBy: "\n").prefix(5).joined(separator: "\n")
        #expect(throws: GazetteerError.self) { try load(short) }
        let error = #expect(throws: GazetteerError.self) { try load(short) }
        #expect(error?.message.contains("ends after 3 of 5 entries") == true, "\(String(describing: error))")
        let long = valid + "2742612\tGaia\t41.1\t-8.6\t1000\tPT\t\n"
        #expect(throws: GazetteerError.self) { try load(long) }
        #expect(throws: GazetteerError.self) { try load("") }
        var bytes = Array(replacing(line: 6, with: "2267057\tLisbon\t38.7251\t-9.1498\t517802\tPT.14\tLisbo").utf8)
        bytes.insert(0xFF, at: bytes.lastIndex(of: UInt8(ascii: "L"))!)
        let notUTF8 = #expect(throws: GazetteerError.self) { try Gazetteer.load(bytes: bytes, file: "test.tsv") }
        #expect(notUTF8?.line == 6 && notUTF8?.message == "test.tsv, line 6: not valid UTF-8")
        let missing = URL(fileURLWithPath: "/nonexistent/gazetteer.tsv")
        let unreadable = #expect(throws: GazetteerError.self) { try Gazetteer.load(contentsOf: missing) }
        #expect(unreadable?.code == .unreadable && unreadable?.message.contains("/nonexistent/gazetteer.tsv") == true)
    }

    @Test("bundledURL: the environment first, then beside the executable, then the source tree; else where it looked")
    func bundledURLOrder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gz-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let resources = dir.appendingPathComponent("places_PlacesGazetteer.resources")
        try FileManager.default.createDirectory(at: resources, withIntermediateDirectories: true)
        let beside = resources.appendingPathComponent("gazetteer.tsv")
        try Data(valid.utf8).write(to: beside)
        let own = dir.appendingPathComponent("own.tsv")
        try Data(valid.utf8).write(to: own)
        let executable = dir.appendingPathComponent("placesd")
        let env = try Gazetteer.bundledURL(environment: ["PLACES_GAZETTEER": own.path], executableURL: executable)
        #expect(env.path == own.path)
        #expect(try Gazetteer.bundledURL(environment: [:], executableURL: executable).path == beside.path)
        let elsewhere = URL(fileURLWithPath: "/nonexistent/bin/placesd")
        #expect(
            try Gazetteer.bundledURL(environment: [:], executableURL: elsewhere).path.hasSuffix(
                "Resources/gazetteer.tsv"))
        let error = #expect(throws: GazetteerError.self) {
            try Gazetteer.bundledURL(environment: ["PLACES_GAZETTEER": "/nonexistent/g.tsv"], executableURL: executable)
        }
        #expect(error?.code == .notFound && error?.message.contains("/nonexistent/g.tsv") == true)
    }
}
