import PlacesModel

/// A minimal JSON writer for the hottest list responses, producing exactly the bytes
/// `ControlJSON.encoder` would (sorted keys, no escaped slashes) at a fraction of the cost
/// of Foundation's `JSONEncoder`. Tests compare the two outputs.
public struct FastJSONWriter {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    @inline(__always) public mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func string(_ s: String) {
        bytes.append(0x22)
        // Most strings need no escaping: copy their UTF-8 in one go.
        var plain = true
        for b in s.utf8 where b < 0x20 || b == 0x22 || b == 0x5C {
            plain = false
            break
        }
        if plain {
            bytes.append(contentsOf: s.utf8)
            bytes.append(0x22)
            return
        }
        for b in s.utf8 {
            switch b {
            case 0x22: bytes += [0x5C, 0x22]
            case 0x5C: bytes += [0x5C, 0x5C]
            case 0x0A: bytes += [0x5C, 0x6E]
            case 0x0D: bytes += [0x5C, 0x72]
            case 0x09: bytes += [0x5C, 0x74]
            case 0x08: bytes += [0x5C, 0x62]
            case 0x0C: bytes += [0x5C, 0x66]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]]
            default: bytes.append(b)
            }
        }
        bytes.append(0x22)
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
    public func jsonBytes() -> [UInt8] {
        var w = FastJSONWriter(capacity: 512 + places.count * 160)
        w.raw(#"{"createdAt":"#)
        w.string(createdAt)
        w.optional(#","endDate":"#, endDate)
        w.raw(#","id":"#)
        w.string(id)
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
        w.raw(#","owner":"#)
        w.string(owner)
        w.raw(#","places":["#)
        for (i, stop) in places.enumerated() {
            if i > 0 { w.raw(",") }
            w.raw("{")
            if let address = stop.address {
                w.raw(#""address":"#)
                w.string(address)
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
        w.raw(#"],"role":"#)
        w.string(role)
        w.optional(#","startDate":"#, startDate)
        w.raw(#","totalCost":["#)
        for (i, m) in totalCost.enumerated() {
            if i > 0 { w.raw(",") }
            w.money(m)
        }
        w.raw("]")
        w.optional(#","transportation":"#, transportation)
        if let travelPrice {
            w.raw(#","travelPrice":"#)
            w.money(travelPrice)
        }
        w.optional(#","updatedAt":"#, updatedAt)
        w.raw("}")
        return w.bytes
    }
}
