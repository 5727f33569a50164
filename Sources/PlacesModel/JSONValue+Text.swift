extension JSONValue {
    /// Compact JSON text with object keys sorted: deterministic, so that materialized
    /// tables compare byte for byte after a rebuild.
    public var jsonText: String {
        var out = [UInt8]()
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the compact JSON of this value to `out`.
    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .int(let i): out += String(i).utf8
        case .double(let d):
            if d.isFinite, d == d.rounded(), abs(d) < 1e15 {
                out += (String(Int64(d)) + ".0").utf8
            } else if d.isFinite {
                out += String(d).utf8
            } else {
                out += "null".utf8
            }
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, v) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                v.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            for (i, k) in o.keys.sorted().enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(k, to: &out)
                out.append(UInt8(ascii: ":"))
                o[k]!.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `s` as a JSON string literal.
    public static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        var plain = true
        for b in s.utf8 where b < 0x20 || b == 0x22 || b == 0x5C {
            plain = false
            break
        }
        if plain {
            out += s.utf8
            out.append(0x22)
            return
        }
        let hex = Array("0123456789abcdef".utf8)
        for b in s.utf8 {
            switch b {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, 0x6E]
            case 0x0D: out += [0x5C, 0x72]
            case 0x09: out += [0x5C, 0x74]
            case 0..<0x20: out += [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]]
            default: out.append(b)
            }
        }
        out.append(0x22)
    }
}
