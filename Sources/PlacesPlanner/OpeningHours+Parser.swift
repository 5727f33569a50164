/// Reads the common forms of OSM `opening_hours` into seven days of open ranges
/// (docs/opening-hours.md). Anything outside them makes the whole text unknown (nil): a
/// rule half understood could say "open" when the place is closed.
enum OpeningHoursParser {
    /// A word of the text. Whitespace separates tokens and is otherwise ignored.
    enum Token: Equatable {
        /// `Mo` … `Su` (any case): 0 = Monday … 6 = Sunday.
        case weekday(Int)
        /// `PH` or `SH` (public or school holidays): rules that only select them are ignored.
        case holiday
        /// `H:MM` or `HH:MM`, in minutes; hours up to 48 (OSM's extended time), minutes < 60.
        case time(Int)
        case dash, comma, semicolon
        case twentyFourSeven
        /// `off` or `closed`.
        case off
        /// `open`: the default modifier, written out.
        case open

        var selectsDays: Bool {
            switch self {
            case .weekday, .holiday: true
            default: false
            }
        }
    }

    /// One rule: its day selection, time spans and modifier.
    struct Rule {
        var days = [Bool](repeating: false, count: 7)
        var namesWeekdays = false
        var namesHoliday = false
        /// `PH Mo`: holidays that fall on a Monday — holidays only, like `PH`.
        var holidayOnWeekdays = false
        var spans: [Range<Int>] = []
        var closed = false
    }

    /// Seven days (Monday first) of sorted, disjoint ranges, or nil when not understood.
    static func parse(_ text: String) -> [[Range<Int>]]? {
        guard let tokens = tokenize(Array(text.utf8)) else { return nil }
        var cursor = Cursor(tokens: tokens)
        return cursor.parseDomain()
    }

    static let dayWords = ["mo", "tu", "we", "th", "fr", "sa", "su"]

    static func tokenize(_ bytes: [UInt8]) -> [Token]? {
        var tokens: [Token] = []
        var index = 0
        func isDigit(_ at: Int) -> Bool { at < bytes.count && (0x30...0x39).contains(bytes[at]) }
        func isLetter(_ at: Int) -> Bool { at < bytes.count && (bytes[at] | 0x20 >= 0x61 && bytes[at] | 0x20 <= 0x7A) }
        // A UInt8 widened to Int, minus 0x30: never traps (callers check the byte is a digit).
        func digit(_ at: Int) -> Int { Int(bytes[at]) - 0x30 }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            case 0x2D:
                tokens.append(.dash)
                index += 1
            case 0x2C:
                tokens.append(.comma)
                index += 1
            case 0x3B:
                tokens.append(.semicolon)
                index += 1
            case 0x30...0x39:
                var hours = digit(index)
                index += 1
                if isDigit(index) {
                    hours = hours * 10 + digit(index)
                    index += 1
                }
                if isDigit(index) { return nil }
                if hours == 24, index + 1 < bytes.count, bytes[index] == 0x2F,
                    bytes[index + 1] == 0x37, !isDigit(index + 2)
                {
                    tokens.append(.twentyFourSeven)
                    index += 2
                    continue
                }
                guard index < bytes.count, bytes[index] == 0x3A, isDigit(index + 1), isDigit(index + 2),
                    !isDigit(index + 3)
                else { return nil }
                let minutes = digit(index + 1) * 10 + digit(index + 2)
                guard minutes < 60, hours <= 48, hours < 48 || minutes == 0 else { return nil }
                tokens.append(.time(hours * 60 + minutes))
                index += 3
            default:
                guard isLetter(index) else { return nil }
                let start = index
                while isLetter(index), index - start < 8 { index += 1 }
                if isLetter(index) { return nil }
                let word = String(decoding: bytes[start..<index].map { $0 | 0x20 }, as: UTF8.self)
                if let day = dayWords.firstIndex(of: word) {
                    tokens.append(.weekday(day))
                } else {
                    switch word {
                    case "ph", "sh": tokens.append(.holiday)
                    case "off", "closed": tokens.append(.off)
                    case "open": tokens.append(.open)
                    default: return nil
                    }
                }
            }
        }
        return tokens
    }

    /// A time span in minutes from its day's midnight: an end at or before the start runs
    /// past midnight; equal start and end (24 hours or none?) is not understood.
    static func span(from start: Int, to end: Int) -> Range<Int>? {
        guard start < 1440 else { return nil }
        if end > start { return start..<end }
        if end < start { return start..<(end + 1440) }
        return nil
    }

    /// Sorted, with overlapping and touching ranges merged.
    static func normalized(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// `ranges` without the minutes of `spans`.
    static func subtracting(_ spans: [Range<Int>], from ranges: [Range<Int>]) -> [Range<Int>] {
        var pieces = ranges
        for span in spans {
            pieces = pieces.flatMap { range -> [Range<Int>] in
                guard range.overlaps(span) else { return [range] }
                return [
                    range.lowerBound..<max(range.lowerBound, span.lowerBound),
                    min(range.upperBound, span.upperBound)..<range.upperBound,
                ]
            }
        }
        return normalized(pieces)
    }

    /// Reads tokens left to right; every method returns nil on anything unexpected.
    struct Cursor {
        let tokens: [Token]
        var index = 0

        var peek: Token? { index < tokens.count ? tokens[index] : nil }
        func peek(ahead: Int) -> Token? { index + ahead < tokens.count ? tokens[index + ahead] : nil }

        mutating func parseDomain() -> [[Range<Int>]]? {
            var week = [[Range<Int>]](repeating: [], count: 7)
            var additional = false
            var sawRule = false
            while let token = peek {
                if token == .semicolon {
                    // An empty rule (`;;`, a trailing `;`) says nothing.
                    index += 1
                    additional = false
                    continue
                }
                guard let rule = parseRule() else { return nil }
                // After `,` only a rule naming days: `Sa, 10:00-12:00` is more likely a slip
                // than "and every day 10:00-12:00".
                if additional && !rule.namesWeekdays && !rule.namesHoliday { return nil }
                guard Self.apply(rule, additional: additional, to: &week) else { return nil }
                sawRule = true
                switch peek {
                case nil: break
                case .semicolon?: additional = false
                case .comma?:
                    additional = true
                    guard peek(ahead: 1) != nil else { return nil }
                default: return nil
                }
                index += 1
            }
            // A range starting in the next day (left by `off` cutting a night) is no longer
            // the day's own: rare enough to call unknown rather than explain.
            guard sawRule, week.allSatisfy({ $0.allSatisfy { $0.lowerBound < 1440 } }) else { return nil }
            return week
        }

        mutating func parseRule() -> Rule? {
            var rule = Rule()
            var said = false
            if peek == .twentyFourSeven {
                index += 1
                rule.spans = [0..<1440]
                said = true
            } else {
                while let token = peek, token.selectsDays {
                    said = true
                    index += 1
                    if case .weekday(let first) = token {
                        var last = first
                        if peek == .dash {
                            guard case .weekday(let end)? = peek(ahead: 1) else { return nil }
                            index += 2
                            last = end
                        }
                        var day = first
                        while true {
                            rule.days[day] = true
                            if day == last { break }
                            day = (day + 1) % 7
                        }
                        rule.namesWeekdays = true
                    } else {
                        rule.namesHoliday = true
                        if case .weekday? = peek {
                            rule.holidayOnWeekdays = true
                            continue
                        }
                    }
                    guard peek == .comma, peek(ahead: 1)?.selectsDays == true else { break }
                    index += 1
                }
                while case .time(let start)? = peek {
                    guard peek(ahead: 1) == .dash, case .time(let end)? = peek(ahead: 2),
                        let span = OpeningHoursParser.span(from: start, to: end)
                    else { return nil }
                    index += 3
                    rule.spans.append(span)
                    said = true
                    guard peek == .comma, case .time? = peek(ahead: 1) else { break }
                    index += 1
                }
            }
            if peek == .off || peek == .open {
                rule.closed = peek == .off
                index += 1
                said = true
            }
            return said ? rule : nil
        }

        /// Applies a rule: one after `;` (or the first) replaces the named days' ranges, one
        /// after `,` adds to them. False when the rule is beyond what is understood.
        static func apply(_ rule: Rule, additional: Bool, to week: inout [[Range<Int>]]) -> Bool {
            if rule.namesHoliday && (!rule.namesWeekdays || rule.holidayOnWeekdays) { return true }
            let days = rule.namesWeekdays ? rule.days : [Bool](repeating: true, count: 7)
            for day in 0..<7 where days[day] {
                if rule.closed {
                    if rule.spans.isEmpty {
                        week[day] = []
                    } else if additional {
                        week[day] = OpeningHoursParser.subtracting(rule.spans, from: week[day])
                    } else {
                        // `Mo 12:00-14:00 off` after `;`: whether the rest of Monday stays open
                        // is read differently by different tools.
                        return false
                    }
                } else {
                    let spans = rule.spans.isEmpty ? [0..<1440] : rule.spans
                    week[day] = OpeningHoursParser.normalized((additional ? week[day] : []) + spans)
                }
            }
            return true
        }
    }
}
