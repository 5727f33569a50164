import Foundation
import PlacesModel
import Testing

@testable import PlacesDestinations

/// Forecast answers checked like peer input: a good answer read, every hostile one refused
/// with the field named.
struct WeatherReportTests {
    static func answer(
        temperature: String = "21.4", days: Int = 7, maxOverride: String? = nil, codes: String? = nil,
        minCount: Int? = nil
    ) -> String {
        let dates = (0..<days).map { "\"2026-07-\(10 + $0)\"" }.joined(separator: ",")
        let mins = (0..<(minCount ?? days)).map { _ in "14.0" }.joined(separator: ",")
        let maxes = (0..<days).map { i in i == 0 ? (maxOverride ?? "25.3") : "24" }.joined(separator: ",")
        return """
            {"latitude":38.72,"longitude":-9.14,"current":{"time":"2026-07-10T12:00","temperature_2m":\(temperature),\
            "weather_code":2,"wind_speed_10m":11.2},"daily":{"time":[\(dates)],"weather_code":[\(codes ?? (0..<days).map { _ in "61" }.joined(separator: ","))],\
            "temperature_2m_min":[\(mins)],"temperature_2m_max":[\(maxes)],\
            "precipitation_sum":[\((0..<days).map { _ in "1.2" }.joined(separator: ","))]}}
            """
    }

    static func parse(_ text: String) throws -> WeatherReport {
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        return try WeatherReport(json: json)
    }

    @Test func aGoodAnswer() throws {
        let report = try Self.parse(Self.answer())
        #expect(report.current.temperatureC == 21.4)
        #expect(report.current.condition == "partly cloudy")
        #expect(report.current.windKmh == 11.2)
        #expect(report.daily.count == 7)
        #expect(report.daily[0] == .init(date: "2026-07-10", minC: 14, maxC: 25.3, code: 61, precipitationMm: 1.2))
        #expect(report.daily[0].condition == "light rain")
    }

    @Test(arguments: [
        ("10000", "current.temperature_2m"), ("-273.16", "current.temperature_2m"),
        ("\"hot\"", "current.temperature_2m"),
        ("null", "current.temperature_2m"), ("1e308", "current.temperature_2m"),
    ])
    func absurdTemperatures(_ value: String, _ field: String) {
        #expect(throws: WeatherError.self) { try Self.parse(Self.answer(temperature: value)) }
        do {
            _ = try Self.parse(Self.answer(temperature: value))
        } catch let error as WeatherError {
            #expect(error.description.contains(field))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func wrongArrayLengths() {
        #expect(throws: WeatherError.invalidAnswer("'daily.temperature_2m_min' has 6 values for 7 days")) {
            try Self.parse(Self.answer(minCount: 6))
        }
        #expect(throws: WeatherError.invalidAnswer("'daily.time' has 0 days: 1 to 16 expected")) {
            try Self.parse(Self.answer(days: 0))
        }
        #expect(throws: WeatherError.self) { try Self.parse(Self.answer(days: 17)) }
    }

    @Test func otherHostileAnswers() {
        #expect(throws: WeatherError.self) { try Self.parse(Self.answer(maxOverride: "5")) }  // max below min
        #expect(throws: WeatherError.self) { try Self.parse(Self.answer(codes: "2.5,1,1,1,1,1,1")) }
        #expect(throws: WeatherError.self) { try Self.parse(Self.answer(codes: "100,1,1,1,1,1,1")) }
        #expect(throws: WeatherError.self) { try WeatherReport(json: .array([])) }
        #expect(throws: WeatherError.self) { try WeatherReport(json: .object(["current": .object([:])])) }
        #expect(throws: WeatherError.self) {
            try Self.parse(Self.answer().replacingOccurrences(of: "\"2026-07-12\"", with: "\"2026-13-12\""))
        }
    }

    @Test func theSourceURL() throws {
        let s = try WeatherSource("http://127.0.0.1:8080/v1/forecast?apikey=k")
        #expect(s.host == "127.0.0.1" && s.port == 8080 && s.path == "/v1/forecast" && s.query == "apikey=k")
        #expect(
            s.target(latitude: 38.72514, longitude: -9.1498)
                == "/v1/forecast?apikey=k&latitude=38.73&longitude=-9.15"
                + "&current=temperature_2m,weather_code,wind_speed_10m"
                + "&daily=weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum"
                + "&timezone=auto&forecast_days=7")
        let v6 = try WeatherSource("https://[::1]/forecast")
        #expect(v6.host == "::1" && v6.port == 443 && v6.scheme == "https")
        #expect(WeatherSource.hundredths(-0.004) == "0.00")
        #expect(WeatherSource.hundredths(-0.05) == "-0.05")
        #expect(WeatherSource.hundredths(179.999) == "180.00")
        for bad in [
            "ftp://x/", "file:///etc/passwd", "http://", "http://u:p@host/", "http://h:0/", "http://h:99999/",
            "http://h/ x", "javascript:alert(1)", "http://h/#f", String(repeating: "a", count: 600),
        ] {
            #expect(throws: WeatherError.self, "\(bad)") { try WeatherSource(bad) }
        }
    }
}
