import ArgumentParser
import Foundation
import PlacesAPI
import PlacesModel

/// How trip views are drawn: with a symbol per item type, or words only (`--plain`, for
/// terminals and fonts without emoji, and for scripts that grep the output).
struct TripStyle: ParsableArguments {
    @Flag(help: "Words instead of emoji symbols for item types.")
    var plain = false
}

/// Human renderings of items, days, warnings and checklists (issue 13).
enum TripFormat {
    /// The symbol (or, plain, the word) for an item's type; transports by their mode.
    static func symbol(_ item: TripItem, plain: Bool) -> String {
        switch item.type {
        case "lodging": return plain ? "[stay]" : "🛏"
        case "transport":
            let mode = item.mode ?? "other"
            if plain { return "[\(mode)]" }
            switch mode {
            case "flight": return "✈️"
            case "train": return "🚆"
            case "bus": return "🚌"
            case "car": return "🚗"
            case "ferry": return "⛴️"
            default: return "🚐"
            }
        case "food": return plain ? "[food]" : "🍽"
        case "activity": return plain ? "[do]" : "🎟"
        case "place": return plain ? "[place]" : "📍"
        default: return plain ? "[\(item.type)]" : "•"
        }
    }

    /// The date part of a local date or date-time (`2027-05-03T09:10` → `2027-05-03`).
    static func datePart(_ local: String?) -> String? {
        guard let local, local.count >= 10 else { return nil }
        return String(local.prefix(10))
    }

    /// The time part of a local date-time (`2027-05-03T09:10` → `09:10`), nil for a date.
    static func timePart(_ local: String?) -> String? {
        guard let local, local.count > 11 else { return nil }
        return String(local.dropFirst(11))
    }

    /// Days from one `YYYY-MM-DD` to another; nil when either is not a date.
    static func dayDifference(_ from: String, _ to: String) -> Int? {
        guard let a = parseDate(from), let b = parseDate(to) else { return nil }
        return Int((b.timeIntervalSince(a) / 86_400).rounded())
    }

    static func parseDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.date(from: text)
    }

    /// "Mon 3 May 2027", or the text itself when it is not a date.
    static func longDate(_ date: String) -> String {
        guard let parsed = parseDate(date) else { return date }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE d MMM yyyy"
        return formatter.string(from: parsed)
    }

    /// The time column of an item on `date`: "09:10–12:05", "22:40–07:15+1", "15:00", or ""
    /// for an untimed item. A lodging shows its check-in time on the check-in day and its
    /// check-out time on the check-out day.
    static func timeLabel(_ item: TripItem, on date: String) -> String {
        let startDate = datePart(item.start)
        let endDate = datePart(item.end)
        if item.type == "lodging" {
            if startDate == date { return timePart(item.start) ?? "" }
            if endDate == date { return timePart(item.end) ?? "" }
            return ""
        }
        guard startDate == date, let start = timePart(item.start) else {
            // An item that began earlier and ends today shows when it ends.
            if let endDate, endDate == date, startDate != date, let end = timePart(item.end) { return "–" + end }
            return ""
        }
        guard let end = timePart(item.end), let endDate, let startDate else { return start }
        let days = dayDifference(startDate, endDate) ?? 0
        return "\(start)–\(end)" + (days > 0 ? "+\(days)" : "")
    }

    /// What a day line says about an item: "Check in Casa Porto", "Ramiro  (★4.5)".
    static func label(_ item: TripItem, on date: String?, plain: Bool) -> String {
        var text = item.title
        switch item.type {
        case "lodging":
            if let date, datePart(item.start) == date {
                text = "Check in \(item.title)"
            } else if let date, datePart(item.end) == date {
                text = "Check out \(item.title)"
            }
        case "transport":
            if let from = item.location?.name, let to = item.to?.name, !item.title.contains(to) {
                text += "  \(from) → \(to)"
            }
            let code = [item.carrier, item.number].compactMap { $0 }.joined(separator: " ")
            if !code.isEmpty { text += "  (\(code))" }
        case "food":
            if let rating = item.rating {
                text += plain ? "  (\(Format.number(rating))/5)" : "  (★\(Format.number(rating)))"
            }
        case "activity":
            if item.booked == true { text += "  (booked)" }
        default:
            break
        }
        return text
    }

    /// "Day 3 · Mon 3 May 2027 · sleeping at Casa Porto" and one line per item.
    static func day(_ day: TripDay, plain: Bool) -> String {
        var header = (day.number.map { "Day \($0) · " } ?? "") + longDate(day.date)
        if let lodging = day.lodging { header += " · sleeping at \(lodging.title)" }
        if let w = day.weather { header += " · " + forecast(w) }
        guard !day.items.isEmpty else { return header + "\n  nothing planned" }
        let times = day.items.map { timeLabel($0, on: day.date) }
        let width = max(11, times.map(\.count).max() ?? 0)
        var lines = [header]
        for (item, time) in zip(day.items, times) {
            let pad = String(repeating: " ", count: width - time.count)
            lines.append("  \(time)\(pad)  \(symbol(item, plain: plain)) \(label(item, on: day.date, plain: plain))")
        }
        return lines.joined(separator: "\n")
    }

    /// "15–26 °C, partly cloudy, 0.4 mm (Lisbon)": a day's forecast in the day's header.
    static func forecast(_ w: TripDayWeather) -> String {
        // Clamped to ±100 first (`min(100, .nan)` is 100 as well): the conversion cannot trap.
        func degrees(_ c: Double) -> String { String(Int((max(-100, min(100, c))).rounded())) }
        let rain = w.precipitationMm > 0 ? ", \((w.precipitationMm * 10).rounded() / 10) mm" : ""
        return "\(degrees(w.minC))–\(degrees(w.maxC)) °C, \(w.condition)\(rain) (\(w.destination.name))"
    }

    /// Every day, blank-line separated, then the unscheduled items.
    static func days(_ list: DayList, plain: Bool) -> String {
        var blocks = list.days.map { day($0, plain: plain) }
        if list.days.isEmpty {
            blocks.append("no days yet: give the itinerary dates (`places itinerary edit ITIN --start … --end …`)")
        }
        if !list.unscheduled.isEmpty {
            let lines = list.unscheduled.map { "  \(symbol($0, plain: plain)) \(label($0, on: nil, plain: plain))" }
            blocks.append((["Not on a day yet:"] + lines).joined(separator: "\n"))
        }
        return blocks.joined(separator: "\n\n")
    }

    /// "2027-05-03 09:10 → 12:05", "2027-05-03 → 2027-05-06", or "" when undated.
    static func when(_ item: TripItem) -> String {
        func show(_ local: String) -> String { local.replacingOccurrences(of: "T", with: " ") }
        switch (item.start, item.end) {
        case (let start?, let end?):
            if datePart(start) == datePart(end), let time = timePart(end), timePart(start) != nil {
                return "\(show(start)) → \(time)"
            }
            return start == end ? show(start) : "\(show(start)) → \(show(end))"
        case (let start?, nil): return show(start)
        case (nil, let end?): return "until \(show(end))"
        case (nil, nil): return ""
        }
    }

    /// An item's id as printed: short for entity ids, whole for `legacy-…`.
    static func itemID(_ item: TripItem) -> String { Format.shortID(item.id) }

    /// The items table of `places item list`.
    static func itemTable(_ items: [TripItem]) -> String {
        var table = Table("ID", "TYPE", "WHEN", "TITLE", "PRICE")
        for item in items {
            let type = item.type == "transport" ? "transport/\(item.mode ?? "other")" : item.type
            table.append(
                itemID(item), type + (item.legacy == true ? "*" : ""), when(item), item.title,
                item.price?.description ?? "")
        }
        var out = table.render()
        if items.contains(where: { $0.legacy == true }) {
            out += "\n* the itinerary's own lodging/transportation: edit with `places itinerary edit`"
        }
        return out
    }

    /// Every field of one item, `key: value`.
    static func itemFields(_ item: TripItem) -> String {
        func place(_ location: ItemLocation?) -> String? {
            guard let location else { return nil }
            var parts = [location.name, location.address].compactMap { $0 }
            if let lat = location.latitude, let lon = location.longitude {
                parts.append("(\(Format.coordinates(lat, lon)))")
            }
            return parts.isEmpty ? nil : parts.joined(separator: ", ")
        }
        let isLodging = item.type == "lodging"
        var fields = Fields()
        fields["id"] = item.id
        fields["type"] =
            item.type + (item.legacy == true ? " (the itinerary's own; edit with `places itinerary edit`)" : "")
        fields["title"] = item.title
        fields["mode"] = item.mode
        fields[isLodging ? "check-in" : "start"] = item.start.map { $0.replacingOccurrences(of: "T", with: " ") }
        fields[isLodging ? "check-out" : "end"] = item.end.map { $0.replacingOccurrences(of: "T", with: " ") }
        fields["time zone"] = item.timeZone
        fields["arrival time zone"] = item.endTimeZone
        fields[item.type == "transport" ? "from" : "at"] = place(item.location)
        fields["to"] = place(item.to)
        fields["carrier"] = item.carrier
        fields["number"] = item.number
        fields["booking"] = item.bookingReference
        fields["confirmation"] = item.confirmationCode
        fields["contact"] = item.contact
        fields["rating"] = item.rating.map { Format.number($0) + " / 5" }
        fields["recommendation"] = item.recommendation
        fields["description"] = item.description
        fields["booked"] = item.booked.map { $0 ? "yes" : "no" }
        fields["linked to"] = item.linkedItem.map(Format.shortID)
        fields["place"] = item.placeId.map(Format.shortID)
        fields["price"] = item.price?.description
        fields["url"] = item.url
        fields["notes"] = item.notes
        fields["created"] = item.createdAt.map(Format.time)
        fields["updated"] = item.updatedAt.map(Format.time)
        return fields.render()
    }

    /// `⚠ code: message` per warning, or a line saying the trip looks fine.
    static func warnings(_ list: WarningList, plain: Bool) -> String {
        guard !list.warnings.isEmpty else { return "no problems found" }
        let mark = plain ? "warning" : "⚠"
        var lines = list.warnings.map { "\(mark) \($0.code): \($0.message)" }
        lines.append("\(list.warnings.count) warning\(list.warnings.count == 1 ? "" : "s")")
        return lines.joined(separator: "\n")
    }

    /// The checklist as a table: position, id, box, text, list, assignee.
    static func checklist(_ list: ChecklistList) -> String {
        var table = Table("#", "ID", "DONE", "TEXT", "LIST", "ASSIGNEE", alignments: [.right])
        for item in list.items {
            table.append(
                "\(item.position).", Format.shortID(item.id), item.checked ? "[x]" : "[ ]", item.text, item.list ?? "",
                item.assigneeName ?? item.assignee.map { String($0.prefix(15)) } ?? "")
        }
        let done = list.items.filter(\.checked).count
        return table.render() + "\n\(done) of \(list.count) done"
    }
}

/// Parses "12.50 EUR" (or "EUR 12.50") into exact minor units of the currency.
func parsePrice(_ text: String, option: String) throws -> Money {
    var parts = text.split(whereSeparator: \.isWhitespace).map(String.init)
    // "150EUR" and "EUR150" as well as "150 EUR".
    if parts.count == 1, let word = parts.first, word.count > 3 {
        let head = String(word.prefix(3)), tail = String(word.suffix(3))
        if tail.allSatisfy(\.isLetter) {
            parts = [String(word.dropLast(3)), tail]
        } else if head.allSatisfy(\.isLetter) {
            parts = [head, String(word.dropFirst(3))]
        }
    }
    guard parts.count == 2 else {
        throw ValidationError("\(option) '\(text)' is not an amount with its currency, like \"12.50 EUR\"")
    }
    let (amount, code) =
        Money.isValidCurrency(parts[1].uppercased()) && parts[1].count == 3
        ? (parts[0], parts[1].uppercased()) : (parts[1], parts[0].uppercased())
    guard Money.isValidCurrency(code) else {
        throw ValidationError("\(option) '\(text)' has no ISO 4217 currency code like EUR")
    }
    return try parseMoney(amount, currency: code, option: option)
}

/// Checks a local date or date-time option (`2027-05-03`, `2027-05-03T09:10` or
/// `2027-05-03 09:10`) and returns it in the API's form (`T`).
func localDateTime(_ text: String, option: String) throws -> String {
    let normalized = text.count == 16 ? text.replacingOccurrences(of: " ", with: "T") : text
    let bad = ValidationError("\(option) '\(text)' is not a date like 2027-05-03 or a time like 2027-05-03T09:10")
    guard normalized.count == 10 || normalized.count == 16 else { throw bad }
    try validateDate(String(normalized.prefix(10)), option: option)
    if normalized.count == 16 {
        let time = Array(normalized.utf8.dropFirst(10))
        let digit: (UInt8) -> Int? = { (48...57).contains($0) ? Int($0) - 48 : nil }
        guard time[0] == UInt8(ascii: "T"), time[3] == UInt8(ascii: ":"), let h1 = digit(time[1]),
            let h2 = digit(time[2]), let m1 = digit(time[4]), let m2 = digit(time[5]), h1 * 10 + h2 < 24,
            m1 * 10 + m2 < 60
        else { throw bad }
    }
    return normalized
}

/// A day reference for `--day`: a 1-based number or a `YYYY-MM-DD` date.
func dayReference(_ text: String, option: String = "--day") throws -> (date: String?, number: Int?) {
    if let number = Int(text) {
        guard number >= 1 else { throw ValidationError("\(option) starts at day 1") }
        return (nil, number)
    }
    guard (try? validateDate(text, option: option)) != nil else {
        throw ValidationError("\(option) '\(text)' is neither a day number (1, 2, …) nor a date like 2027-05-03")
    }
    return (text, nil)
}
