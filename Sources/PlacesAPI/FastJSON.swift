import PlacesModel

/// A minimal JSON writer for the hottest list responses, producing the bytes
/// `ControlJSON.encoder` would (sorted keys, no escaped slashes; strings escaped by
/// `JSONValue.writeString`, which differs from `JSONEncoder` only in spelling U+0008 and
/// U+000C as `\u0008` and `\u000c`) at a fraction of the cost of Foundation's
/// `JSONEncoder`. Tests compare the two outputs.
public struct FastJSONWriter {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Bytes already JSON (a part of a body written earlier).
    public mutating func raw(json: [UInt8]) { bytes += json }

    @inline(__always) public mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `s` as a JSON string literal, escaped as every JSON the daemon writes by hand is:
    /// `JSONValue.writeString`, the escaper of op bodies (`\"`, `\\`, `\n`, `\r`, `\t`, any
    /// other control character as `\u00XX`; `/` and non-ASCII as they are). JSONEncoder
    /// writes U+0008 and U+000C as `\b` and `\f` instead: the same JSON strings.
    public mutating func string(_ s: String) {
        JSONValue.writeString(s, to: &bytes)
    }

    public mutating func int(_ i: Int) { bytes += Array(String(i).utf8) }

    /// Doubles as JSONEncoder writes them: whole values without a fraction, others in
    /// Swift's shortest round-tripping form.
    public mutating func double(_ d: Double) {
        if d == d.rounded(), abs(d) < 1e15 {
            int(Int(d))
        } else {
            bytes += Array(d.description.utf8)
        }
    }
}

extension FavoriteList {
    /// The response body of `GET /v1/favorites`.
    public func jsonBytes() -> [UInt8] {
        var w = FastJSONWriter(capacity: 64 + favorites.count * 200)
        w.raw(#"{"count":"#)
        w.int(count)
        w.raw(#","favorites":["#)
        for (i, f) in favorites.enumerated() {
            if i > 0 { w.raw(",") }
            w.raw(#"{"addedAt":"#)
            w.string(f.addedAt)
            w.raw(#","id":"#)
            w.string(f.id)
            w.raw(#","latitude":"#)
            w.double(f.latitude)
            w.raw(#","longitude":"#)
            w.double(f.longitude)
            w.raw(#","name":"#)
            w.string(f.name)
            w.raw(#","placeId":"#)
            w.string(f.placeId)
            w.raw(#","position":"#)
            w.int(f.position)
            w.raw("}")
        }
        w.raw("]}")
        return w.bytes
    }
}

extension FastJSONWriter {
    /// `,"key":"value"` for a present optional string (JSONEncoder omits absent ones).
    mutating func optional(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        raw(key)
        string(value)
    }

    /// `,"key":123` for a present optional integer.
    mutating func optional(_ key: StaticString, _ value: Int?) {
        guard let value else { return }
        raw(key)
        int(value)
    }

    mutating func money(_ m: Money) {
        raw(#"{"amountMinor":"#)
        bytes += Array(String(m.amountMinor).utf8)
        raw(#","currency":"#)
        string(m.currency)
        raw("}")
    }
}

extension Itinerary {
    /// The response body of an itinerary (`GET`/`PATCH /v1/itineraries/{id}` and the routes
    /// that answer with one): byte-identical to `ControlJSON.encoder`'s, at a fraction of the
    /// cost for itineraries with many places to go.
    public func jsonBytes() -> [UInt8] { jsonBytes(places: nil) }

    /// The same body with `places` written as `placesJSON` (`Itinerary.placesJSON` of the
    /// places to go, kept from an earlier answer) instead of from `self.places`.
    public func jsonBytes(places placesJSON: [UInt8]?) -> [UInt8] {
        var w = FastJSONWriter(capacity: 512 + (placesJSON?.count ?? places.count * 160))
        writeHead(to: &w)
        if let placesJSON { w.raw(json: placesJSON) } else { Itinerary.writePlaces(places, to: &w) }
        writeTail(to: &w)
        return w.bytes
    }

    /// The body around its `places` array, for an answer whose places were written before:
    /// what comes before the array (up to `"places":`) and what comes after it.
    public func jsonAroundPlaces() -> (head: [UInt8], tail: [UInt8]) {
        var head = FastJSONWriter(capacity: 512)
        writeHead(to: &head)
        var tail = FastJSONWriter(capacity: 256)
        writeTail(to: &tail)
        return (head.bytes, tail.bytes)
    }

    private func writeHead(to w: inout FastJSONWriter) {
        w.raw(#"{"createdAt":"#)
        w.string(createdAt)
        if let costs {
            w.raw(#","costs":{"#)
            for (i, section) in costs.keys.sorted().enumerated() {
                if i > 0 { w.raw(",") }
                w.string(section)
                w.raw(":[")
                for (j, m) in (costs[section] ?? []).enumerated() {
                    if j > 0 { w.raw(",") }
                    w.money(m)
                }
                w.raw("]")
            }
            w.raw("}")
        }
        w.optional(#","endDate":"#, endDate)
        w.raw(#","id":"#)
        w.string(id)
        w.optional(#","itemCount":"#, itemCount)
        if let lodging {
            w.raw(#","lodging":{"#)
            var first = true
            for (key, value) in [
                ("address", lodging.address), ("checkIn", lodging.checkIn), ("checkOut", lodging.checkOut),
                ("name", lodging.name),
            ] {
                guard let value else { continue }
                if !first { w.raw(",") }
                first = false
                w.string(key)
                w.raw(":")
                w.string(value)
            }
            w.raw("}")
        }
        if let lodgingPrice {
            w.raw(#","lodgingPrice":"#)
            w.money(lodgingPrice)
        }
        w.raw(#","name":"#)
        w.string(name)
        w.optional(#","notes":"#, notes)
        w.optional(#","origin":"#, origin)
        w.raw(#","owner":"#)
        w.string(owner)
        w.raw(#","places":"#)
    }

    private func writeTail(to w: inout FastJSONWriter) {
        if let rates {
            w.raw(#","rates":{"#)
            for (i, code) in rates.keys.sorted().enumerated() {
                if i > 0 { w.raw(",") }
                w.string(code)
                w.raw(":")
                w.string(rates[code] ?? "")
            }
            w.raw("}")
        }
        w.raw(#","role":"#)
        w.string(role)
        w.optional(#","settlementCurrency":"#, settlementCurrency)
        w.optional(#","startDate":"#, startDate)
        w.optional(#","timeZone":"#, timeZone)
        w.raw(#","totalCost":["#)
        for (i, m) in totalCost.enumerated() {
            if i > 0 { w.raw(",") }
            w.money(m)
        }
        w.raw("]")
        w.optional(#","transportation":"#, transportation)
        w.optional(#","travelMode":"#, travelMode)
        if let travelPrice {
            w.raw(#","travelPrice":"#)
            w.money(travelPrice)
        }
        w.optional(#","updatedAt":"#, updatedAt)
        w.raw("}")
    }
}

extension Itinerary {
    /// The `places` array of an itinerary's body, as `jsonBytes` writes it.
    public static func placesJSON(_ places: [Stop]) -> [UInt8] {
        var w = FastJSONWriter(capacity: 2 + places.count * 160)
        writePlaces(places, to: &w)
        return w.bytes
    }

    static func writePlaces(_ places: [Stop], to w: inout FastJSONWriter) {
        w.raw("[")
        for (i, stop) in places.enumerated() {
            if i > 0 { w.raw(",") }
            w.raw("{")
            if let address = stop.address {
                w.raw(#""address":"#)
                w.string(address)
                w.raw(",")
            }
            if let day = stop.day {
                w.raw(#""day":"#)
                w.string(day)
                w.raw(",")
            }
            w.raw(#""id":"#)
            w.string(stop.id)
            w.raw(#","latitude":"#)
            w.double(stop.latitude)
            w.raw(#","longitude":"#)
            w.double(stop.longitude)
            w.raw(#","name":"#)
            w.string(stop.name)
            w.optional(#","placeId":"#, stop.placeId)
            w.raw(#","position":"#)
            w.int(stop.position)
            w.raw("}")
        }
        w.raw("]")
    }
}

extension PeerList {
    /// The response body of `GET /v1/peers`: byte-identical to `ControlJSON.encoder`'s. A
    /// daemon sharing 10,000 trips with a peer lists each one; `JSONEncoder` took about a
    /// third of the answer's time.
    public func jsonBytes() -> [UInt8] {
        var w = FastJSONWriter(capacity: 128 + peers.reduce(0) { $0 + 160 + $1.documents.count * 96 })
        w.raw(#"{"count":"#)
        w.int(count)
        w.raw(#","peers":["#)
        for (i, peer) in peers.enumerated() {
            if i > 0 { w.raw(",") }
            w.raw(#"{"addresses":["#)
            for (j, address) in peer.addresses.enumerated() {
                if j > 0 { w.raw(",") }
                w.string(address)
            }
            w.raw(peer.connected ? #"],"connected":true,"documents":["# : #"],"connected":false,"documents":["#)
            for (j, doc) in peer.documents.enumerated() {
                if j > 0 { w.raw(",") }
                w.raw(#"{"id":"#)
                w.string(doc.id)
                w.raw(#","name":"#)
                w.string(doc.name)
                w.raw(#","state":"#)
                w.string(doc.state)
                w.optional(#","theyLack":"#, doc.theyLack)
                w.optional(#","weLack":"#, doc.weLack)
                w.raw("}")
            }
            w.raw(#"],"id":"#)
            w.string(peer.id)
            w.optional(#","lastSeen":"#, peer.lastSeen)
            w.raw(#","name":"#)
            w.string(peer.name)
            w.optional(#","opsSent":"#, peer.opsSent)
            w.optional(#","opsSentAgain":"#, peer.opsSentAgain)
            if let relay = peer.relay { w.raw(relay ? #","relay":true"# : #","relay":false"#) }
            w.optional(#","via":"#, peer.via)
            w.raw("}")
        }
        w.raw(#"],"staticPeers":["#)
        for (i, address) in staticPeers.enumerated() {
            if i > 0 { w.raw(",") }
            w.string(address)
        }
        w.raw("]}")
        return w.bytes
    }
}

extension Event {
    /// One line of `GET /v1/events`, without its newline: the bytes `ControlJSON.encoder`
    /// writes (sorted keys, absent optionals left out), written by hand because every
    /// change of every document publishes one.
    public func jsonBytes() -> [UInt8] {
        var w = FastJSONWriter(capacity: 160 + summary.utf8.count)
        w.raw("{")
        var first = true
        func key(_ name: StaticString, _ value: String?, into w: inout FastJSONWriter) {
            guard let value else { return }
            if !first { w.raw(",") }
            first = false
            w.raw("\"")
            w.raw(name)
            w.raw("\":")
            w.string(value)
        }
        key("author", author, into: &w)
        key("doc", doc, into: &w)
        key("docKind", docKind, into: &w)
        key("summary", summary, into: &w)
        key("time", time, into: &w)
        key("type", type, into: &w)
        w.raw("}")
        return w.bytes
    }
}
