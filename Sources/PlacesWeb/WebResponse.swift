import NIOHTTP1

/// An answer the app server makes itself (a page, a file, a redirect, a refusal), as
/// opposed to the daemon's answers it relays.
struct WebResponse: Sendable {
    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    var body: [UInt8]

    init(status: HTTPResponseStatus, contentType: String?, body: [UInt8], headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.headers = headers
        self.body = body
        if let contentType { self.headers.replaceOrAdd(name: "Content-Type", value: contentType) }
        self.headers.replaceOrAdd(name: "Cache-Control", value: "no-cache")
    }

    /// An RFC 9457 problem document shaped like the daemon's `Problem` (type, title,
    /// status, detail, code), so the page handles the gate's refusals like the API's.
    static func problem(_ status: HTTPResponseStatus, code: String, title: String, detail: String) -> WebResponse {
        let fields = [
            ("code", jsonString(code)), ("detail", jsonString(detail)), ("status", String(status.code)),
            ("title", jsonString(title)), ("type", jsonString("https://places.invalid/problems/\(code)")),
        ]
        let json = "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        var response = WebResponse(status: status, contentType: "application/problem+json", body: Array(json.utf8))
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return response
    }

    /// A small HTML page with a heading and a paragraph (no script, no style: the CSP allows
    /// neither inline).
    static func page(_ status: HTTPResponseStatus, title: String, text: String) -> WebResponse {
        let html = """
            <!doctype html>
            <html lang="en">
            <head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>\(htmlEscaped(title))</title></head>
            <body><h1>\(htmlEscaped(title))</h1><p>\(htmlEscaped(text))</p></body>
            </html>

            """
        var response = WebResponse(status: status, contentType: "text/html; charset=utf-8", body: Array(html.utf8))
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return response
    }

    /// The page a browser without a session sees: where to find the way in, and no more.
    static let sessionRequiredPage = page(
        .unauthorized, title: "Open the address places gui printed",
        text:
            "This app only opens from the address that `places gui` printed in your terminal (it ends in ?token=…). "
            + "Open that address again: it works for as long as places gui runs.")

    /// The API's refusal of a request without a session.
    static let sessionRequiredProblem = problem(
        .unauthorized, code: "app-session-required", title: "Session required",
        detail: "this browser has no session of the app: open the address `places gui` printed (it ends in ?token=…)")

    /// A JSON string literal.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Text safe between HTML tags and in attribute values.
    static func htmlEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
