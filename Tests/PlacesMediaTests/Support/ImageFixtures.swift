/// Small image files built byte by byte, with the structure real encoders write (the
/// compressed pixel data of JPEG, WebP and HEIC is filler: nothing here decodes pixels).
enum ImageFixtures {
    /// An XMP packet with a location, with the padding writers leave for edits in place.
    static let xmp = [UInt8](
        ascii: "<?xpacket begin=\"\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?><x:xmpmeta xmlns:x=\"adobe:ns:meta/\">"
            + "<exif:GPSLatitude>47,22.8539N</exif:GPSLatitude></x:xmpmeta>" + String(repeating: " ", count: 64)
            + "<?xpacket end=\"w\"?>")
    static let trailer = [UInt8](ascii: "APPENDED-IMAGE-WITH-GPS")

    // MARK: JPEG

    static func jpegSegment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + be16(payload.count + 2) + payload
    }

    /// A baseline JPEG: JFIF, EXIF, XMP, tables, a frame header, a scan whose data holds
    /// stuffed bytes and restart markers, EOI, and an appended image after it.
    static func jpeg(width: Int = 4032, height: Int = 3024, exif: ExifFixture? = .camera()) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += jpegSegment(0xE0, [UInt8](ascii: "JFIF\0") + [1, 1, 0, 0, 1, 0, 1, 0, 0])
        if let exif { bytes += jpegSegment(0xE1, [UInt8](ascii: "Exif\0\0") + exif.tiff) }
        bytes += jpegSegment(0xE1, [UInt8](ascii: "http://ns.adobe.com/xap/1.0/\0") + xmp)
        bytes += jpegSegment(0xDB, [0] + Array(repeating: 1, count: 64))
        bytes += [0xFF, 0xFF]  // fill bytes before a marker are allowed
        bytes += jpegSegment(0xC0, [8] + be16(height) + be16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
        bytes += jpegSegment(0xC4, [0] + Array(repeating: 0, count: 16) + [])
        bytes += jpegSegment(0xDA, [3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0])
        bytes += [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0x78, 0xFF, 0xD1, 0x9A, 0xBC]
        bytes += [0xFF, 0xD9]
        return bytes + [0xFF, 0xD8] + trailer
    }

    // MARK: PNG

    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = [UInt8](ascii: type) + data
        return be32(data.count) + typeAndData + be32(Int(crc32(typeAndData)))
    }

    /// A real, decodable 8-bit grayscale PNG (its IDAT is a stored zlib stream) with an
    /// eXIf chunk, a comment, and XMP in an iTXt chunk. Past 4,096 pixels the IDAT is a
    /// stand-in: those fixtures test header limits, and real pixels would take megabytes.
    static func png(width: Int = 3, height: Int = 2, exif: ExifFixture? = .camera()) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += pngChunk("IHDR", be32(width) + be32(height) + [8, 0, 0, 0, 0])
        if let exif { bytes += pngChunk("eXIf", exif.tiff) }
        bytes += pngChunk("tEXt", [UInt8](ascii: "Comment\0holiday"))
        bytes += pngChunk("iTXt", [UInt8](ascii: "XML:com.adobe.xmp\0\0\0\0\0") + xmp)
        bytes += pngChunk("IDAT", width * height <= 4_096 ? zlibStored(rows: height, width: width) : [0x78, 0x01])
        bytes += pngChunk("IEND", [])
        return bytes
    }

    /// Scanlines (filter 0, then gray values) in one stored deflate block with its Adler-32.
    static func zlibStored(rows: Int, width: Int) -> [UInt8] {
        var raw: [UInt8] = []
        for row in 0..<rows {
            raw.append(0)
            for column in 0..<width { raw.append(UInt8(truncatingIfNeeded: 40 * row + 20 * column)) }
        }
        var sumA = 1
        var sumB = 0
        for byte in raw {
            sumA = (sumA + Int(byte)) % 65_521
            sumB = (sumB + sumA) % 65_521
        }
        let header: [UInt8] = [0x78, 0x01, 0x01] + le16(raw.count) + le16(~raw.count & 0xFFFF)
        return header + raw + be32(sumB << 16 | sumA)
    }

    // MARK: WebP

    static func riff(_ chunks: [[UInt8]]) -> [UInt8] {
        let body = [UInt8](ascii: "WEBP") + chunks.flatMap { $0 }
        return [UInt8](ascii: "RIFF") + le32(body.count) + body
    }

    static func webpChunk(_ fourCC: String, _ data: [UInt8]) -> [UInt8] {
        [UInt8](ascii: fourCC) + le32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
    }

    /// A lossy WebP: a VP8 key frame header (frame tag, start code, 14-bit sizes).
    static func webpLossy(width: Int = 640, height: Int = 480) -> [UInt8] {
        riff([webpChunk("VP8 ", [0x50, 0x02, 0x00, 0x9D, 0x01, 0x2A] + le16(width) + le16(height) + [0x01, 0x02])])
    }

    /// A lossless WebP: the VP8L signature and 14-bit width − 1 and height − 1.
    static func webpLossless(width: Int = 1234, height: Int = 567) -> [UInt8] {
        let fields = (width - 1) | (height - 1) << 14 | 1 << 28  // with the alpha hint
        return riff([webpChunk("VP8L", [0x2F] + le32(fields) + [0x00, 0x00])])
    }

    /// An extended WebP: VP8X (EXIF and XMP flags set, 24-bit canvas), VP8L, EXIF, XMP (odd length).
    static func webpExtended(width: Int = 4000, height: Int = 3000, exif: ExifFixture = .camera()) -> [UInt8] {
        let canvas = [0x0C, 0, 0, 0] + Array(le32(width - 1).prefix(3)) + Array(le32(height - 1).prefix(3))
        return riff([
            webpChunk("VP8X", canvas),
            webpChunk("VP8L", [0x2F] + le32(0) + [0x00]),
            webpChunk("EXIF", exif.tiff),
            webpChunk("XMP ", xmp + [0x20]),
        ])
    }

    // MARK: HEIC

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(payload.count + 8) + [UInt8](ascii: type) + payload
    }

    static func fullBox(_ type: String, version: UInt8 = 0, flags: Int = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + Array(be32(flags).suffix(3)) + payload)
    }

    static func infe(_ item: Int, _ type: String, contentType: String? = nil) -> [UInt8] {
        let mime = contentType.map { [UInt8](ascii: $0) + [0] } ?? []
        return fullBox("infe", version: 2, be16(item) + be16(0) + [UInt8](ascii: type) + [0] + mime)
    }

    static func ispe(_ width: Int, _ height: Int) -> [UInt8] { fullBox("ispe", be32(width) + be32(height)) }

    static let hevcData = [UInt8](ascii: "HEVC-CODED-TILE-DATA")

    /// A HEIC file: ftyp, meta (hdlr, pitm, iinf, iloc, iprp with a primary `ispe` and a
    /// larger decoy associated with another item), mdat with the image, Exif and XMP items.
    /// - Parameter associate: leave out `ipma`, so only the largest `ispe` can answer.
    static func heic(
        width: Int = 4032, height: Int = 3024, exif: ExifFixture? = .camera(), associate: Bool = true,
        brands: (major: String, compatible: [String]) = ("heic", ["mif1", "heic"])
    ) -> [UInt8] {
        let ftyp = box(
            "ftyp", [UInt8](ascii: brands.major) + be32(0) + brands.compatible.flatMap { [UInt8](ascii: $0) })
        let exifPayload = exif.map { be32(6) + [UInt8](ascii: "Exif\0\0") + $0.tiff } ?? []
        let items: [(id: Int, data: [UInt8])] = [(1, hevcData), (2, exifPayload), (3, xmp), (4, hevcData)]

        func meta(mdatDataStart: Int) -> [UInt8] {
            var offset = mdatDataStart
            var locations: [UInt8] = []
            for item in items {
                locations += be16(item.id) + be16(0) + be16(0) + be16(1) + be32(offset) + be32(item.data.count)
                offset += item.data.count
            }
            let properties = box("ipco", box("hvcC", [1, 2, 3]) + ispe(width, height) + ispe(8000, 6000))
            let associations = fullBox("ipma", be32(2) + be16(1) + [2, 0x81, 0x02] + be16(4) + [2, 0x81, 0x03])
            return fullBox(
                "meta",
                fullBox("hdlr", be32(0) + [UInt8](ascii: "pict") + Array(repeating: 0, count: 13))
                    + fullBox("pitm", be16(1))
                    + fullBox(
                        "iinf",
                        be16(4) + infe(1, "hvc1") + infe(2, "Exif")
                            + infe(3, "mime", contentType: "application/rdf+xml")
                            + infe(4, "hvc1"))
                    + fullBox("iloc", version: 1, [0x44, 0x00] + be16(items.count) + locations)
                    + box("iprp", properties + (associate ? associations : [])))
        }
        let metaSize = meta(mdatDataStart: 0).count
        let mdat = box("mdat", items.flatMap { $0.data })
        return ftyp + meta(mdatDataStart: ftyp.count + metaSize + 8) + mdat
    }
}
