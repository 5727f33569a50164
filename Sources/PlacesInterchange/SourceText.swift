/// The bytes of a file being read, checked to be UTF-8, and positions in them in words.
struct SourceText {
    /// The file, without a leading byte order mark.
    let bytes: [UInt8]
    /// Where the content starts (3 after a UTF-8 byte order mark).
    let start: Int

    /// Checks the file's size and encoding: refuses a file over `ImportLimits.maxFileBytes`,
    /// a UTF-16 or UTF-32 file, and invalid UTF-8 (naming where).
    init(_ bytes: [UInt8]) throws(ImportError) {
        guard bytes.count <= ImportLimits.maxFileBytes else {
            throw ImportError(
                field: "body",
                message: "the file is \(SourceText.mebibytes(bytes.count)) MiB; at most "
                    + "\(ImportLimits.maxFileBytes / (1024 * 1024)) MiB is accepted")
        }
        self.bytes = bytes
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw ImportError(field: "body", message: "the file is UTF-16; save it as UTF-8")
        }
        start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        if let bad = SourceText.firstInvalidUTF8(bytes, from: start) {
            throw ImportError(
                field: SourceText.position(bytes, bad),
                message: "byte 0x\(String(bytes[bad], radix: 16, uppercase: true)) is not valid UTF-8; "
                    + "save the file as UTF-8")
        }
    }

    /// "line L, column C" of a byte offset: lines from 1, columns counted in characters
    /// (Unicode scalars) from 1.
    func position(_ offset: Int) -> String { SourceText.position(bytes, offset) }

    static func position(_ bytes: [UInt8], _ offset: Int) -> String {
        var line = 1
        var column = 1
        var i = 0
        let end = min(max(offset, 0), bytes.count)
        while i < end {
            let b = bytes[i]
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 && !(i == 0 && b == 0xEF) {
                column += 1
            }
            i += 1
        }
        return "line \(line), column \(column)"
    }

    static func mebibytes(_ count: Int) -> String {
        let tenths = (count * 10 + 512 * 1024) / (1024 * 1024)
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// The offset of the first byte that is not part of valid UTF-8 (overlong forms,
    /// surrogates and values over U+10FFFF included), or nil.
    static func firstInvalidUTF8(_ bytes: [UInt8], from start: Int) -> Int? {
        var i = start
        let n = bytes.count
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return i
            }
            guard n - i >= length else { return i }
            let b1 = bytes[i + 1]
            guard b1 >= low && b1 <= high else { return i }
            var k = 2
            while k < length {
                guard bytes[i + k] & 0xC0 == 0x80 else { return i }
                k += 1
            }
            i += length
        }
        return nil
    }
}
