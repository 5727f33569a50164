/// Cleaning a HEIC file's metadata items in place: the Exif and XMP items are found
/// through `iinf` (item types) and `iloc` (where their bytes are), and rewritten without
/// changing any length, so every other item's offsets stay right.
extension HEICFile {
    /// An empty XMP packet: what an XMP item becomes, padded with spaces to its old length
    /// (the padding XMP itself provides for rewriting in place).
    static let emptyXMPHead = Array(
        "<?xpacket begin=\"\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?><x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>".utf8)
    static let emptyXMPTail = Array("<?xpacket end=\"w\"?>".utf8)

    /// The file with its Exif item cleaned (see `TIFFScrubber`) and its XMP item emptied.
    static func stripped(_ bytes: [UInt8], keepLocation: Bool) throws(MediaError) -> [UInt8] {
        let meta = try metaBoxes(bytes)
        let items = try metadataItems(meta, in: bytes)
        guard !items.exif.isEmpty || !items.xmp.isEmpty else { return bytes }
        let extents = try itemExtents(meta, in: bytes, of: Set(items.exif + items.xmp))
        // Items may not share bytes: hostile overlapping items would make the work grow with
        // their count rather than with the file.
        let metadataSize = extents.values.joined().reduce(0) { $0 + $1.count }
        guard metadataSize <= bytes.count else { throw .malformed(.heic, "its metadata items overlap") }
        var output = bytes
        for item in Set(items.exif + items.xmp).sorted() {  // an id listed twice is cleaned once
            guard let ranges = extents[item] else {
                throw .unsupported(.heic, "its metadata can't be located, so it can't be removed")
            }
            var payload = ranges.flatMap { bytes[$0] }
            if items.exif.contains(item) {
                payload = cleanedExifItem(payload, keepLocation: keepLocation)
            } else {
                payload = emptyXMP(length: payload.count)
            }
            var consumed = 0
            for range in ranges {
                output.replaceSubrange(range, with: payload[consumed..<consumed + range.count])
                consumed += range.count
            }
        }
        return output
    }

    /// An Exif item: a 4-byte offset to the TIFF header (past "Exif\0\0"), then TIFF.
    /// When the TIFF can't be parsed, everything after the header offset is zeroed.
    static func cleanedExifItem(_ payload: [UInt8], keepLocation: Bool) -> [UInt8] {
        var tiffStart = 4
        if let skip = payload.uint32(at: 0, bigEndian: true).flatMap({ Int(exactly: $0) }),
            payload.checkedRange(4, skip) != nil
        {
            tiffStart += skip
        }
        var cleaned = payload
        if let tiff = try? TIFFScrubber.scrubbed(Array(payload[tiffStart...]), keepLocation: keepLocation) {
            cleaned.replaceSubrange(tiffStart..., with: tiff)
        } else {
            cleaned.zero(min(4, cleaned.count)..<cleaned.count)
        }
        return cleaned
    }

    static func emptyXMP(length: Int) -> [UInt8] {
        let padding = length - emptyXMPHead.count - emptyXMPTail.count
        guard padding >= 0 else { return Array(repeating: 0x20, count: length) }
        return emptyXMPHead + Array(repeating: 0x20, count: padding) + emptyXMPTail
    }

    /// The ids of the Exif items and of the XMP items (MIME items of type RDF/XML), from `iinf`.
    static func metadataItems(_ meta: [BMFFBox], in bytes: [UInt8]) throws(MediaError) -> (
        exif: [UInt32], xmp: [UInt32]
    ) {
        guard let iinf = meta.first("iinf") else { return ([], []) }
        var cursor = ByteCursor(bytes, iinf.payload, shortage: .truncated(.heic, "item list"))
        let version = try cursor.uint8()
        try cursor.skip(3)
        try cursor.skip(version == 0 ? 2 : 4)  // the entry count; the boxes themselves are counted
        var exif: [UInt32] = []
        var xmp: [UInt32] = []
        for infe in try BMFFBox.children(of: cursor.offset..<cursor.end, in: bytes) where infe.type == "infe" {
            var entry = ByteCursor(bytes, infe.payload, shortage: .truncated(.heic, "item list"))
            let entryVersion = try entry.uint8()
            // Versions 0 and 1 have no item type; HEIC writes version 2 or 3.
            guard entryVersion >= 2 else { continue }
            try entry.skip(3)
            let item = entryVersion == 2 ? UInt32(try entry.uint16()) : try entry.uint32()
            try entry.skip(2)  // protection index
            switch try entry.fourCC() {
            case "Exif":
                exif.append(item)
            case "mime":
                _ = try? entry.cString()  // the item name
                if (try? entry.cString()) == xmpContentType { xmp.append(item) }
            default:
                break
            }
        }
        return (exif, xmp)
    }
}
