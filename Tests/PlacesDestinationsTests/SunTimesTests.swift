import Foundation
import Testing

@testable import PlacesDestinations

/// Sun times against PyPI `astral` 3.2 (an independent implementation of NOAA's solar
/// calculator), computed at development time into `sun-vectors.tsv`
/// (contrib/destinations/sun-vectors.py): 18 places from the equator to 78°, both
/// hemispheres and both sides of the date line, at the solstices, equinoxes and other dates.
struct SunTimesTests {
    struct Vector: CustomStringConvertible {
        var label: String
        var latitude: Double
        var longitude: Double
        var date: (year: Int, month: Int, day: Int)
        var dateText: String
        /// Minutes after 00:00 UTC, or nil with `polar` set.
        var rise: Double?
        var set: Double?
        var polar: SunTimes.Kind?
        var description: String { "\(label) \(dateText)" }
    }

    static let vectors: [Vector] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("sun-vectors.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line -> Vector? in
            if line.hasPrefix("#") { return nil }
            let f = line.split(separator: "\t").map(String.init)
            guard f.count == 6, let lat = Double(f[1]), let lon = Double(f[2]) else { return nil }
            let d = f[3].split(separator: "-").compactMap { Int($0) }
            guard d.count == 3 else { return nil }
            let polar: SunTimes.Kind? =
                f[4] == "polar-day" ? .polarDay : f[4] == "polar-night" ? .polarNight : nil
            return Vector(
                label: f[0], latitude: lat, longitude: lon, date: (d[0], d[1], d[2]), dateText: f[3],
                rise: Double(f[4]), set: Double(f[5]), polar: polar)
        }
    }()

    @Test func theVectorFileIsThere() {
        #expect(Self.vectors.count == 126)
        #expect(Self.vectors.filter { $0.polar != nil }.count == 16)
    }

    /// Within 2 minutes of the reference up to the polar circles (66.56°).
    @Test(arguments: vectors.filter { abs($0.latitude) < 66.5 })
    func withinTwoMinutes(_ v: Vector) throws {
        let sun = try #require(
            SunTimes(
                latitude: v.latitude, longitude: v.longitude, year: v.date.year, month: v.date.month, day: v.date.day))
        #expect(sun.kind == .normal)
        let rise = try #require(sun.sunriseMinutesUTC), set = try #require(sun.sunsetMinutesUTC)
        #expect(abs(rise - (v.rise ?? .nan)) <= 2, "sunrise \(rise) vs \(v.rise ?? .nan)")
        #expect(abs(set - (v.set ?? .nan)) <= 2, "sunset \(set) vs \(v.set ?? .nan)")
        // The day's length is the difference of two times each within 2 minutes, rounded.
        let length = (v.set ?? 0) - (v.rise ?? 0)
        #expect(abs(Double(sun.dayLengthMinutes) - length) <= 4.5)
    }

    /// Beyond the polar circles: polar day and night where the reference has them (null
    /// times, a day of 1440 or 0 minutes), and times within 5 minutes on other days (the sun
    /// grazes the horizon there: a minute of arc moves sunrise by minutes).
    @Test(arguments: vectors.filter { abs($0.latitude) >= 66.5 })
    func polar(_ v: Vector) throws {
        let sun = try #require(
            SunTimes(
                latitude: v.latitude, longitude: v.longitude, year: v.date.year, month: v.date.month, day: v.date.day))
        if let polar = v.polar {
            #expect(sun.kind == polar)
            #expect(sun.sunriseMinutesUTC == nil && sun.sunsetMinutesUTC == nil)
            #expect(sun.dayLengthMinutes == (polar == .polarDay ? 1_440 : 0))
        } else {
            let rise = try #require(sun.sunriseMinutesUTC), set = try #require(sun.sunsetMinutesUTC)
            #expect(abs(rise - (v.rise ?? .nan)) <= 5, "sunrise \(rise) vs \(v.rise ?? .nan)")
            #expect(abs(set - (v.set ?? .nan)) <= 5, "sunset \(set) vs \(v.set ?? .nan)")
        }
    }

    /// At the poles themselves the sun's height is its declination: day in the pole's summer.
    @Test func thePoles() throws {
        let northJune = try #require(SunTimes(latitude: 90, longitude: 0, year: 2026, month: 6, day: 21))
        let southJune = try #require(SunTimes(latitude: -90, longitude: 0, year: 2026, month: 6, day: 21))
        #expect(northJune.kind == .polarDay && southJune.kind == .polarNight)
    }

    @Test func offTheGlobeIsRefused() {
        #expect(SunTimes(latitude: 91, longitude: 0, year: 2026, month: 1, day: 1) == nil)
        #expect(SunTimes(latitude: 0, longitude: .nan, year: 2026, month: 1, day: 1) == nil)
        #expect(SunTimes(latitude: 0, longitude: 181, year: 2026, month: 1, day: 1) == nil)
        #expect(SunTimes(latitude: 0, longitude: 0, year: 10_000, month: 1, day: 1) == nil)
    }
}
