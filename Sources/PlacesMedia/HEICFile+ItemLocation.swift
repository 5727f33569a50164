/// Where an item's bytes are: the `iloc` box (ISO/IEC 14496-12 §8.11.3).
extension HEICFile {
    /// Byte ranges in the file of each item in `wanted`, in payload order. Items stored in
    /// `idat` (construction method 1) are mapped to that box's place in the file; items
    /// built from other items (method 2) or kept in another file are left out, and the
    /// caller refuses to pretend it cleaned them.
    static func itemExtents(_ meta: [BMFFBox], in bytes: [UInt8], of wanted: Set<UInt32>) throws(MediaError)
        -> [UInt32: [Range<Int>]]
    {
        guard let iloc = meta.first("iloc") else { return [:] }
        let idat = meta.first("idat")?.payload
        var cursor = ByteCursor(bytes, iloc.payload, shortage: .truncated(.heic, "item locations"))
        let version = try cursor.uint8()
        guard version <= 2 else { throw .unsupported(.heic, "its item locations use an unknown version") }
        try cursor.skip(3)
        let sizes = try cursor.uint8()
        let moreSizes = try cursor.uint8()
        let offsetSize = Int(sizes >> 4)
        let lengthSize = Int(sizes & 0x0F)
        let baseOffsetSize = Int(moreSizes >> 4)
        let indexSize = version == 0 ? 0 : Int(moreSizes & 0x0F)
        guard [offsetSize, lengthSize, baseOffsetSize, indexSize].allSatisfy({ [0, 4, 8].contains($0) }) else {
            throw .malformed(.heic, "its item locations use field sizes other than 0, 4 or 8 bytes")
        }
        let itemCount = version < 2 ? UInt32(try cursor.uint16()) : try cursor.uint32()
        // Every item takes at least 6 bytes: a hostile count can't spin the loop.
        guard itemCount <= cursor.remaining / 6 else { throw .truncated(.heic, "item locations") }
        var extents: [UInt32: [Range<Int>]] = [:]
        for _ in 0..<itemCount {
            let item = version < 2 ? UInt32(try cursor.uint16()) : try cursor.uint32()
            let constructionMethod = version == 0 ? 0 : try cursor.uint16() & 0x0F
            let dataReference = try cursor.uint16()
            let baseOffset = try cursor.unsigned(size: baseOffsetSize)
            let extentCount = try cursor.uint16()
            var ranges: [Range<Int>] = []
            var total = 0
            for _ in 0..<extentCount {
                _ = try cursor.unsigned(size: indexSize)
                let offset = try cursor.unsigned(size: offsetSize)
                let length = try cursor.unsigned(size: lengthSize)
                // Only this file's own bytes (data reference 0) in the file or in idat.
                let container: Range<Int>
                switch constructionMethod {
                case 0 where dataReference == 0: container = 0..<bytes.count
                case 1 where dataReference == 0 && idat != nil: container = idat ?? 0..<0
                default: continue
                }
                let range = try extent(base: baseOffset, offset: offset, length: length, in: container)
                // Overlapping extents could otherwise multiply a 20 MiB file into terabytes.
                total += range.count
                guard total <= bytes.count else { throw .malformed(.heic, "an item is larger than the file") }
                ranges.append(range)
            }
            if wanted.contains(item), ranges.count == Int(extentCount), !ranges.isEmpty {
                extents[item] = ranges
            }
        }
        return extents
    }

    /// One extent in file coordinates; a length of 0 means "to the end of the container".
    private static func extent(base: UInt64, offset: UInt64, length: UInt64, in container: Range<Int>)
        throws(MediaError) -> Range<Int>
    {
        let (relative, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, let relativeStart = Int(exactly: relative), relativeStart <= container.count else {
            throw .truncated(.heic, "metadata")
        }
        let start = container.lowerBound + relativeStart
        guard length != 0 else { return start..<container.upperBound }
        guard let count = Int(exactly: length), count <= container.upperBound - start else {
            throw .truncated(.heic, "metadata")
        }
        return start..<start + count
    }
}
