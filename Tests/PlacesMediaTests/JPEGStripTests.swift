import PlacesMedia
import Testing

/// A JPEG leaves the device without where it was taken or which camera took it.
struct JPEGStripTests {
    static let identifying: [[UInt8]] = [
        [UInt8](ascii: ExifFixture.bodySerial), [UInt8](ascii: ExifFixture.lensSerial),
        [UInt8](ascii: ExifFixture.cameraSerial), ExifFixture.makerNote,
    ]

    @Test(arguments: [false, true])
    func locationSerialsMakerNoteXMPAndTrailerAreGone(bigEndian: Bool) throws {
        let original = ImageFixtures.jpeg(exif: .camera(bigEndian: bigEndian))
        for needle in Self.identifying + [ExifFixture.latitude(bigEndian: bigEndian)] {
            #expect(original.contains(needle))  // the fixture really carries them
        }
        let stripped = try MetadataStripper.strip(original, keepLocation: false)
        for needle in Self.identifying {
            #expect(!stripped.contains(needle))
        }
        #expect(!stripped.contains(ExifFixture.latitude(bigEndian: bigEndian)))
        #expect(!stripped.contains(ExifFixture.longitude(bigEndian: bigEndian)))
        #expect(!stripped.contains(ImageFixtures.xmp))
        #expect(!stripped.contains(ImageFixtures.trailer))
        #expect(try ImageInfo.inspect(stripped) == ImageInfo.inspect(original))
    }

    @Test func harmlessTagsAndPixelsStay() throws {
        let original = ImageFixtures.jpeg()
        let stripped = try MetadataStripper.strip(original, keepLocation: false)
        #expect(stripped.contains([UInt8](ascii: ExifFixture.make)))
        #expect(stripped.contains([UInt8](ascii: "2024:06:01 12:34:56")))
        #expect(stripped.contains([0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x06, 0x00]))  // Orientation 6
        let scan: [UInt8] = [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0x78, 0xFF, 0xD1, 0x9A, 0xBC, 0xFF, 0xD9]
        #expect(stripped.contains(scan))
        #expect(Array(stripped.suffix(2)) == [0xFF, 0xD9])
    }

    @Test func keepLocationKeepsGPSButNotSerialsOrMakerNote() throws {
        let stripped = try MetadataStripper.strip(ImageFixtures.jpeg(), keepLocation: true)
        #expect(stripped.contains(ExifFixture.latitude()))
        #expect(stripped.contains(ExifFixture.longitude()))
        for needle in Self.identifying {
            #expect(!stripped.contains(needle))
        }
        #expect(!stripped.contains(ImageFixtures.xmp))
    }

    @Test(arguments: [false, true])
    func strippingTwiceChangesNothingMore(keepLocation: Bool) throws {
        let once = try MetadataStripper.strip(ImageFixtures.jpeg(), keepLocation: keepLocation)
        #expect(try MetadataStripper.strip(once, keepLocation: keepLocation) == once)
    }

    @Test func jpegWithoutMetadataOnlyLosesItsTrailer() throws {
        let original = ImageFixtures.jpeg(exif: nil)
        let stripped = try MetadataStripper.strip(original, keepLocation: false)
        #expect(stripped.count == original.count - ImageFixtures.xmp.count - 33 - 2 - ImageFixtures.trailer.count - 2)
    }

    @Test func unreadableEXIFIsDroppedWhole() throws {
        // An IFD0 offset past the block: the GPS IFD can't be found, so nothing of it may stay.
        var exif = [UInt8](ascii: "Exif\0\0") + ExifFixture.camera().tiff
        exif.replaceSubrange(10..<14, with: le32(0x7FFF_0000))
        let original: [UInt8] =
            [0xFF, 0xD8] + ImageFixtures.jpegSegment(0xE1, exif) + ImageFixtures.jpeg(exif: nil)[2...]
        let stripped = try MetadataStripper.strip(original, keepLocation: true)
        #expect(!stripped.contains(ExifFixture.latitude()))
        #expect(!stripped.contains([UInt8](ascii: "Exif\0\0")))
        #expect(try ImageInfo.inspect(stripped).width == 4032)
    }

    @Test func cyclicIFDChainIsHandled() throws {
        // IFD1's "next" points back at IFD0: the visited set ends the walk.
        var fixture = ExifFixture.camera()
        fixture.ifd1 = []
        var tiff = fixture.tiff
        let ifd0Count = Int(tiff[8])
        tiff.replaceSubrange(10 + 12 * ifd0Count..<14 + 12 * ifd0Count, with: le32(8))
        let original: [UInt8] =
            [0xFF, 0xD8] + ImageFixtures.jpegSegment(0xE1, [UInt8](ascii: "Exif\0\0") + tiff)
            + ImageFixtures.jpeg(exif: nil)[2...]
        let stripped = try MetadataStripper.strip(original, keepLocation: false)
        #expect(!stripped.contains(ExifFixture.latitude()))
        #expect(!stripped.contains(ExifFixture.makerNote))
    }

    @Test func c2paManifestIsDropped() throws {
        let manifest = [UInt8](ascii: "JP\0\u{1}C2PA-MANIFEST-WITH-LOCATION")
        let original = [0xFF, 0xD8] + ImageFixtures.jpegSegment(0xEB, manifest) + ImageFixtures.jpeg()[2...]
        #expect(!(try MetadataStripper.strip(Array(original), keepLocation: true)).contains(manifest))
    }

    @Test func fileCutAfterItsFrameHeaderInspectsButCannotBeStripped() throws {
        let original = ImageFixtures.jpeg(exif: nil)
        let dht = try #require(original.firstRange(of: [0xFF, 0xC4]))
        let cut = Array(original[..<(dht.upperBound + 4)])
        #expect(try ImageInfo.inspect(cut).width == 4032)
        let error = try #require(throws: MediaError.self) { try MetadataStripper.strip(cut, keepLocation: false) }
        #expect(error.code == .truncated)
    }
}
