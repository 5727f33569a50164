import PlacesMedia
import Testing

/// What a user is told when an upload is not a photo this daemon takes.
struct RejectionTests {
    func error(_ bytes: [UInt8]) -> MediaError? { inspectionError(bytes) }

    @Test func textFileIsNotAnImage() {
        let failure = error([UInt8](ascii: "Day 1: Lisbon, Alfama, pastéis de nata\n"))
        #expect(failure == MediaError(.notAnImage, "the file is not a JPEG, PNG, WebP or HEIC image"))
    }

    @Test func emptyFileSaysItIsEmpty() {
        #expect(error([])?.code == .notAnImage)
        #expect(error([])?.message.contains("empty") == true)
    }

    @Test(arguments: [
        ([0xFF, 0xD8, 0xFF] as [UInt8], MediaError.Code.truncated),
        (Array(ImageFixtures.jpeg().prefix(40)), .truncated),
        (Array(ImageFixtures.png().prefix(8)), .truncated),
        (Array(ImageFixtures.png().prefix(20)), .truncated),
        (Array(ImageFixtures.webpLossy().prefix(12)), .truncated),
        (Array(ImageFixtures.webpLossy().prefix(24)), .truncated),
        (Array(ImageFixtures.heic().prefix(24)), .malformed),  // ftyp alone: no meta box
        (Array(ImageFixtures.heic().prefix(60)), .truncated),
    ])
    func truncatedHeadersSayWhatIsMissing(bytes: [UInt8], code: MediaError.Code) {
        #expect(error(bytes)?.code == code)
    }

    @Test func truncatedJPEGTellsTheUserToUploadAgain() {
        let failure = error(Array(ImageFixtures.jpeg().prefix(40)))
        #expect(failure?.message == "the JPEG file ends inside its metadata; it may be cut short, upload it again")
    }

    @Test func jpegSegmentLengthPastTheEnd() {
        let bytes: [UInt8] = [0xFF, 0xD8] + [0xFF, 0xE1, 0xFF, 0xF0] + [UInt8](ascii: "Exif\0\0II*\0")
        #expect(error(bytes)?.code == .truncated)
    }

    @Test func jpegSegmentLengthBelowTwoIsMalformed() {
        #expect(error([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01, 0x00])?.code == .malformed)
    }

    @Test func jpegWithoutFrameHeaderIsMalformed() {
        #expect(error([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9])?.code == .malformed)
        #expect(error([0xFF, 0xD8, 0xFF, 0xD9])?.code == .malformed)
    }

    @Test func heicBoxOfLengthZeroInsideMetaIsMalformed() throws {
        var bytes = ImageFixtures.heic()
        let hdlr = try #require(bytes.firstRange(of: [UInt8](ascii: "hdlr")))
        bytes.replaceSubrange(hdlr.lowerBound - 4..<hdlr.lowerBound, with: [0, 0, 0, 0])
        #expect(error(bytes) == MediaError(.malformed, "the HEIC file is damaged: a box inside it has a length of 0"))
    }

    @Test func heicBoxShorterThanItsHeaderIsMalformed() throws {
        var bytes = ImageFixtures.heic()
        let pitm = try #require(bytes.firstRange(of: [UInt8](ascii: "pitm")))
        bytes.replaceSubrange(pitm.lowerBound - 4..<pitm.lowerBound, with: [0, 0, 0, 4])
        #expect(error(bytes)?.code == .malformed)
    }

    @Test func heicTopLevelBoxOfLengthZeroRunsToTheEnd() throws {
        // Legal for the last box: the mdat of a file written by a streaming encoder.
        var bytes = ImageFixtures.heic()
        let mdat = try #require(bytes.firstRange(of: [UInt8](ascii: "mdat")))
        bytes.replaceSubrange(mdat.lowerBound - 4..<mdat.lowerBound, with: [0, 0, 0, 0])
        #expect(try ImageInfo.inspect(bytes).width == 4032)
    }

    @Test(arguments: [
        (ImageFixtures.png(width: 70_000, height: 10), MediaError.Code.unsupported),
        (ImageFixtures.png(width: 20_000, height: 20_000), .unsupported),  // 400 megapixels
        (ImageFixtures.png(width: 0, height: 10), .malformed),
        (ImageFixtures.jpeg(width: 65_535, height: 3_100), .unsupported),  // 203 megapixels
        (ImageFixtures.jpeg(width: 0, height: 3_000), .malformed),
        (ImageFixtures.heic(width: 100_000, height: 1), .unsupported),
        (ImageFixtures.heic(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF), .unsupported),
    ])
    func sizesOutOfRangeAreRefused(bytes: [UInt8], code: MediaError.Code) {
        #expect(error(bytes)?.code == code)
    }

    @Test func largestAcceptedSizes() throws {
        #expect(try ImageInfo.inspect(ImageFixtures.png(width: 65_535, height: 3_000)).width == 65_535)
        #expect(try ImageInfo.inspect(ImageFixtures.jpeg(width: 1, height: 1)).height == 1)
    }

    @Test func tooLargeMessageGivesTheLimit() {
        let failure = error(ImageFixtures.png(width: 70_000, height: 10))
        #expect(failure?.message.contains("70000×10") == true)
        #expect(failure?.message.contains("65,535") == true)
    }

    @Test func strippingRefusesWhatInspectingRefuses() {
        #expect(throws: MediaError.self) { try MetadataStripper.strip([UInt8](ascii: "hello"), keepLocation: false) }
        #expect(throws: MediaError.self) { try MetadataStripper.strip([], keepLocation: true) }
    }
}
