import Foundation

/// Text helpers shared by the exports.
enum Formatting {
    /// A coordinate with 7 decimals (≈ 1 cm), trailing zeros trimmed, never in exponent
    /// notation (GPX's xsd:decimal does not allow it).
    static func coordinate(_ value: Double) -> String {
        var text = String(format: "%.7f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.append("0") }
        if text == "-0.0" { text = "0.0" }
        return text
    }

    /// A number with at most one decimal for JSON and XML attributes.
    static func decimal(_ value: Double, digits: Int = 1) -> String {
        var text = String(format: "%.\(digits)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// Escapes text for XML content and attribute values and drops characters XML 1.0
    /// cannot carry (C0 controls other than tab, newline, carriage return).
    static func xmlEscaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A JSON string literal, quotes included.
    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    result += String(format: "\\u%04x", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// "12.3 km" or "850 m".
    static func distance(_ meters: Double) -> String {
        meters >= 1000 ? "\(decimal(meters / 1000)) km" : "\(Int(meters.rounded())) m"
    }

    /// "2 h 05 min" or "17 min".
    static func duration(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        return minutes >= 60 ? "\(minutes / 60) h \(String(format: "%02d", minutes % 60)) min" : "\(minutes) min"
    }
}
