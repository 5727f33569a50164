/// The JPEG marker structure: segments before the image data, each a marker and a length,
/// walked without decoding a pixel.
enum JPEGFile {
    /// Start-of-frame markers of every coding process (baseline, extended, progressive,
    /// lossless; Huffman or arithmetic). C4 (DHT), C8 (JPG) and CC (DAC) share the range
    /// but are tables, not frames.
    static let startOfFrameMarkers: Set<UInt8> = [
        0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF,
    ]
    static let startOfScan: UInt8 = 0xDA
    static let endOfImage: UInt8 = 0xD9
    static let app1: UInt8 = 0xE1
    static let app2: UInt8 = 0xE2
    static let app11: UInt8 = 0xEB
    static let app13: UInt8 = 0xED

    /// One marker and, unless it stands alone, the segment it heads.
    struct Segment {
        var marker: UInt8
        /// The length field and the payload after it; empty for standalone markers.
        var body: Range<Int>
        /// Where the next marker (or the entropy-coded data after SOS) begins.
        var end: Int { body.upperBound }
        var payload: Range<Int> { body.isEmpty ? body : body.lowerBound + 2..<body.upperBound }
    }

    /// Reads the width and height from the first start-of-frame segment.
    static func dimensions(_ bytes: [UInt8]) throws(MediaError) -> (width: UInt64, height: UInt64) {
        var position = 2  // after SOI
        // Each segment moves `position` forward by at least 2 bytes, so the loop ends.
        while position < bytes.count {
            let segment = try segment(in: bytes, at: position)
            if startOfFrameMarkers.contains(segment.marker) {
                // Length (2), precision (1), height (2), width (2), component count (1).
                guard segment.body.count >= 8,
                    let height = bytes.uint16(at: segment.body.lowerBound + 3, bigEndian: true),
                    let width = bytes.uint16(at: segment.body.lowerBound + 5, bigEndian: true)
                else { throw .malformed(.jpeg, "its frame header is too short") }
                guard height > 0 else {
                    throw .unsupported(.jpeg, "its height is only given after the image data (a DNL marker)")
                }
                return (UInt64(width), UInt64(height))
            }
            if segment.marker == startOfScan {
                throw .malformed(.jpeg, "its image data starts before its frame header")
            }
            if segment.marker == endOfImage { throw .malformed(.jpeg, "it ends without a frame header") }
            position = segment.end
        }
        throw .truncated(.jpeg, "header")
    }

    /// The file with its metadata segments dropped or cleaned (see `MetadataStripper`).
    static func stripped(_ bytes: [UInt8], keepLocation: Bool) throws(MediaError) -> [UInt8] {
        var output: [UInt8] = [0xFF, 0xD8]
        output.reserveCapacity(bytes.count)
        var position = 2
        while position < bytes.count {
            let segment = try segment(in: bytes, at: position)
            if segment.marker == endOfImage {
                // Whatever follows EOI (MPF images, gain maps, appended files) is not the photo.
                output += [0xFF, endOfImage]
                return output
            }
            if let kept = kept(segment, of: bytes, keepLocation: keepLocation) {
                output += [0xFF, segment.marker]
                output += kept
            }
            position = segment.end
            if segment.marker == startOfScan {
                let dataEnd = entropyCodedDataEnd(in: bytes, from: position)
                output += bytes[position..<dataEnd]
                position = dataEnd
            }
        }
        return output  // a file cut inside its image data stays as viewable as it was
    }

    /// The segment's bytes to keep (length field and payload), or nil to drop it.
    private static func kept(_ segment: Segment, of bytes: [UInt8], keepLocation: Bool) -> ArraySlice<UInt8>? {
        let payload = segment.payload
        switch segment.marker {
        case app1:
            // APP1 holds EXIF or XMP; XMP is dropped (it is not parsed, so its serials and
            // location can't be picked out).
            guard bytes.hasASCII("Exif\0", at: payload.lowerBound), payload.count >= 6 else { return nil }
            let tiff = Array(bytes[payload.lowerBound + 6..<payload.upperBound])
            guard let clean = try? TIFFScrubber.scrubbed(tiff, keepLocation: keepLocation) else { return nil }
            return bytes[segment.body.lowerBound..<payload.lowerBound + 6] + clean[...]
        case app2 where bytes.hasASCII("MPF\0", at: payload.lowerBound):
            return nil  // indexes the images after EOI, which are dropped
        case app11:
            return nil  // JUMBF: C2PA manifests, which may repeat the EXIF with its location
        case app13 where !keepLocation:
            return nil  // Photoshop resources: IPTC city, sublocation and country
        default:
            return bytes[segment.body]
        }
    }

    /// Reads the marker at `position`, after any fill bytes, and the extent of its segment.
    static func segment(in bytes: [UInt8], at position: Int) throws(MediaError) -> Segment {
        guard bytes.uint8(at: position) == 0xFF else {
            throw .malformed(.jpeg, "a segment does not start with a marker")
        }
        var cursor = position
        while bytes.uint8(at: cursor) == 0xFF { cursor += 1 }  // fill bytes; bounded by the buffer
        guard let marker = bytes.uint8(at: cursor) else { throw .truncated(.jpeg, "header") }
        cursor += 1
        if marker == 0x00 { throw .malformed(.jpeg, "it has a stray marker") }
        if marker == 0x01 || (0xD0...0xD9).contains(marker) {
            return Segment(marker: marker, body: cursor..<cursor)  // TEM, RSTn, SOI, EOI: no length
        }
        guard let length = bytes.uint16(at: cursor, bigEndian: true) else { throw .truncated(.jpeg, "header") }
        guard length >= 2 else { throw .malformed(.jpeg, "a segment is shorter than its own length field") }
        guard let body = bytes.checkedRange(cursor, Int(length)) else {
            throw .truncated(.jpeg, marker == app1 ? "metadata" : "header")
        }
        return Segment(marker: marker, body: body)
    }

    /// The end of the entropy-coded data that follows a start-of-scan header: the next
    /// marker other than a stuffed zero (FF 00) or a restart marker (FF D0–D7).
    static func entropyCodedDataEnd(in bytes: [UInt8], from start: Int) -> Int {
        var position = start
        while position < bytes.count {
            guard bytes[position] == 0xFF, let next = bytes.uint8(at: position + 1) else {
                position += 1
                continue
            }
            if next == 0x00 || (0xD0...0xD7).contains(next) {
                position += 2
            } else if next == 0xFF {
                position += 1  // a fill byte before a marker
            } else {
                return position
            }
        }
        return bytes.count
    }
}
