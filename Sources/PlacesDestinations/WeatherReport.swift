import PlacesModel

/// The weather at a destination as a forecast source gave it, checked (`init(json:)`):
/// current conditions and up to 16 days, every number within bounds a real forecast keeps
/// (`WeatherReport.Bounds`). A hostile or broken source gets `WeatherError`, never a crash,
/// a huge allocation or an absurd value shown to the user.
public struct WeatherReport: Sendable, Equatable, Codable {
    /// Conditions now.
    public struct Current: Sendable, Equatable, Codable {
        public var temperatureC: Double
        /// WMO weather interpretation code (0…99), `condition` in words.
        public var code: Int
        public var windKmh: Double
        public var condition: String { WeatherCondition.name(code) }
    }

    /// One day of the forecast.
    public struct Day: Sendable, Equatable, Codable {
        /// `YYYY-MM-DD`, the destination's local date.
        public var date: String
        public var minC: Double
        public var maxC: Double
        public var code: Int
        public var precipitationMm: Double
        public var condition: String { WeatherCondition.name(code) }
    }

    public var current: Current
    public var daily: [Day]

    /// What a source may answer: beyond these, the answer is refused whole.
    public enum Bounds {
        /// °C: colder than Vostok's record, hotter than Death Valley's, with room.
        public static let temperatureC: ClosedRange<Double> = -100...70
        public static let windKmh: ClosedRange<Double> = 0...500
        public static let precipitationMm: ClosedRange<Double> = 0...2_000
        public static let code: ClosedRange<Int> = 0...99
        /// Days of forecast.
        public static let days: ClosedRange<Int> = 1...16
    }

    public init(current: Current, daily: [Day]) {
        self.current = current
        self.daily = daily
    }

    /// Reads an Open-Meteo forecast answer (`current` with `temperature_2m`, `weather_code`,
    /// `wind_speed_10m`; `daily` with `time`, `weather_code`, `temperature_2m_min`,
    /// `temperature_2m_max`, `precipitation_sum`, arrays of one length). Throws
    /// `WeatherError.invalidAnswer` naming the first field at fault.
    public init(json: JSONValue) throws(WeatherError) {
        guard let root = json.objectValue else { throw .invalidAnswer("the answer is not a JSON object") }
        guard let current = root["current"]?.objectValue else { throw .invalidAnswer("no 'current' object") }
        let now = Current(
            temperatureC: try Self.number(current["temperature_2m"], "current.temperature_2m", Bounds.temperatureC),
            code: try Self.code(current["weather_code"], "current.weather_code"),
            windKmh: try Self.number(current["wind_speed_10m"], "current.wind_speed_10m", Bounds.windKmh))
        guard let daily = root["daily"]?.objectValue else { throw .invalidAnswer("no 'daily' object") }
        func column(_ name: String) throws(WeatherError) -> [JSONValue] {
            guard let values = daily[name]?.arrayValue else { throw .invalidAnswer("no 'daily.\(name)' array") }
            return values
        }
        let dates = try column("time")
        guard Bounds.days.contains(dates.count) else {
            throw .invalidAnswer("'daily.time' has \(dates.count) days: 1 to 16 expected")
        }
        let codes = try column("weather_code"), mins = try column("temperature_2m_min")
        let maxes = try column("temperature_2m_max"), rain = try column("precipitation_sum")
        for (name, values) in [
            ("weather_code", codes), ("temperature_2m_min", mins), ("temperature_2m_max", maxes),
            ("precipitation_sum", rain),
        ] where values.count != dates.count {
            throw .invalidAnswer("'daily.\(name)' has \(values.count) values for \(dates.count) days")
        }
        var days = [Day]()
        for i in dates.indices {
            guard let date = dates[i].stringValue, Self.isDate(date) else {
                throw .invalidAnswer("'daily.time[\(i)]' is not a YYYY-MM-DD date")
            }
            if let last = days.last, last.date >= date { throw .invalidAnswer("'daily.time' dates must ascend") }
            let minC = try Self.number(mins[i], "daily.temperature_2m_min[\(i)]", Bounds.temperatureC)
            let maxC = try Self.number(maxes[i], "daily.temperature_2m_max[\(i)]", Bounds.temperatureC)
            guard minC <= maxC else { throw .invalidAnswer("day \(date): the minimum is above the maximum") }
            days.append(
                Day(
                    date: date, minC: minC, maxC: maxC, code: try Self.code(codes[i], "daily.weather_code[\(i)]"),
                    precipitationMm: try Self.number(rain[i], "daily.precipitation_sum[\(i)]", Bounds.precipitationMm)))
        }
        self.init(current: now, daily: days)
    }

    private static func number(_ value: JSONValue?, _ field: String, _ bounds: ClosedRange<Double>)
        throws(WeatherError) -> Double
    {
        guard let d = value?.doubleValue, d.isFinite else { throw .invalidAnswer("'\(field)' is not a number") }
        guard bounds.contains(d) else {
            throw .invalidAnswer("'\(field)' is \(d), outside \(bounds.lowerBound)…\(bounds.upperBound)")
        }
        // One decimal is all a forecast means, and all the dashboard shows.
        return (d * 10).rounded() / 10
    }

    private static func code(_ value: JSONValue?, _ field: String) throws(WeatherError) -> Int {
        let d = try number(value, field, Double(Bounds.code.lowerBound)...Double(Bounds.code.upperBound))
        guard d == d.rounded() else { throw .invalidAnswer("'\(field)' is not a whole number") }
        // Within 0…99 and whole: the conversion cannot trap.
        return Int(d)
    }

    /// `YYYY-MM-DD` with a month 01–12 and a day 01–31.
    static func isDate(_ text: String) -> Bool {
        let b = Array(text.utf8)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return false }
        for i in [0, 1, 2, 3, 5, 6, 8, 9] where !(48...57).contains(b[i]) { return false }
        let month = Int(b[5] - 48) * 10 + Int(b[6] - 48), day = Int(b[8] - 48) * 10 + Int(b[9] - 48)
        return (1...12).contains(month) && (1...31).contains(day)
    }
}

/// Why there is no weather: the words the dashboard shows after "weather unavailable".
public enum WeatherError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The configured URL cannot be asked (not http, no host, a port out of range).
    case badSource(String)
    /// No answer in time, the connection failed or closed.
    case unreachable(String)
    /// An HTTP status other than 200.
    case status(Int)
    /// Bigger than the size limit.
    case tooLarge(Int)
    /// Not JSON, or not a forecast within bounds.
    case invalidAnswer(String)
    /// An https source whose certificate was refused (not from an authority this machine
    /// trusts, expired, or not for the URL's host).
    case certificate(String)
    /// An https source with which no TLS session could be set up (another failure than the
    /// certificate's).
    case tls(String)

    public var description: String {
        switch self {
        case .badSource(let why): "the weather source cannot be used: \(why)"
        case .unreachable(let why): "the weather source did not answer: \(why)"
        case .status(let code): "the weather source answered HTTP \(code)"
        case .tooLarge(let limit): "the weather source's answer is over \(limit / 1_024) KiB"
        case .invalidAnswer(let why): "the weather source's answer is not a forecast: \(why)"
        case .certificate(let why): "certificate refused: \(why)"
        case .tls(let why): "the TLS handshake with the weather source failed: \(why)"
        }
    }
}
