import ArgumentParser

/// `--paid-by ana:50,bruno:34.50` and `--among ana:2,bruno,carla`: traveller names, each
/// with an optional value after its last colon. The options repeat as well
/// (`--among ana --among bruno`).
struct TravellerEntry: Equatable {
    /// The name (or id) as typed.
    var name: String
    /// What follows the colon: an amount, a number of shares or a percentage.
    var value: String?

    /// Splits the option values at commas, then each entry at its last colon when what
    /// follows looks like a number (so a name with a colon in it still reads as a name).
    static func parse(_ options: [String], option: String) throws -> [TravellerEntry] {
        var entries: [TravellerEntry] = []
        for text in options {
            for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
                let entry = piece.trimmingCharacters(in: .whitespaces)
                guard !entry.isEmpty else {
                    throw ValidationError("\(option) '\(text)' has an empty name (a stray comma?)")
                }
                if let colon = entry.lastIndex(of: ":") {
                    let name = entry[..<colon].trimmingCharacters(in: .whitespaces)
                    let value = entry[entry.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    let numeric = !value.isEmpty && value.allSatisfy { $0.isNumber || $0 == "." || $0 == "," }
                    if numeric && !name.isEmpty {
                        entries.append(TravellerEntry(name: name, value: value))
                        continue
                    }
                    if value.isEmpty {
                        throw ValidationError("\(option) '\(entry)' has nothing after its colon")
                    }
                }
                entries.append(TravellerEntry(name: entry, value: nil))
            }
        }
        guard entries.count <= 100 else {
            throw ValidationError("\(option) names \(entries.count) travellers; an expense takes at most 100")
        }
        let folded = entries.map { TravellerNames.folded($0.name) }
        if let twice = folded.enumerated().first(where: { folded[..<$0.offset].contains($0.element) }) {
            throw ValidationError("\(option) names '\(entries[twice.offset].name)' twice")
        }
        return entries
    }
}

/// How an expense is split (`--split`).
enum SplitMode: String, ExpressibleByArgument, CaseIterable {
    case equal, shares, exact, percent
}
