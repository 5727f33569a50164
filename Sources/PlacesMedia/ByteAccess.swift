/// Bounds-checked reads and writes on a byte buffer: every access answers nil (or does
/// nothing) rather than trap when an offset from the file points outside it.
extension Array where Element == UInt8 {
    /// `offset..<offset + length` when it lies inside the buffer; nil when it does not or
    /// when the sum overflows (both come straight from hostile bytes).
    func checkedRange(_ offset: Int, _ length: Int) -> Range<Int>? {
        guard offset >= 0, length >= 0 else { return nil }
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow, end <= count else { return nil }
        return offset..<end
    }

    func uint8(at offset: Int) -> UInt8? {
        indices.contains(offset) ? self[offset] : nil
    }

    func uint16(at offset: Int, bigEndian: Bool) -> UInt16? {
        guard let range = checkedRange(offset, 2) else { return nil }
        let first = UInt16(self[range.lowerBound])
        let second = UInt16(self[range.lowerBound + 1])
        return bigEndian ? first << 8 | second : second << 8 | first
    }

    func uint24LE(at offset: Int) -> UInt32? {
        guard let range = checkedRange(offset, 3) else { return nil }
        return self[range].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    func uint32(at offset: Int, bigEndian: Bool) -> UInt32? {
        guard let range = checkedRange(offset, 4) else { return nil }
        let ordered = bigEndian ? Array(self[range]) : self[range].reversed()
        return ordered.reduce(0) { $0 << 8 | UInt32($1) }
    }

    func uint64BE(at offset: Int) -> UInt64? {
        guard let range = checkedRange(offset, 8) else { return nil }
        return self[range].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Four bytes as text (a box type, chunk type or brand); nil past the end.
    func fourCC(at offset: Int) -> String? {
        guard let range = checkedRange(offset, 4) else { return nil }
        return String(decoding: self[range], as: UTF8.self)
    }

    func hasASCII(_ text: String, at offset: Int) -> Bool {
        let expected = Array(text.utf8)
        guard let range = checkedRange(offset, expected.count) else { return false }
        return self[range].elementsEqual(expected)
    }

    /// Writes `value` in the given byte order; the caller checked the range.
    mutating func setUInt32(_ value: UInt32, at offset: Int, bigEndian: Bool) {
        guard let range = checkedRange(offset, 4) else { return }
        for (index, position) in range.enumerated() {
            let shift = bigEndian ? 24 - 8 * index : 8 * index
            self[position] = UInt8(truncatingIfNeeded: value >> UInt32(shift))
        }
    }

    mutating func setUInt16(_ value: UInt16, at offset: Int, bigEndian: Bool) {
        guard let range = checkedRange(offset, 2) else { return }
        self[range.lowerBound] = UInt8(truncatingIfNeeded: bigEndian ? value >> 8 : value)
        self[range.lowerBound + 1] = UInt8(truncatingIfNeeded: bigEndian ? value : value >> 8)
    }

    /// Overwrites the bytes in `range` (clamped to the buffer) with zeros.
    mutating func zero(_ range: Range<Int>) {
        let clamped = range.clamped(to: 0..<count)
        for position in clamped { self[position] = 0 }
    }
}

extension UInt32 {
    /// The bytes of the value, most significant first.
    var bigEndianBytes: [UInt8] {
        [
            UInt8(truncatingIfNeeded: self >> 24), UInt8(truncatingIfNeeded: self >> 16),
            UInt8(truncatingIfNeeded: self >> 8), UInt8(truncatingIfNeeded: self),
        ]
    }

    var littleEndianBytes: [UInt8] { bigEndianBytes.reversed() }
}
