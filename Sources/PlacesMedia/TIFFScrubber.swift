/// Cleans the TIFF structure inside an EXIF block in place: removes the IFD entries that
/// identify a place or a device and overwrites their values with zeros.
///
/// In place, because the block's length must not change inside a HEIC `mdat` (other items'
/// offsets point past it), and because it keeps every other value where its readers expect
/// it. An entry is removed by moving the entries after it up one slot and zeroing the slot
/// freed at the end, so the IFD stays sorted and no trace of the entry remains; its value,
/// when stored outside the entry, is zeroed where it lies.
enum TIFFScrubber {
    /// The TIFF structure can't be followed; the caller then drops or zeroes the whole block.
    struct Unreadable: Error {}

    static let gpsIFDPointer: UInt16 = 0x8825
    static let exifIFDPointer: UInt16 = 0x8769

    /// Tags removed whatever the user chose: serial numbers, the owner's name, maker notes.
    static let identifyingTags: Set<UInt16> = [
        0xA430,  // CameraOwnerName
        0xA431,  // BodySerialNumber
        0xA435,  // LensSerialNumber
        0xC62F,  // CameraSerialNumber (DNG)
        0x927C,  // MakerNote: vendor data, often with the serial number and location again
    ]

    /// IFDs visited at most: IFD0, IFD1 (thumbnail), the Exif IFD, and slack for odd files;
    /// together with the visited set it stops cycles and chains in hostile files.
    static let maxIFDs = 8

    /// `tiff` (starting at its "II"/"MM" header) with the identifying entries removed.
    static func scrubbed(_ tiff: [UInt8], keepLocation: Bool) throws(Unreadable) -> [UInt8] {
        var first = try Pass(tiff, keepLocation: keepLocation)
        try first.run()
        // In a hostile block a removed value may overlap the header or an IFD, and zeroing
        // it leaves a block that reads differently. Only a result that a second pass leaves
        // as it is counts as clean; anything else is unreadable, and dropped whole.
        var second = try Pass(first.tiff, keepLocation: keepLocation)
        try second.run()
        guard second.tiff == first.tiff else { throw Unreadable() }
        return first.tiff
    }

    /// One cleaning of one TIFF block.
    private struct Pass {
        var tiff: [UInt8]
        let bigEndian: Bool
        let removed: Set<UInt16>
        /// Value ranges of removed entries, zeroed after all IFDs are rewritten so no later
        /// move can copy a removed value back.
        var doomed: [Range<Int>] = []
        var visited: Set<Int> = []

        init(_ tiff: [UInt8], keepLocation: Bool) throws(Unreadable) {
            if tiff.hasASCII("II", at: 0) {
                bigEndian = false
            } else if tiff.hasASCII("MM", at: 0) {
                bigEndian = true
            } else {
                throw Unreadable()
            }
            guard tiff.uint16(at: 2, bigEndian: bigEndian) == 42 else { throw Unreadable() }
            self.tiff = tiff
            removed = keepLocation ? identifyingTags : identifyingTags.union([gpsIFDPointer])
        }

        mutating func run() throws(Unreadable) {
            guard let first = tiff.uint32(at: 4, bigEndian: bigEndian) else { throw Unreadable() }
            // IFD0 and its chain (IFD1 describes the thumbnail), then the Exif IFDs they point to.
            var pending: [UInt32] = [first]
            var exifIFDs: [UInt32] = []
            while let next = pending.popLast(), next != 0 {
                let links = try clean(ifdAt: next)
                exifIFDs += links.exif
                if let following = links.next { pending.append(following) }
            }
            for offset in exifIFDs { _ = try clean(ifdAt: offset) }
            for range in doomed { tiff.zero(range) }
        }

        /// Rewrites the IFD at `offset` without removed entries; answers its links onward.
        mutating func clean(ifdAt offset32: UInt32) throws(Unreadable) -> (next: UInt32?, exif: [UInt32]) {
            guard let offset = Int(exactly: offset32), offset < tiff.count, !visited.contains(offset),
                visited.count < maxIFDs, let entryCount = tiff.uint16(at: offset, bigEndian: bigEndian),
                let table = tiff.checkedRange(offset + 2, Int(entryCount) * 12 + 4)
            else { throw Unreadable() }
            visited.insert(offset)
            var kept: [[UInt8]] = []
            var exifIFDs: [UInt32] = []
            for index in 0..<Int(entryCount) {
                let entryStart = table.lowerBound + index * 12
                let entry = Array(tiff[entryStart..<entryStart + 12])
                guard let tag = entry.uint16(at: 0, bigEndian: bigEndian),
                    let value = entry.uint32(at: 8, bigEndian: bigEndian)
                else { throw Unreadable() }
                if tag == exifIFDPointer { exifIFDs.append(value) }
                guard removed.contains(tag) else {
                    kept.append(entry)
                    continue
                }
                if let outside = try valueRange(of: entry) { doomed.append(outside) }
                if tag == gpsIFDPointer { try doomGPSIFD(at: value) }
            }
            guard let next = tiff.uint32(at: table.upperBound - 4, bigEndian: bigEndian) else { throw Unreadable() }
            if kept.count < Int(entryCount) {
                tiff.zero(table)
                tiff.setUInt16(UInt16(kept.count), at: offset, bigEndian: bigEndian)
                for (index, entry) in kept.enumerated() {
                    let start = table.lowerBound + index * 12
                    tiff.replaceSubrange(start..<start + 12, with: entry)
                }
                tiff.setUInt32(next, at: table.lowerBound + kept.count * 12, bigEndian: bigEndian)
            }
            return (next == 0 ? nil : next, exifIFDs)
        }

        /// Marks the whole GPS IFD (its table and every value it points to) for zeroing.
        mutating func doomGPSIFD(at offset32: UInt32) throws(Unreadable) {
            guard let offset = Int(exactly: offset32), offset < tiff.count, !visited.contains(offset),
                visited.count < maxIFDs, let entryCount = tiff.uint16(at: offset, bigEndian: bigEndian),
                let table = tiff.checkedRange(offset, 2 + Int(entryCount) * 12 + 4)
            else { throw Unreadable() }
            visited.insert(offset)
            for index in 0..<Int(entryCount) {
                let entryStart = offset + 2 + index * 12
                if let outside = try valueRange(of: Array(tiff[entryStart..<entryStart + 12])) {
                    doomed.append(outside)
                }
            }
            doomed.append(table)
        }

        /// Where an entry's value lies when it does not fit in the entry's own 4 bytes.
        func valueRange(of entry: [UInt8]) throws(Unreadable) -> Range<Int>? {
            guard let type = entry.uint16(at: 2, bigEndian: bigEndian),
                let count32 = entry.uint32(at: 4, bigEndian: bigEndian),
                let offset32 = entry.uint32(at: 8, bigEndian: bigEndian)
            else { throw Unreadable() }
            // A type this reader doesn't know has no size; readers skip it, and its 4 value
            // bytes go with the entry.
            guard let unit = TIFFScrubber.byteSize(ofType: type), let count = Int(exactly: count32) else { return nil }
            let (size, overflow) = count.multipliedReportingOverflow(by: unit)
            guard !overflow else { throw Unreadable() }
            guard size > 4 else { return nil }
            guard let offset = Int(exactly: offset32), let range = tiff.checkedRange(offset, size) else {
                throw Unreadable()
            }
            return range
        }
    }

    /// The EXIF of a PNG `eXIf` or WebP `EXIF` chunk with only the identifying tags removed
    /// (the user kept the location); nil when it can't be parsed, and the chunk is dropped.
    static func scrubbedEXIFChunk(_ data: [UInt8]) -> [UInt8]? {
        // The specifications say raw TIFF; some writers keep JPEG's "Exif\0\0" in front.
        let prefix = data.hasASCII("Exif\0\0", at: 0) ? 6 : 0
        guard let tiff = try? scrubbed(Array(data[prefix...]), keepLocation: true) else { return nil }
        return Array(data[..<prefix]) + tiff
    }

    /// Bytes per value of a TIFF field type (TIFF 6.0 and the EXIF IFD type 13).
    static func byteSize(ofType type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1  // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: 2  // SHORT, SSHORT
        case 4, 9, 11, 13: 4  // LONG, SLONG, FLOAT, IFD
        case 5, 10, 12: 8  // RATIONAL, SRATIONAL, DOUBLE
        default: nil
        }
    }
}
