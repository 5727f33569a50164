import Foundation
import PlacesQR
import Testing

/// One reference symbol made by `Fixtures/qr/make_fixtures.py` (segno) at a fixed version, level and mask.
struct QRFixture: Decodable, Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    let correction: String
    let version: Int
    let mask: Int
    let smallestVersion: Bool
    let bytes: Int

    var testDescription: String { "\(name) (\(bytes) bytes, \(version)-\(correction), mask \(mask))" }

    var level: QRCode.ErrorCorrection {
        switch correction {
        case "L": .low
        case "Q": .quartile
        case "H": .high
        default: .medium
        }
    }

    /// The directory of the fixtures, relative to this file.
    static let directory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/qr")

    static let all: [QRFixture] = {
        struct File: Decodable { let cases: [QRFixture] }
        // Test-only: a missing or malformed fixture should stop the run loudly.
        let data = try! Data(contentsOf: directory.appendingPathComponent("cases.json"))
        return try! JSONDecoder().decode(File.self, from: data).cases
    }()

    /// The reference matrix, row by row, `true` for dark.
    func matrix() throws -> [[Bool]] {
        let text = try String(contentsOf: Self.directory.appendingPathComponent("\(name).txt"), encoding: .ascii)
        return text.split(separator: "\n").map { row in row.map { $0 == "1" } }
    }
}

@Suite("QR Code")
struct QRCodeTests {
    static func modules(of code: QRCode) -> [[Bool]] {
        (0..<code.size).map { y in (0..<code.size).map { x in code.isDark(x: x, y: y) } }
    }

    @Test("matches segno's reference matrix module for module", arguments: QRFixture.all)
    func matchesReference(fixture: QRFixture) throws {
        let code = try QRCode(
            encoding: fixture.text, correction: fixture.level, version: fixture.version, mask: fixture.mask)
        let reference = try fixture.matrix()
        #expect(code.size == 17 + 4 * fixture.version)
        #expect(reference.count == code.size)
        #expect(reference.allSatisfy { $0.count == code.size })
        #expect(code.version == fixture.version)
        #expect(code.mask == fixture.mask)
        let mine = Self.modules(of: code)
        let differing = (0..<code.size).flatMap { y in
            (0..<code.size).filter { x in mine[y][x] != reference[y][x] }.map { x in "(\(x), \(y))" }
        }
        #expect(differing.isEmpty, "modules differ at \(differing.prefix(10).joined(separator: " "))")
    }

    @Test("the fixtures' versions are the smallest that fit", arguments: QRFixture.all.filter(\.smallestVersion))
    func smallestVersionOfFixture(fixture: QRFixture) throws {
        let code = try QRCode(encoding: fixture.text, correction: fixture.level)
        #expect(code.version == fixture.version)
        #expect(code.correction == fixture.level)
        #expect((0...7).contains(code.mask))
    }

    /// Byte-mode capacities from ISO/IEC 18004 Table 7: (version, level, bytes).
    static let capacities: [(Int, QRCode.ErrorCorrection, Int)] = [
        (1, .low, 17), (1, .medium, 14), (1, .quartile, 11), (1, .high, 7),
        (9, .medium, 180), (10, .medium, 213), (13, .low, 425), (26, .high, 593),
        (40, .low, 2953), (40, .medium, 2331), (40, .quartile, 1663), (40, .high, 1273),
    ]

    @Test("picks the smallest version: a full version fits, one byte more takes the next")
    func smallestVersionAtCapacity() throws {
        for (version, correction, capacity) in Self.capacities {
            let full = try QRCode(encoding: String(repeating: "x", count: capacity), correction: correction)
            #expect(full.version == version, "\(capacity) bytes at \(correction)")
            if version < 40 {
                let over = try QRCode(encoding: String(repeating: "x", count: capacity + 1), correction: correction)
                #expect(over.version == version + 1, "\(capacity + 1) bytes at \(correction)")
            }
        }
        #expect(try QRCode(encoding: "").version == 1)
    }

    @Test("counts UTF-8 bytes, not characters")
    func utf8Bytes() throws {
        // 7 characters but 14 bytes: version 1-M holds 14 bytes, 1-H only 7 (2-H holds 14).
        let text = String(repeating: "é", count: 7)
        #expect(try QRCode(encoding: text, correction: .medium).version == 1)
        #expect(try QRCode(encoding: text, correction: .high).version == 2)
    }

    @Test("too long a text throws, naming its length and the limit")
    func tooLong() {
        let text = String(repeating: "x", count: 2332)
        #expect {
            try QRCode(encoding: text, correction: .medium)
        } throws: { error in
            guard let error = error as? QRCode.EncodingError else { return false }
            return error.message.contains("2332 bytes") && error.message.contains("at most 2331")
        }
        #expect(throws: QRCode.EncodingError.self) { try QRCode(encoding: "x", correction: .low, version: 41) }
        #expect(throws: QRCode.EncodingError.self) { try QRCode(encoding: "x", mask: 8) }
        // A fixed version that is too small throws too.
        #expect(throws: QRCode.EncodingError.self) {
            try QRCode(encoding: String(repeating: "x", count: 15), correction: .medium, version: 1)
        }
    }

    @Test("a typical share link fits a small symbol at medium correction")
    func shareLink() throws {
        let fragment = String(repeating: "AbC-_9", count: 40)
        let link = "places://join/0123456789abcdef0123456789abcdef#" + fragment
        let code = try QRCode(encoding: link)
        #expect(code.correction == .medium)
        #expect(code.version <= 12)
        #expect(code.isDark(x: -1, y: 0) == false)
        #expect(code.isDark(x: code.size, y: 0) == false)
        // Finder pattern corners are dark.
        #expect(code.isDark(x: 0, y: 0) && code.isDark(x: code.size - 1, y: 0) && code.isDark(x: 0, y: code.size - 1))
    }

    @Test("terminalString: two module rows per line, a 4-module quiet zone, and the modules", arguments: [false, true])
    func terminalString(invert: Bool) throws {
        let code = try QRCode(encoding: "places://join/0123456789abcdef0123456789abcdef#token")
        let lines = code.terminalString(invert: invert).split(separator: "\n", omittingEmptySubsequences: false)
        let width = code.size + 8
        #expect(lines.count == (width + 1) / 2)
        #expect(lines.allSatisfy { $0.count == width })

        // Decode the half blocks back into module rows (with the quiet zone); `ink` is what a glyph marks.
        let rows = lines.flatMap { line -> [[Bool]] in
            let upper = line.map { $0 == "█" || $0 == "▀" }
            let lower = line.map { $0 == "█" || $0 == "▄" }
            return [upper, lower]
        }
        #expect(lines.allSatisfy { $0.allSatisfy { " ▀▄█".contains($0) } })
        for y in 0..<width {
            for x in 0..<width {
                let dark = code.isDark(x: x - 4, y: y - 4)
                #expect(rows[y][x] == (dark != invert), "module (\(x - 4), \(y - 4))")
            }
        }
        // The quiet zone: four rows and columns on every side without dark modules.
        let quiet = (0..<width).filter { $0 < 4 || $0 >= width - 4 }
        for y in 0..<width {
            for x in 0..<width where quiet.contains(x) || quiet.contains(y) {
                #expect(rows[y][x] == invert)
            }
        }
    }
}
