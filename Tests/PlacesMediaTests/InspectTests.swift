import PlacesMedia
import Testing

/// The type and size a user sees for an upload come from the bytes alone.
struct InspectTests {
    @Test func jpegSizeComesFromTheFrameHeader() throws {
        #expect(try ImageInfo.inspect(ImageFixtures.jpeg()) == ImageInfo(mediaType: .jpeg, width: 4032, height: 3024))
    }

    @Test func progressiveJPEGIsRead() throws {
        // SOF2 instead of SOF0, with a restart marker standing alone before it.
        var bytes = ImageFixtures.jpeg(width: 17, height: 9, exif: nil)
        let sof0 = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof0 + 1] = 0xC2
        bytes.insert(contentsOf: [0xFF, 0xD0], at: sof0)
        #expect(try ImageInfo.inspect(bytes) == ImageInfo(mediaType: .jpeg, width: 17, height: 9))
    }

    @Test func pngSizeComesFromIHDR() throws {
        #expect(try ImageInfo.inspect(ImageFixtures.png()) == ImageInfo(mediaType: .png, width: 3, height: 2))
    }

    @Test(arguments: [
        (ImageFixtures.webpLossy(), 640, 480),
        (ImageFixtures.webpLossless(), 1234, 567),
        (ImageFixtures.webpExtended(), 4000, 3000),
        (ImageFixtures.webpLossless(width: 16_384, height: 1), 16_384, 1),
    ])
    func webpSizeComesFromEachHeaderKind(bytes: [UInt8], width: Int, height: Int) throws {
        #expect(try ImageInfo.inspect(bytes) == ImageInfo(mediaType: .webp, width: width, height: height))
    }

    @Test func heicSizeIsThePrimaryItemsNotTheLargest() throws {
        // The decoy 8000×6000 `ispe` belongs to another item.
        #expect(try ImageInfo.inspect(ImageFixtures.heic()) == ImageInfo(mediaType: .heic, width: 4032, height: 3024))
    }

    @Test func heicWithoutAssociationsFallsBackToTheLargestSize() throws {
        let info = try ImageInfo.inspect(ImageFixtures.heic(associate: false))
        #expect(info == ImageInfo(mediaType: .heic, width: 8000, height: 6000))
    }

    @Test(arguments: [
        ("heic", ["mif1", "heic"]), ("heix", []), ("mif1", ["miaf", "heic"]), ("msf1", ["hevc"]),
    ])
    func heicBrandsAreRecognized(major: String, compatible: [String]) throws {
        let bytes = ImageFixtures.heic(brands: (major, compatible))
        #expect(try ImageInfo.inspect(bytes).mediaType == .heic)
    }

    @Test func avifAndMP4AreNotTakenForHEIC() {
        for brands in [("avif", ["mif1", "avif"]), ("mif1", ["avif"]), ("isom", ["mp41"])] {
            #expect(inspectionError(ImageFixtures.heic(brands: brands))?.code == .notAnImage)
        }
    }

    @Test func theFileNameDoesNotMatterOnlyTheBytes() throws {
        // A PNG with JPEG's first bytes pasted over its signature is not a PNG any more.
        var bytes = ImageFixtures.png()
        bytes.replaceSubrange(0..<3, with: [0xFF, 0xD8, 0xFF])
        #expect(throws: MediaError.self) { try ImageInfo.inspect(bytes) }
    }
}
