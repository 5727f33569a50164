/// A big-endian reader over a window of a byte buffer, for the ISO-BMFF boxes of HEIC.
///
/// Each read checks the window and throws the error the cursor was made with, so a parser
/// reads field after field without an offset check on every line, and never past the window.
struct ByteCursor {
    let bytes: [UInt8]
    private(set) var offset: Int
    let end: Int
    /// What running out of bytes means in this window ("the file ends inside its meta box").
    let shortage: MediaError

    init(_ bytes: [UInt8], _ window: Range<Int>, shortage: MediaError) {
        self.bytes = bytes
        self.offset = max(0, window.lowerBound)
        self.end = min(bytes.count, max(window.upperBound, self.offset))
        self.shortage = shortage
    }

    var remaining: Int { end - offset }

    mutating func skip(_ count: Int) throws(MediaError) {
        guard count >= 0, count <= remaining else { throw shortage }
        offset += count
    }

    mutating func uint8() throws(MediaError) -> UInt8 {
        guard remaining >= 1, let value = bytes.uint8(at: offset) else { throw shortage }
        offset += 1
        return value
    }

    mutating func uint16() throws(MediaError) -> UInt16 {
        guard remaining >= 2, let value = bytes.uint16(at: offset, bigEndian: true) else { throw shortage }
        offset += 2
        return value
    }

    mutating func uint32() throws(MediaError) -> UInt32 {
        guard remaining >= 4, let value = bytes.uint32(at: offset, bigEndian: true) else { throw shortage }
        offset += 4
        return value
    }

    mutating func uint64() throws(MediaError) -> UInt64 {
        guard remaining >= 8, let value = bytes.uint64BE(at: offset) else { throw shortage }
        offset += 8
        return value
    }

    /// An unsigned field of 0, 4 or 8 bytes (the sizes `iloc` declares for its offsets).
    mutating func unsigned(size: Int) throws(MediaError) -> UInt64 {
        switch size {
        case 0: 0
        case 4: UInt64(try uint32())
        case 8: try uint64()
        default: throw shortage
        }
    }

    mutating func fourCC() throws(MediaError) -> String {
        guard remaining >= 4, let value = bytes.fourCC(at: offset) else { throw shortage }
        offset += 4
        return value
    }

    /// A NUL-terminated string (item names, MIME types), at most to the window's end.
    mutating func cString() throws(MediaError) -> String {
        guard let terminator = bytes[offset..<end].firstIndex(of: 0) else { throw shortage }
        let text = String(decoding: bytes[offset..<terminator], as: UTF8.self)
        offset = terminator + 1
        return text
    }
}
