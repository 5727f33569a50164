import PlacesMedia
import Testing

/// PNG, WebP and HEIC photos lose the same metadata as JPEGs, in each container's own way.
struct ContainerStripTests {
    /// The chunk types of a PNG, checking each chunk's CRC on the way.
    func pngChunks(_ bytes: [UInt8]) -> [String] {
        var types: [String] = []
        var position = 8
        while position + 12 <= bytes.count {
            let length = bytes[position..<position + 4].reduce(0) { $0 << 8 | Int($1) }
            let typeAndData = Array(bytes[position + 4..<position + 8 + length])
            let crc = bytes[position + 8 + length..<position + 12 + length].reduce(0) { $0 << 8 | UInt32($1) }
            types.append(
                String(decoding: typeAndData.prefix(4), as: UTF8.self) + (crc == crc32(typeAndData) ? "" : "!"))
            position += 12 + length
        }
        return types
    }

    @Test func pngLosesEXIFAndXMPButKeepsItsComment() throws {
        let original = ImageFixtures.png()
        #expect(pngChunks(original) == ["IHDR", "eXIf", "tEXt", "iTXt", "IDAT", "IEND"])
        let stripped = try MetadataStripper.strip(original, keepLocation: false)
        #expect(pngChunks(stripped) == ["IHDR", "tEXt", "IDAT", "IEND"])
        #expect(!stripped.contains(ExifFixture.latitude()))
        #expect(!stripped.contains(ImageFixtures.xmp))
        #expect(try ImageInfo.inspect(stripped) == ImageInfo(mediaType: .png, width: 3, height: 2))
    }

    @Test func pngKeepingLocationRewritesEXIFWithANewCRC() throws {
        let stripped = try MetadataStripper.strip(ImageFixtures.png(), keepLocation: true)
        #expect(pngChunks(stripped) == ["IHDR", "eXIf", "tEXt", "IDAT", "IEND"])
        #expect(stripped.contains(ExifFixture.latitude()))
        #expect(!stripped.contains([UInt8](ascii: ExifFixture.bodySerial)))
        #expect(!stripped.contains(ExifFixture.makerNote))
        #expect(try MetadataStripper.strip(stripped, keepLocation: true) == stripped)
    }

    /// The chunk FourCCs of a WebP, after checking the RIFF size.
    func webpChunks(_ bytes: [UInt8]) -> [String] {
        #expect(bytes[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) } == bytes.count - 8)
        var fourCCs: [String] = []
        var position = 12
        while position + 8 <= bytes.count {
            fourCCs.append(String(decoding: bytes[position..<position + 4], as: UTF8.self))
            let size = bytes[position + 4..<position + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            position += 8 + size + size % 2
        }
        #expect(position == bytes.count)
        return fourCCs
    }

    @Test func webpLosesEXIFAndXMPAndItsFlags() throws {
        let original = ImageFixtures.webpExtended()
        #expect(webpChunks(original) == ["VP8X", "VP8L", "EXIF", "XMP "])
        let stripped = try MetadataStripper.strip(original, keepLocation: false)
        #expect(webpChunks(stripped) == ["VP8X", "VP8L"])
        #expect(stripped[20] == 0x00)  // EXIF and XMP flags cleared
        #expect(!stripped.contains(ExifFixture.latitude()))
        #expect(try ImageInfo.inspect(stripped) == ImageInfo(mediaType: .webp, width: 4000, height: 3000))
    }

    @Test func webpKeepingLocationKeepsACleanedEXIF() throws {
        let stripped = try MetadataStripper.strip(ImageFixtures.webpExtended(), keepLocation: true)
        #expect(webpChunks(stripped) == ["VP8X", "VP8L", "EXIF"])
        #expect(stripped[20] == 0x08)
        #expect(stripped.contains(ExifFixture.latitude()))
        #expect(!stripped.contains([UInt8](ascii: ExifFixture.lensSerial)))
        #expect(!stripped.contains(ExifFixture.makerNote))
    }

    @Test func webpChunksNoImageReaderNeedsAreDropped() throws {
        let secret = [UInt8](ascii: "UNKNOWN-CHUNK-GPS")
        let original = ImageFixtures.riff([
            ImageFixtures.webpChunk("VP8L", [0x2F] + le32(0) + [0x00]), ImageFixtures.webpChunk("C2PA", secret),
        ])
        let stripped = try MetadataStripper.strip(original, keepLocation: true)
        #expect(webpChunks(stripped) == ["VP8L"])
        #expect(!stripped.contains(secret))
    }

    @Test func simpleWebPIsUnchanged() throws {
        let original = ImageFixtures.webpLossy()
        #expect(try MetadataStripper.strip(original, keepLocation: false) == original)
    }

    @Test func heicExifIsCleanedInPlace() throws {
        let original = ImageFixtures.heic()
        let stripped = try MetadataStripper.strip(original, keepLocation: false)
        #expect(stripped.count == original.count)  // no other item's offset moves
        #expect(!stripped.contains(ExifFixture.latitude()))
        #expect(!stripped.contains(ExifFixture.longitude()))
        for needle in JPEGStripTests.identifying {
            #expect(!stripped.contains(needle))
        }
        #expect(!stripped.contains(ImageFixtures.xmp))
        #expect(stripped.contains([UInt8](ascii: "<?xpacket end=\"w\"?>")))
        #expect(stripped.contains([UInt8](ascii: ExifFixture.make)))
        #expect(stripped.contains(ImageFixtures.hevcData))
        #expect(try ImageInfo.inspect(stripped) == ImageInfo.inspect(original))
        #expect(try MetadataStripper.strip(stripped, keepLocation: false) == stripped)
    }

    @Test func heicKeepingLocationKeepsGPS() throws {
        let stripped = try MetadataStripper.strip(ImageFixtures.heic(), keepLocation: true)
        #expect(stripped.contains(ExifFixture.latitude()))
        #expect(!stripped.contains([UInt8](ascii: ExifFixture.bodySerial)))
        #expect(!stripped.contains(ExifFixture.makerNote))
    }

    @Test func heicWithUnreadableExifHasItZeroed() throws {
        var original = ImageFixtures.heic()
        let tiff = try #require(original.firstRange(of: [UInt8](ascii: "Exif\0\0II")))
        original[tiff.upperBound] = 0x00  // the TIFF magic 42 becomes 0
        let stripped = try MetadataStripper.strip(original, keepLocation: true)
        #expect(!stripped.contains(ExifFixture.latitude()))
        #expect(!stripped.contains(ExifFixture.makerNote))
        #expect(stripped.count == original.count)
    }

    @Test func heicExifThatCannotBeLocatedIsRefused() throws {
        // Construction method 2 (bytes from another item) is not followed.
        var original = ImageFixtures.heic()
        let iloc = try #require(original.firstRange(of: [UInt8](ascii: "iloc")))
        // Version and flags, field sizes, item count, then 16 bytes per item.
        let secondItem = iloc.upperBound + 8 + 16
        #expect(original[secondItem..<secondItem + 2] == [0, 2])  // item 2: Exif
        original[secondItem + 3] = 2
        #expect(
            throws: MediaError(
                .unsupported, "the HEIC file can't be used: its metadata can't be located, so it can't be removed")
        ) {
            try MetadataStripper.strip(original, keepLocation: false)
        }
    }
}
