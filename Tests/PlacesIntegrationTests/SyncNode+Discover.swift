import Foundation
import PlacesTestSupport

/// What a user sees of contacts and discover (issue 15), for the hostile card tests.
extension SyncNode {
    /// Accepts `humanID` as a contact (`POST /v1/contacts`).
    func accept(_ humanID: String) throws {
        let r = try d.send("POST", "/v1/contacts", json: #"{"id":"\#(humanID)"}"#)
        guard r.status == 200 else { throw HarnessError("contacts add: \(r.status) \(r.text)") }
    }

    /// `GET /v1/contacts/{id}` as a JSON object; nil unless 200.
    func person(_ humanID: String) -> [String: Any]? {
        guard let r = try? d.send("GET", "/v1/contacts/\(humanID)"), r.status == 200 else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any]
    }

    /// The names of the favorites `humanID` shares, as the victim shows them ([] when none).
    func sharedFavoriteNames(_ humanID: String) -> [String] {
        ((person(humanID)?["favorites"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
    }

    /// `humanID`'s entry in `GET /v1/contacts`.
    func contactEntry(_ humanID: String) -> [String: Any]? {
        guard let r = try? d.send("GET", "/v1/contacts"), r.status == 200,
            let object = (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any]
        else { return nil }
        return (object["contacts"] as? [[String: Any]])?.first { $0["id"] as? String == humanID }
    }

    /// The discover results for `query` (up to 100), as JSON objects; [] unless 200.
    func discover(_ query: String) -> [[String: Any]] {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let q = query.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        guard let r = try? d.send("GET", "/v1/discover?q=\(q)&limit=100"), r.status == 200,
            let object = (try? JSONSerialization.jsonObject(with: Data(r.body))) as? [String: Any]
        else { return [] }
        return object["results"] as? [[String: Any]] ?? []
    }

    /// The ids discover answers for `query`.
    func discoverIDs(_ query: String) -> [String] { discover(query).compactMap { $0["id"] as? String } }

    /// The popularity of result `id` when searching `query`; nil when it is not found.
    func popularity(of id: String, query: String) -> Int? {
        discover(query).first { $0["id"] as? String == id }?["popularity"] as? Int
    }
}
