/// The image formats a photo upload may be, named by their IANA media type.
///
/// The type always comes from the bytes (magic numbers), never from a file name or a
/// client's `Content-Type`: both are easy to get wrong and easy to lie about.
public enum MediaType: String, Sendable, Equatable, CaseIterable {
    /// JPEG (JFIF or EXIF), starting FF D8 FF.
    case jpeg = "image/jpeg"
    /// PNG, starting with its 8-byte signature.
    case png = "image/png"
    /// WebP: a RIFF file of form type "WEBP".
    case webp = "image/webp"
    /// HEIC: an ISO-BMFF file whose `ftyp` box names a HEIC brand.
    case heic = "image/heic"

    /// The name a user knows the format by, for messages.
    var displayName: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .webp: "WebP"
        case .heic: "HEIC"
        }
    }

    /// The PNG file signature: a high-bit byte, "PNG", CR LF, EOF, LF (it catches text-mode mangling).
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// `ftyp` brands that mean a HEIF file holding HEVC-coded images (HEIC).
    static let heicBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis"]

    /// Brands of the general HEIF structure; they make a HEIC file only with a HEIC brand
    /// among the compatible brands (an AVIF file is `mif1` + `avif`).
    static let heifStructuralBrands: Set<String> = ["mif1", "msf1"]

    /// The type the leading bytes announce, or nil when they announce none of ours.
    static func sniff(_ bytes: [UInt8]) -> MediaType? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: pngSignature) { return .png }
        if bytes.hasASCII("RIFF", at: 0), bytes.hasASCII("WEBP", at: 8) { return .webp }
        if isHEIC(bytes) { return .heic }
        return nil
    }

    /// Reads the leading `ftyp` box: its major brand, then its compatible brands.
    private static func isHEIC(_ bytes: [UInt8]) -> Bool {
        guard bytes.hasASCII("ftyp", at: 4), let size32 = bytes.uint32(at: 0, bigEndian: true),
            let major = bytes.fourCC(at: 8)
        else { return false }
        if heicBrands.contains(major) { return true }
        guard heifStructuralBrands.contains(major) else { return false }
        // Compatible brands run from byte 16 to the end of the box; a hostile size is capped
        // by the buffer, and the brand count by the box size.
        let boxEnd = min(Int(exactly: size32) ?? 0, bytes.count)
        var offset = 16
        while offset + 4 <= boxEnd {
            if let brand = bytes.fourCC(at: offset), heicBrands.contains(brand) { return true }
            offset += 4
        }
        return false
    }
}
