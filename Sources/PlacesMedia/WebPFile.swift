/// The WebP container: a RIFF file ("RIFF", size, "WEBP") of chunks (FourCC, little-endian
/// size, data, a pad byte after odd sizes).
enum WebPFile {
    /// The RIFF header: "RIFF", the size of what follows it, "WEBP".
    static let headerSize = 12

    /// The chunks that make up the picture: image data, alpha, animation, the color profile.
    /// Every other chunk is dropped, since what an unknown chunk holds can't be known.
    static let imageChunks: Set<String> = ["VP8 ", "VP8L", "VP8X", "ALPH", "ANIM", "ANMF", "ICCP"]

    /// VP8X flag bits for chunks this module removes.
    static let exifFlag: UInt8 = 0x08
    static let xmpFlag: UInt8 = 0x04

    struct Chunk {
        var fourCC: String
        var start: Int
        var data: Range<Int>
    }

    /// Reads the width and height from the first chunk: a lossy (VP8), lossless (VP8L) or
    /// extended (VP8X, the canvas size) header.
    static func dimensions(_ bytes: [UInt8]) throws(MediaError) -> (width: UInt64, height: UInt64) {
        let first = try chunk(in: bytes, at: headerSize)
        let data = first.data.lowerBound
        switch first.fourCC {
        case "VP8 ":
            // A 3-byte frame tag (bit 0 clear on key frames), the start code 9D 01 2A, then
            // 14-bit width and height, each with a 2-bit scale the decoder upsamples by.
            guard first.data.count >= 10, let tag = bytes.uint8(at: data),
                bytes[data + 3..<data + 6].elementsEqual([0x9D, 0x01, 0x2A]),
                let width = bytes.uint16(at: data + 6, bigEndian: false),
                let height = bytes.uint16(at: data + 8, bigEndian: false)
            else { throw .malformed(.webp, "its lossy image header is damaged") }
            guard tag & 1 == 0 else { throw .malformed(.webp, "its image does not start with a key frame") }
            return (UInt64(width & 0x3FFF), UInt64(height & 0x3FFF))
        case "VP8L":
            // The signature 0x2F, then width − 1 and height − 1 in 14 bits each, an alpha
            // bit and a 3-bit version that must be 0.
            guard first.data.count >= 5, bytes.uint8(at: data) == 0x2F,
                let fields = bytes.uint32(at: data + 1, bigEndian: false)
            else { throw .malformed(.webp, "its lossless image header is damaged") }
            guard fields >> 29 == 0 else { throw .unsupported(.webp, "it uses an unknown lossless version") }
            return (UInt64(fields & 0x3FFF) + 1, UInt64(fields >> 14 & 0x3FFF) + 1)
        case "VP8X":
            // Flags (1), reserved (3), canvas width − 1 and height − 1 in 24 bits each.
            guard first.data.count >= 10, let width = bytes.uint24LE(at: data + 4),
                let height = bytes.uint24LE(at: data + 7)
            else { throw .malformed(.webp, "its extended header is damaged") }
            return (UInt64(width) + 1, UInt64(height) + 1)
        default:
            throw .malformed(.webp, "it does not start with an image header")
        }
    }

    /// The file with only its image chunks and (kept and cleaned) `EXIF`, with the VP8X flags
    /// and the RIFF size to match.
    static func stripped(_ bytes: [UInt8], keepLocation: Bool) throws(MediaError) -> [UInt8] {
        var output = Array(bytes[0..<headerSize])
        output.reserveCapacity(bytes.count)
        var hasEXIF = false
        var position = headerSize
        // The RIFF size bounds the chunks; bytes after it are not part of the image.
        let riffSize = bytes.uint32(at: 4, bigEndian: false).flatMap { Int(exactly: $0) } ?? bytes.count
        let riffEnd = min(bytes.count, riffSize.addingReportingOverflow(8).partialValue)
        // Each chunk is at least 8 bytes long, so the loop ends.
        while position < riffEnd {
            let chunk = try chunk(in: bytes, at: position)
            position = min(chunk.data.upperBound + chunk.data.count % 2, bytes.count)
            var data = bytes[chunk.data]
            switch chunk.fourCC {
            case "EXIF":
                guard keepLocation, let cleaned = TIFFScrubber.scrubbedEXIFChunk(Array(data)) else { continue }
                data = cleaned[...]
                hasEXIF = true
            case let fourCC where imageChunks.contains(fourCC):
                break
            default:
                continue  // XMP, C2PA manifests, and chunks no reader of the image needs
            }
            output += bytes[chunk.start..<chunk.start + 4]  // the FourCC as it was, byte for byte
            output += UInt32(truncatingIfNeeded: data.count).littleEndianBytes
            output += data
            if data.count % 2 == 1 { output.append(0) }
        }
        // Readers trust the flags to look for the chunks; clear the bits of the ones removed.
        if output.hasASCII("VP8X", at: headerSize), output.count > headerSize + 8 {
            output[headerSize + 8] &= hasEXIF ? ~xmpFlag : ~(xmpFlag | exifFlag)
        }
        // The caller caps input at 20 MiB, so the size fits the 32-bit field.
        output.setUInt32(UInt32(truncatingIfNeeded: output.count - 8), at: 4, bigEndian: false)
        return output
    }

    static func chunk(in bytes: [UInt8], at position: Int) throws(MediaError) -> Chunk {
        guard let fourCC = bytes.fourCC(at: position), let size32 = bytes.uint32(at: position + 4, bigEndian: false)
        else { throw .truncated(.webp, "header") }
        guard let size = Int(exactly: size32), let data = bytes.checkedRange(position + 8, size) else {
            throw .truncated(.webp, position == headerSize ? "header" : "chunks")
        }
        return Chunk(fourCC: fourCC, start: position, data: data)
    }
}
