/// What a photo's bytes say it is: the format and the stored width and height in pixels.
///
/// The dimensions are those of the stored image, before any EXIF orientation or HEIC
/// rotation is applied (a portrait phone photo may read as landscape).
public struct ImageInfo: Sendable, Equatable {
    /// The format, from the magic numbers at the start of the file.
    public var mediaType: MediaType
    /// Width in pixels, 1...65,535.
    public var width: Int
    /// Height in pixels, 1...65,535.
    public var height: Int

    /// An image description; `inspect(_:)` is how one is read from bytes.
    public init(mediaType: MediaType, width: Int, height: Int) {
        self.mediaType = mediaType
        self.width = width
        self.height = height
    }

    /// The largest width or height accepted: decoders and thumbnailers downstream assume 16 bits.
    public static let maxSidePixels = 65_535
    /// The largest area accepted: 200 megapixels, beyond any camera a trip photo comes from,
    /// and a cap on the memory a decoder would be asked for (a "decompression bomb").
    public static let maxAreaPixels = 200_000_000

    /// Recognizes the format of `bytes` by its magic numbers and reads the width and height
    /// from its header: JPEG frame (SOFn) markers, the PNG IHDR chunk, the WebP VP8, VP8L or
    /// VP8X header, or the HEIC primary item's `ispe` property.
    ///
    /// Reads only the header; the compressed pixels are not decoded or checked.
    /// - Throws: `MediaError` with `.notAnImage` for other files, `.truncated` when the
    ///   header is cut short, `.malformed` when it breaks its format's rules, `.unsupported`
    ///   for images over 65,535 pixels a side or 200 megapixels.
    public static func inspect(_ bytes: [UInt8]) throws(MediaError) -> ImageInfo {
        guard !bytes.isEmpty else { throw .empty }
        guard let type = MediaType.sniff(bytes) else { throw .notAnImage }
        let size: (width: UInt64, height: UInt64)
        switch type {
        case .jpeg: size = try JPEGFile.dimensions(bytes)
        case .png: size = try PNGFile.dimensions(bytes)
        case .webp: size = try WebPFile.dimensions(bytes)
        case .heic: size = try HEICFile.dimensions(bytes)
        }
        return try validated(type, width: size.width, height: size.height)
    }

    private static func validated(_ type: MediaType, width: UInt64, height: UInt64) throws(MediaError) -> ImageInfo {
        guard width > 0, height > 0 else {
            throw .malformed(type, "its header says the image is 0 pixels wide or high")
        }
        guard width <= UInt64(maxSidePixels), height <= UInt64(maxSidePixels),
            width * height <= UInt64(maxAreaPixels),  // both ≤ 65,535: the product fits easily
            let widthPixels = Int(exactly: width), let heightPixels = Int(exactly: height)
        else {
            throw .unsupported(
                type, "it is \(width)×\(height) pixels; photos may be up to 65,535 pixels a side and 200 megapixels")
        }
        return ImageInfo(mediaType: type, width: widthPixels, height: heightPixels)
    }
}
