/// A QR Code symbol (ISO/IEC 18004, Model 2) that encodes a text in byte mode as UTF-8, for showing
/// share links on a terminal or a screen.
///
/// The encoder picks the smallest version (1–40) that holds the text at the requested error-correction
/// level and the data mask with the lowest penalty score (the standard rules N1–N4). The module grid
/// excludes the quiet zone; ``terminalString(invert:)`` adds it.
public struct QRCode: Sendable {
    /// How much of the symbol can be damaged and still decode: about 7 %, 15 %, 25 % or 30 % of the codewords.
    public enum ErrorCorrection: Sendable, Hashable, CaseIterable {
        /// About 7 % of the codewords can be restored.
        case low
        /// About 15 % of the codewords can be restored.
        case medium
        /// About 25 % of the codewords can be restored.
        case quartile
        /// About 30 % of the codewords can be restored.
        case high
    }

    /// Why a text could not be encoded (usually: it is too long for a QR code at the requested level).
    public struct EncodingError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What went wrong, in words fit for a user.
        public let message: String

        /// Creates an error with a message.
        public init(_ message: String) {
            self.message = message
        }

        /// The message.
        public var description: String { message }
    }

    /// The width and height in modules, without the quiet zone (21 for version 1, up to 177 for version 40).
    public let size: Int
    /// The symbol version, 1–40.
    public let version: Int
    /// The error-correction level.
    public let correction: ErrorCorrection
    /// The data mask pattern, 0–7.
    public let mask: Int
    /// The modules, row by row; `true` is dark.
    private let modules: [Bool]

    /// Encodes a text (as UTF-8 bytes, in byte mode).
    ///
    /// - Parameters:
    ///   - text: The text, for example a share link.
    ///   - correction: The error-correction level.
    ///   - version: A fixed version (1–40) instead of the smallest that fits; for tests and comparisons.
    ///   - mask: A fixed data mask (0–7) instead of the one with the lowest penalty; for tests and comparisons.
    /// - Throws: `EncodingError` if the text does not fit (or `version` or `mask` is out of range).
    public init(
        encoding text: String,
        correction: ErrorCorrection = .medium,
        version: Int? = nil,
        mask: Int? = nil
    ) throws(EncodingError) {
        let bytes = Array(text.utf8)
        if let mask, !(0...7).contains(mask) {
            throw EncodingError("the mask is \(mask); QR code masks are 0 to 7")
        }
        let chosenVersion: Int
        if let version {
            guard (1...40).contains(version) else {
                throw EncodingError("the version is \(version); QR code versions are 1 to 40")
            }
            let capacity = Self.byteCapacity(version: version, correction: correction)
            guard bytes.count <= capacity else {
                throw EncodingError(
                    "the text is \(bytes.count) bytes; a version \(version) QR code holds at most \(capacity) "
                        + "at this error-correction level"
                )
            }
            chosenVersion = version
        } else {
            guard
                let smallest = (1...40).first(where: {
                    bytes.count <= Self.byteCapacity(version: $0, correction: correction)
                })
            else {
                let capacity = Self.byteCapacity(version: 40, correction: correction)
                throw EncodingError(
                    "the text is \(bytes.count) bytes; a QR code holds at most \(capacity) "
                        + "at this error-correction level"
                )
            }
            chosenVersion = smallest
        }

        let codewords = Self.codewords(encoding: bytes, version: chosenVersion, correction: correction)
        var grid = ModuleGrid(version: chosenVersion)
        grid.drawFunctionPatterns()
        grid.drawCodewords(codewords)

        let chosenMask: Int
        if let mask {
            chosenMask = mask
        } else {
            var best = (mask: 0, penalty: Int.max)
            for candidate in 0..<8 {
                var trial = grid
                trial.applyMask(candidate)
                trial.drawFormatBits(correction: correction, mask: candidate)
                let penalty = trial.penalty()
                if penalty < best.penalty {
                    best = (candidate, penalty)
                }
            }
            chosenMask = best.mask
        }
        grid.applyMask(chosenMask)
        grid.drawFormatBits(correction: correction, mask: chosenMask)

        self.size = grid.size
        self.version = chosenVersion
        self.correction = correction
        self.mask = chosenMask
        self.modules = grid.modules
    }

    /// Whether the module at column `x` and row `y` (0-based, from the top left) is dark; modules outside
    /// the symbol (the quiet zone and beyond) are light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return modules[y * size + x]
    }

    /// The symbol as lines of text for a terminal: two module rows per line drawn with the half blocks
    /// `▀`, `▄`, `█` and spaces, surrounded by a quiet zone of 4 modules. The lines are joined by `\n`
    /// without a trailing newline.
    ///
    /// - Parameter invert: `false` draws dark modules as glyphs, for a dark-on-light terminal theme;
    ///   `true` draws light modules (and the quiet zone) as glyphs, for a light-on-dark theme.
    public func terminalString(invert: Bool = false) -> String {
        let quiet = 4
        let range = -quiet..<(size + quiet)
        var lines: [String] = []
        lines.reserveCapacity((size + 2 * quiet + 1) / 2)
        for top in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            var line = ""
            line.reserveCapacity(range.count * 3)
            for x in range {
                let upper = isDark(x: x, y: top) != invert
                let lower = (top + 1 < range.upperBound ? isDark(x: x, y: top + 1) : false) != invert
                switch (upper, lower) {
                case (true, true): line.append("█")
                case (true, false): line.append("▀")
                case (false, true): line.append("▄")
                case (false, false): line.append(" ")
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

// MARK: - Capacity and codewords

extension QRCode.ErrorCorrection {
    /// The row of the block tables, in the order L, M, Q, H.
    fileprivate var tableIndex: Int {
        switch self {
        case .low: 0
        case .medium: 1
        case .quartile: 2
        case .high: 3
        }
    }

    /// The two error-correction bits of the format information.
    fileprivate var formatBits: Int {
        switch self {
        case .low: 1
        case .medium: 0
        case .quartile: 3
        case .high: 2
        }
    }
}

extension QRCode {
    /// Error-correction codewords per block, by level (L, M, Q, H) and version (index 0 unused).
    private static let eccCodewordsPerBlock: [[Int]] = [
        [
            0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26,
            28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        [
            0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28,
            28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        ],
        [
            0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30,
            28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        [
            0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30,
            30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
    ]

    /// Error-correction blocks, by level (L, M, Q, H) and version (index 0 unused).
    private static let errorCorrectionBlocks: [[Int]] = [
        [
            0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16,
            17, 18, 19, 19, 20, 21, 22, 24, 25,
        ],
        [
            0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28,
            29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
        ],
        [
            0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35,
            38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68,
        ],
        [
            0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42,
            45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81,
        ],
    ]

    /// The number of modules that hold codewords (data and error correction, plus remainder bits).
    static func rawDataModules(version: Int) -> Int {
        var result = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignmentCount = version / 7 + 2
            result -= (25 * alignmentCount - 10) * alignmentCount - 55
            if version >= 7 {
                result -= 36
            }
        }
        return result
    }

    /// The number of data codewords (without error correction) of a version at a level.
    static func dataCodewords(version: Int, correction: ErrorCorrection) -> Int {
        let level = correction.tableIndex
        return rawDataModules(version: version) / 8
            - eccCodewordsPerBlock[level][version] * errorCorrectionBlocks[level][version]
    }

    /// The number of bits of the byte-mode character count.
    private static func countBits(version: Int) -> Int {
        version < 10 ? 8 : 16
    }

    /// The most bytes one byte-mode segment holds in a version at a level.
    static func byteCapacity(version: Int, correction: ErrorCorrection) -> Int {
        (dataCodewords(version: version, correction: correction) * 8 - 4 - countBits(version: version)) / 8
    }

    /// The final sequence of codewords: the byte-mode segment, terminator and padding, split into blocks
    /// with Reed–Solomon error correction appended, and interleaved.
    private static func codewords(encoding bytes: [UInt8], version: Int, correction: ErrorCorrection) -> [UInt8] {
        let capacityBits = dataCodewords(version: version, correction: correction) * 8
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: countBits(version: version))
        for byte in bytes {
            bits.append(Int(byte), count: 8)
        }
        bits.append(0, count: min(4, capacityBits - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var data = bits.bytes
        var pad: UInt8 = 0xEC
        while data.count * 8 < capacityBits {
            data.append(pad)
            pad ^= 0xEC ^ 0x11
        }

        let level = correction.tableIndex
        let blockCount = errorCorrectionBlocks[level][version]
        let eccLength = eccCodewordsPerBlock[level][version]
        let rawCodewords = rawDataModules(version: version) / 8
        let shortBlockCount = blockCount - rawCodewords % blockCount
        let shortBlockLength = rawCodewords / blockCount
        let divisor = ReedSolomon.divisor(degree: eccLength)

        var dataBlocks: [[UInt8]] = []
        var eccBlocks: [[UInt8]] = []
        var offset = 0
        for index in 0..<blockCount {
            let length = shortBlockLength - eccLength + (index < shortBlockCount ? 0 : 1)
            let block = Array(data[offset..<(offset + length)])
            offset += length
            dataBlocks.append(block)
            eccBlocks.append(ReedSolomon.remainder(of: block, divisor: divisor))
        }

        var result: [UInt8] = []
        result.reserveCapacity(rawCodewords)
        let longestData = shortBlockLength - eccLength + 1
        for position in 0..<longestData {
            for block in dataBlocks where position < block.count {
                result.append(block[position])
            }
        }
        for position in 0..<eccLength {
            for block in eccBlocks {
                result.append(block[position])
            }
        }
        return result
    }
}

// MARK: - Bits and Reed–Solomon

/// A growing sequence of bits, most significant first.
private struct BitBuffer {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    /// Appends the low `count` bits of `value`, most significant first.
    mutating func append(_ value: Int, count bitCount: Int) {
        for shift in stride(from: bitCount - 1, through: 0, by: -1) {
            if count % 8 == 0 {
                bytes.append(0)
            }
            if (value >> shift) & 1 == 1 {
                bytes[bytes.count - 1] |= UInt8(0x80 >> (count % 8))
            }
            count += 1
        }
    }
}

/// Reed–Solomon error correction over GF(2⁸) with the polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D).
private enum ReedSolomon {
    /// Powers of the generator α = 2, twice over so products need no modulo.
    static let exponents: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 512)
        var value = 1
        for index in 0..<255 {
            table[index] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 {
                value ^= 0x11D
            }
        }
        for index in 255..<512 {
            table[index] = table[index - 255]
        }
        return table
    }()

    /// Discrete logarithms to base α (index 0 unused).
    static let logarithms: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for index in 0..<255 {
            table[Int(exponents[index])] = index
        }
        return table
    }()

    static func multiply(_ lhs: UInt8, _ rhs: UInt8) -> UInt8 {
        if lhs == 0 || rhs == 0 {
            return 0
        }
        return exponents[logarithms[Int(lhs)] + logarithms[Int(rhs)]]
    }

    /// The generator polynomial (x − α⁰)(x − α¹)…(x − α^(degree−1)), coefficients from the highest power
    /// down, without the leading 1.
    static func divisor(degree: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: degree)
        result[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in 0..<degree {
                result[index] = multiply(result[index], root)
                if index + 1 < degree {
                    result[index] ^= result[index + 1]
                }
            }
            root = multiply(root, 2)
        }
        return result
    }

    /// The remainder of the data polynomial times x^degree divided by the generator: the ECC codewords.
    static func remainder(of data: [UInt8], divisor: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ result[0]
            result.removeFirst()
            result.append(0)
            for index in result.indices {
                result[index] ^= multiply(divisor[index], factor)
            }
        }
        return result
    }
}

// MARK: - Module grid

/// The modules of a symbol being built, with which of them belong to function patterns.
private struct ModuleGrid {
    let version: Int
    let size: Int
    var modules: [Bool]
    var isFunction: [Bool]

    init(version: Int) {
        self.version = version
        self.size = version * 4 + 17
        self.modules = Array(repeating: false, count: size * size)
        self.isFunction = Array(repeating: false, count: size * size)
    }

    mutating func setFunction(x: Int, y: Int, dark: Bool) {
        modules[y * size + x] = dark
        isFunction[y * size + x] = true
    }

    /// Finder, separator, timing and alignment patterns, the version information, and reserved
    /// (for now light) format information.
    mutating func drawFunctionPatterns() {
        for index in 0..<size {
            setFunction(x: 6, y: index, dark: index % 2 == 0)
            setFunction(x: index, y: 6, dark: index % 2 == 0)
        }
        drawFinderPattern(centerX: 3, centerY: 3)
        drawFinderPattern(centerX: size - 4, centerY: 3)
        drawFinderPattern(centerX: 3, centerY: size - 4)

        let positions = alignmentPatternPositions()
        let last = positions.count - 1
        for (row, y) in positions.enumerated() {
            for (column, x) in positions.enumerated() {
                let overlapsFinder =
                    (row == 0 && column == 0) || (row == 0 && column == last) || (row == last && column == 0)
                if !overlapsFinder {
                    drawAlignmentPattern(centerX: x, centerY: y)
                }
            }
        }
        drawFormatBits(correction: .medium, mask: 0)
        drawVersionBits()
    }

    private mutating func drawFinderPattern(centerX: Int, centerY: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let x = centerX + dx
                let y = centerY + dy
                guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                let distance = max(abs(dx), abs(dy))
                setFunction(x: x, y: y, dark: distance != 2 && distance != 4)
            }
        }
    }

    private mutating func drawAlignmentPattern(centerX: Int, centerY: Int) {
        for dy in -2...2 {
            for dx in -2...2 {
                setFunction(x: centerX + dx, y: centerY + dy, dark: max(abs(dx), abs(dy)) != 1)
            }
        }
    }

    /// The centre coordinates of the alignment patterns, ascending (empty for version 1).
    private func alignmentPatternPositions() -> [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = (version * 8 + count * 3 + 5) / (count * 4 - 4) * 2
        var result = [6]
        for index in 0..<(count - 1) {
            result.insert(size - 7 - index * step, at: 1)
        }
        return result
    }

    /// Both copies of the 15-bit format information (level and mask, BCH-coded and masked), and the
    /// dark module.
    mutating func drawFormatBits(correction: QRCode.ErrorCorrection, mask: Int) {
        let data = correction.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 {
            remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537)
        }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }

        for index in 0...5 {
            setFunction(x: 8, y: index, dark: bit(index))
        }
        setFunction(x: 8, y: 7, dark: bit(6))
        setFunction(x: 8, y: 8, dark: bit(7))
        setFunction(x: 7, y: 8, dark: bit(8))
        for index in 9..<15 {
            setFunction(x: 14 - index, y: 8, dark: bit(index))
        }
        for index in 0..<8 {
            setFunction(x: size - 1 - index, y: 8, dark: bit(index))
        }
        for index in 8..<15 {
            setFunction(x: 8, y: size - 15 + index, dark: bit(index))
        }
        setFunction(x: 8, y: size - 8, dark: true)
    }

    /// Both copies of the 18-bit version information (versions 7 and up).
    private mutating func drawVersionBits() {
        guard version >= 7 else { return }
        var remainder = version
        for _ in 0..<12 {
            remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25)
        }
        let bits = version << 12 | remainder
        for index in 0..<18 {
            let dark = (bits >> index) & 1 == 1
            let a = size - 11 + index % 3
            let b = index / 3
            setFunction(x: a, y: b, dark: dark)
            setFunction(x: b, y: a, dark: dark)
        }
    }

    /// Places the codewords in the zigzag order: two-module columns from the right, alternately upward
    /// and downward, skipping the vertical timing pattern and function modules. Remainder bits stay light.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        let totalBits = codewords.count * 8
        var bitIndex = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 {
                right = 5
            }
            let upward = (right + 1) & 2 == 0
            for vertical in 0..<size {
                let y = upward ? size - 1 - vertical : vertical
                for offset in 0..<2 {
                    let x = right - offset
                    let index = y * size + x
                    guard !isFunction[index], bitIndex < totalBits else { continue }
                    modules[index] = (codewords[bitIndex >> 3] >> (7 - (bitIndex & 7))) & 1 == 1
                    bitIndex += 1
                }
            }
            right -= 2
        }
    }

    /// Inverts the non-function modules where data mask pattern `mask` holds (`x` is the column, `y` the row).
    /// Applying the same mask twice undoes it.
    mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] {
                let invert: Bool
                switch mask {
                case 0: invert = (x + y) % 2 == 0
                case 1: invert = y % 2 == 0
                case 2: invert = x % 3 == 0
                case 3: invert = (x + y) % 3 == 0
                case 4: invert = (x / 3 + y / 2) % 2 == 0
                case 5: invert = x * y % 2 + x * y % 3 == 0
                case 6: invert = (x * y % 2 + x * y % 3) % 2 == 0
                default: invert = ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if invert {
                    modules[y * size + x].toggle()
                }
            }
        }
    }

    /// The penalty score of the finished symbol (ISO/IEC 18004 7.8.3): N1 runs of five or more modules of one
    /// colour, N2 2×2 blocks of one colour, N3 finder-like 1:1:3:1:1 patterns beside four light modules (the
    /// quiet zone counts as light), and N4 the deviation of the dark proportion from 50 %.
    func penalty() -> Int {
        var score = 0
        var line = [Bool](repeating: false, count: size)
        for horizontal in [true, false] {
            for outer in 0..<size {
                for inner in 0..<size {
                    line[inner] = horizontal ? modules[outer * size + inner] : modules[inner * size + outer]
                }
                score += runPenalty(line) + finderLikePenalty(line)
            }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let color = modules[y * size + x]
                if modules[y * size + x + 1] == color, modules[(y + 1) * size + x] == color,
                    modules[(y + 1) * size + x + 1] == color
                {
                    score += 3
                }
            }
        }
        let dark = modules.reduce(0) { $0 + ($1 ? 1 : 0) }
        let total = size * size
        // 10 points for each full 5 % step away from 50 %.
        score += abs(dark * 20 - total * 10) / total * 10
        return score
    }

    private func runPenalty(_ line: [Bool]) -> Int {
        var score = 0
        var runLength = 1
        for index in 1...line.count {
            if index < line.count, line[index] == line[index - 1] {
                runLength += 1
            } else {
                if runLength >= 5 {
                    score += runLength - 2
                }
                runLength = 1
            }
        }
        return score
    }

    private func finderLikePenalty(_ line: [Bool]) -> Int {
        let pattern = [true, false, true, true, true, false, true]
        func isLight(_ range: Range<Int>) -> Bool {
            range.allSatisfy { $0 < 0 || $0 >= line.count || !line[$0] }
        }
        var score = 0
        for start in 0...(line.count - pattern.count) {
            guard (0..<pattern.count).allSatisfy({ line[start + $0] == pattern[$0] }) else { continue }
            if isLight((start - 4)..<start) || isLight((start + 7)..<(start + 11)) {
                score += 40
            }
        }
        return score
    }
}
