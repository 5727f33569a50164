/// The PNG chunk structure: an 8-byte signature, then chunks of length, type, data and CRC.
enum PNGFile {
    /// A chunk: its type and where its data lies.
    struct Chunk {
        var type: String
        var start: Int
        var data: Range<Int>
        /// After the chunk's CRC.
        var end: Int { data.upperBound + 4 }
    }

    /// Text-chunk keywords of metadata that may hold a location or a serial number.
    static func isMetadataKeyword(_ keyword: String) -> Bool {
        keyword == "XML:com.adobe.xmp" || keyword.hasPrefix("Raw profile type")
    }

    /// Reads the width and height from IHDR, which the PNG specification puts first.
    static func dimensions(_ bytes: [UInt8]) throws(MediaError) -> (width: UInt64, height: UInt64) {
        let header = try chunk(in: bytes, at: MediaType.pngSignature.count)
        guard header.type == "IHDR" else { throw .malformed(.png, "it does not start with an image header (IHDR)") }
        guard header.data.count == 13,
            let width = bytes.uint32(at: header.data.lowerBound, bigEndian: true),
            let height = bytes.uint32(at: header.data.lowerBound + 4, bigEndian: true)
        else { throw .malformed(.png, "its image header (IHDR) has the wrong length") }
        return (UInt64(width), UInt64(height))
    }

    /// The file with its metadata chunks dropped or cleaned (see `MetadataStripper`).
    static func stripped(_ bytes: [UInt8], keepLocation: Bool) throws(MediaError) -> [UInt8] {
        var output = MediaType.pngSignature
        output.reserveCapacity(bytes.count)
        var position = MediaType.pngSignature.count
        // Each chunk is at least 12 bytes long, so the loop ends.
        while position < bytes.count {
            let chunk = try chunk(in: bytes, at: position)
            position = chunk.end
            switch chunk.type {
            case "eXIf":
                if keepLocation, let cleaned = TIFFScrubber.scrubbedEXIFChunk(Array(bytes[chunk.data])) {
                    output += Self.chunk(type: "eXIf", data: cleaned)
                }
            case "caBX":
                break  // a C2PA manifest, which may repeat the EXIF with its location
            case "tEXt", "zTXt", "iTXt":
                let keyword = String(decoding: bytes[chunk.data].prefix { $0 != 0 }, as: UTF8.self)
                if !isMetadataKeyword(keyword) { output += bytes[chunk.start..<chunk.end] }
            case "IEND":
                output += bytes[chunk.start..<chunk.end]
                return output  // anything after IEND is not part of the image
            default:
                output += bytes[chunk.start..<chunk.end]
            }
        }
        return output
    }

    static func chunk(type: String, data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return UInt32(truncatingIfNeeded: data.count).bigEndianBytes + typeAndData
            + CRC32.checksum(typeAndData).bigEndianBytes
    }

    /// Reads the chunk at `position`; its CRC is not checked (decoders do that).
    static func chunk(in bytes: [UInt8], at position: Int) throws(MediaError) -> Chunk {
        guard let length32 = bytes.uint32(at: position, bigEndian: true), let type = bytes.fourCC(at: position + 4)
        else { throw .truncated(.png, "chunk header") }
        // The specification caps chunk lengths at 2^31 − 1.
        guard length32 <= 0x7FFF_FFFF, let length = Int(exactly: length32) else {
            throw .malformed(.png, "a chunk is longer than PNG allows")
        }
        guard let data = bytes.checkedRange(position + 8, length), bytes.checkedRange(data.upperBound, 4) != nil
        else { throw .truncated(.png, type == "IHDR" ? "image header" : "chunks") }
        return Chunk(type: type, start: position, data: data)
    }
}
