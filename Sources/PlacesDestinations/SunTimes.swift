import Foundation

/// Sunrise, sunset and day length for a position and a date, computed offline with the
/// equations of NOAA's solar calculator (Meeus, "Astronomical Algorithms": the sun's
/// declination and the equation of time from the Julian century), the sun's centre 0.833°
/// below the horizon (refraction and the solar disc's radius), each event computed twice
/// (the second time at the first answer's instant), which keeps them within a minute of
/// NOAA's own tables up to the polar circles.
///
/// Times are minutes from 00:00 UTC of the date asked: the caller turns them into local
/// time with the place's zone (`docs/destinations.md`).
public struct SunTimes: Sendable, Equatable {
    /// What the sun does that day.
    public enum Kind: String, Sendable {
        /// It rises and sets.
        case normal
        /// It never sets (polar day): no sunrise or sunset, a day of 1440 minutes.
        case polarDay
        /// It never rises (polar night): no sunrise or sunset, a day of 0 minutes.
        case polarNight
    }

    public var kind: Kind
    /// Minutes after 00:00 UTC of the date (negative or past 1440 when the event falls on
    /// the day before or after in UTC); nil in polar day or night.
    public var sunriseMinutesUTC: Double?
    public var sunsetMinutesUTC: Double?

    /// The day's length in whole minutes: 1440 in polar day, 0 in polar night.
    public var dayLengthMinutes: Int {
        switch kind {
        case .polarDay: return 1_440
        case .polarNight: return 0
        case .normal:
            guard let rise = sunriseMinutesUTC, let set = sunsetMinutesUTC else { return 0 }
            // Both are within a few days' minutes of the date: the difference is small and finite.
            return Int(max(0, min(1_440, (set - rise).rounded())))
        }
    }

    /// The sun's centre this far below the horizon is sunrise or sunset.
    static let zenithDegrees = 90.833

    /// Sun times at `latitude`, `longitude` (degrees; north and east positive) on the civil
    /// date `year-month-day`. Nil for a position off the globe or a date out of 1…9999.
    public init?(latitude: Double, longitude: Double, year: Int, month: Int, day: Int) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
            (1...9_999).contains(year), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let julianDay = Self.julianDay(year: year, month: month, day: day)
        // Solar noon first: the declination there decides whether the sun rises at all.
        var noon = 720 - 4 * longitude
        for _ in 0..<2 { noon = 720 - 4 * longitude - Self.sun(julianDay, minutes: noon).equationOfTime }
        let atNoon = Self.sun(julianDay, minutes: noon)
        guard let angle = Self.hourAngle(latitude: latitude, declination: atNoon.declination) else {
            kind = Self.isAboveHorizon(latitude: latitude, declination: atNoon.declination) ? .polarDay : .polarNight
            sunriseMinutesUTC = nil
            sunsetMinutesUTC = nil
            return
        }
        var rise = noon - 4 * angle, set = noon + 4 * angle
        // Each event again with the sun's position at that event.
        for _ in 0..<2 {
            let atRise = Self.sun(julianDay, minutes: rise), atSet = Self.sun(julianDay, minutes: set)
            guard let a = Self.hourAngle(latitude: latitude, declination: atRise.declination),
                let b = Self.hourAngle(latitude: latitude, declination: atSet.declination)
            else { break }
            rise = 720 - 4 * longitude - atRise.equationOfTime - 4 * a
            set = 720 - 4 * longitude - atSet.equationOfTime + 4 * b
        }
        kind = .normal
        sunriseMinutesUTC = rise
        sunsetMinutesUTC = set
    }

    /// The Julian day at 00:00 UTC of a Gregorian date. Callers pass a year of 1…9999 and a
    /// month of 1…12 (checked by `init`), so each truncated product is below 3.7 million: the
    /// `Int(…)` conversions cannot trap.
    static func julianDay(year: Int, month: Int, day: Int) -> Double {
        var y = year, m = month
        if m <= 2 {
            y -= 1
            m += 12
        }
        let a = y / 100
        let b = 2 - a + a / 4
        return Double(Int(365.25 * Double(y + 4_716))) + Double(Int(30.6001 * Double(m + 1))) + Double(day)
            + Double(b) - 1_524.5
    }

    /// The sun's declination (degrees) and the equation of time (minutes) at `minutes` after
    /// 00:00 UTC of the Julian day.
    static func sun(_ julianDay: Double, minutes: Double) -> (declination: Double, equationOfTime: Double) {
        let t = (julianDay + minutes / 1_440 - 2_451_545) / 36_525
        let meanLongitude = (280.46646 + t * (36_000.76983 + t * 0.0003032)).truncatingRemainder(dividingBy: 360)
        let meanAnomaly = 357.52911 + t * (35_999.05029 - 0.0001537 * t)
        let eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let m = radians(meanAnomaly)
        let centre =
            sin(m) * (1.914602 - t * (0.004817 + 0.000014 * t)) + sin(2 * m) * (0.019993 - 0.000101 * t)
            + sin(3 * m) * 0.000289
        let omega = radians(125.04 - 1_934.136 * t)
        let apparentLongitude = meanLongitude + centre - 0.00569 - 0.00478 * sin(omega)
        let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
        let obliquity = meanObliquity + 0.00256 * cos(omega)
        let declination = degrees(asin(sin(radians(obliquity)) * sin(radians(apparentLongitude))))
        let y = pow(tan(radians(obliquity / 2)), 2)
        let l = radians(meanLongitude)
        let equation =
            y * sin(2 * l) - 2 * eccentricity * sin(m) + 4 * eccentricity * y * sin(m) * cos(2 * l)
            - 0.5 * y * y * sin(4 * l) - 1.25 * eccentricity * eccentricity * sin(2 * m)
        return (declination, 4 * degrees(equation))
    }

    /// The hour angle (degrees) of sunrise at this latitude and declination; nil when the sun
    /// stays above or below the horizon all day.
    static func hourAngle(latitude: Double, declination: Double) -> Double? {
        let phi = radians(latitude), delta = radians(declination)
        let denominator = cos(phi) * cos(delta)
        // At a pole the sun's height is its declination all day.
        guard abs(denominator) > 1e-12 else { return nil }
        let c = cos(radians(zenithDegrees)) / denominator - tan(phi) * tan(delta)
        guard c >= -1, c <= 1 else { return nil }
        return degrees(acos(c))
    }

    /// Whether the sun's centre is above the sunrise altitude at solar noon.
    static func isAboveHorizon(latitude: Double, declination: Double) -> Bool {
        90 - abs(latitude - declination) > 90 - zenithDegrees
    }

    static func radians(_ d: Double) -> Double { d * .pi / 180 }
    static func degrees(_ r: Double) -> Double { r * 180 / .pi }
}
