import Foundation
import PlacesModel

/// The `discover` fuzz target: what a client's query or a peer's card puts in front of
/// issue 15's code. The first byte picks what the rest drives:
///
/// - 0: a gazetteer id as a peer writes it (`FieldRule.gazetteerID`, op-format §5): the rule
///   accepts exactly the ids that a reference reading of the spec accepts (`city:` 1–10
///   digits without a leading zero, `region:CC.` 1–20 uppercase letters or digits,
///   `country:CC`, `continent:` one of seven codes), returns an accepted value unchanged,
///   and refuses in words; `.optional` takes null.
/// - 1: `NameFolding.fold` over the rest read as UTF-8 (invalid sequences replaced):
///   idempotent; only `a`–`z`, digits and single inner spaces among its ASCII bytes;
///   canonically equivalent inputs (NFC and NFD) fold alike below the output cut; Latin
///   text folds the same beside a word of another script; ASCII case does not matter.
/// - 2: a search of a small fixture gazetteer (`GazetteerIndex.search` over
///   `FuzzDiscoverFixture`) with a query, kinds, `near`, limit,
///   sort, library candidates and popularity counts built from the bytes: at most `limit`
///   hits, each once, in range, of an allowed kind, ordered by quality (or by popularity
///   when sorted), with the popularity the daemon declared; a smaller limit gives a
///   prefix; `entries(named:within:…)` answers only entries that fold alike within the
///   distance.
///
/// Selectors 1 and 2 are in `FuzzDiscover+Search.swift`.
enum FuzzDiscover {
    static func run(_ input: [UInt8]) {
        var reader = FuzzReader(input)
        guard let selector = reader.byte() else { return }
        switch selector % 3 {
        case 0: gazetteerID(reader.rest())
        case 1: fold(reader.rest())
        default: search(&reader)
        }
    }

    // MARK: Gazetteer ids

    static let continents: Set<String> = ["AF", "AN", "AS", "EU", "NA", "OC", "SA"]

    /// Whether `s` is a gazetteer id as op-format §5 words it, read independently of
    /// `FieldRule.isGazetteerID`.
    static func referenceIsGazetteerID(_ s: String) -> Bool {
        let scalars = Array(s.unicodeScalars)
        func upper(_ c: Unicode.Scalar) -> Bool { ("A"..."Z").contains(c) }
        func digit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
        guard let colon = scalars.firstIndex(of: ":") else { return false }
        let kind = String(String.UnicodeScalarView(scalars[..<colon]))
        let code = Array(scalars[(colon + 1)...])
        switch kind {
        case "city": return (1...10).contains(code.count) && code.allSatisfy(digit) && code.first != "0"
        case "country": return code.count == 2 && code.allSatisfy(upper)
        case "continent": return continents.contains(String(String.UnicodeScalarView(code)))
        case "region":
            guard let dot = code.firstIndex(of: "."), dot == 2 else { return false }
            let first = code[..<dot], second = code[(dot + 1)...]
            return first.allSatisfy(upper) && (1...20).contains(second.count)
                && second.allSatisfy { upper($0) || digit($0) }
        default: return false
        }
    }

    static func gazetteerID(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let shaped = FieldRule.isGazetteerID(text)
        precondition(
            shaped == referenceIsGazetteerID(text),
            "isGazetteerID(\(text.debugDescription)) = \(shaped), op-format §5 says \(!shaped)")
        let value = JSONValue.string(text)
        do throws(FieldError) {
            let stored = try FieldRule.gazetteerID.validate("gazetteerId", value)
            precondition(shaped, "the field rule accepted \(text.debugDescription)")
            precondition(stored == value, "the field rule changed an accepted id")
        } catch {
            precondition(!shaped, "the field rule refused the id \(text.debugDescription): \(error.message)")
            precondition(!error.message.isEmpty && error.field == "gazetteerId", "a refusal without words")
        }
        // Anything else than a string is refused; null is absent for the optional rule.
        for other in [JSONValue.int(Int64(bytes.count)), .bool(true), .array([value]), .object(["id": value])] {
            precondition((try? FieldRule.gazetteerID.validate("gazetteerId", other)) == nil, "took \(other)")
        }
        precondition((try? FieldRule.optional(.gazetteerID).validate("gazetteerId", .null)) == .null)
    }
}
