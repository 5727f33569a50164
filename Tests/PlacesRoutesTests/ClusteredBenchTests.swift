import Foundation
import Testing

@testable import PlacesRoutes

/// bench/clustered's reference lengths were computed by LKH-3 on matrices built by
/// scripts/clustered-cities.py; these tests prove the Swift cost model builds the same
/// integer matrices (checksums) and that the reference tours are plausible.
@Suite("Clustered bench data")
struct ClusteredBenchTests {
    private var directory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("bench/clustered")
    }

    @Test("every instance's walking matrix in deciseconds has the checksum LKH-3 was given")
    func matricesMatchTheReference() throws {
        let reference = try String(contentsOf: directory.appendingPathComponent("reference.tsv"), encoding: .utf8)
        var checked = 0
        for line in reference.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t")
            try #require(fields.count >= 4)
            let name = String(fields[0])
            let csv = try String(contentsOf: directory.appendingPathComponent("\(name).csv"), encoding: .utf8)
            let points = csv.split(whereSeparator: \.isNewline).dropFirst().compactMap { row -> GeoPoint? in
                let cells = row.split(separator: ",")
                guard cells.count == 3, let latitude = Double(cells[1]), let longitude = Double(cells[2]) else {
                    return nil
                }
                return GeoPoint(latitude: latitude, longitude: longitude)
            }
            #expect(points.count == Int(fields[1]), "\(name): place count")
            #expect((100...200).contains(points.count))
            let seconds = try GreatCircleMatrixProvider().travelMatrices(for: points, mode: .walking).durationSeconds
            let checksum = seconds.values.reduce(0) { $0 + Int(($1 * 10 + 0.5).rounded(.down)) }
            #expect(checksum == Int(fields[2]), "\(name): matrix checksum")
            checked += 1
        }
        #expect(checked == 10)
    }
}
