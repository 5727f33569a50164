/// Removes what a photo says about where it was taken and with which camera, before it
/// leaves the device: the EXIF GPS data, camera and lens serial numbers, the camera owner's
/// name, maker notes (vendor blobs that often repeat the serial and location), and XMP.
///
/// What each format keeps and drops:
/// - JPEG: each APP1 "Exif" segment is cleaned in place (see below); XMP APP1 segments,
///   C2PA/JUMBF APP11, Photoshop/IPTC APP13 (unless `keepLocation`) and the multi-picture
///   APP2 "MPF" index are dropped, and so is anything after the end-of-image marker (where
///   MPF and gain-map images, each with its own EXIF, are appended).
/// - PNG: `eXIf` is dropped, or cleaned and re-checksummed with `keepLocation`; the C2PA
///   `caBX` chunk and text chunks holding XMP (`XML:com.adobe.xmp`) or raw EXIF profiles
///   (`Raw profile type …`) are dropped, and so is anything after IEND.
/// - WebP: only the image chunks (VP8, VP8L, VP8X, ALPH, ANIM, ANMF, ICCP) stay, and `EXIF`,
///   cleaned, with `keepLocation`; the VP8X flags and the RIFF size follow.
/// - HEIC: the Exif item (found through `iinf` and `iloc`) is cleaned in place in `mdat`; an
///   XMP item is overwritten with an empty XMP packet. A file whose Exif or XMP item can't be
///   located (an `iloc` construction this reader doesn't follow) is refused as `.unsupported`.
///
/// Cleaning EXIF in place removes the IFD entries of the GPS IFD pointer (0x8825, unless
/// `keepLocation`), BodySerialNumber (0xA431), LensSerialNumber (0xA435), CameraSerialNumber
/// (0xC62F), CameraOwnerName (0xA430) and MakerNote (0x927C) from IFD0, IFD1 and the Exif
/// IFD, and overwrites their values, and the whole GPS IFD, with zeros. The other tags
/// (orientation, date, exposure) stay. XMP is dropped even with `keepLocation` because it
/// can carry serial numbers too (`aux:SerialNumber`) and is not parsed here; the location
/// then survives in the EXIF GPS IFD. EXIF that can't be parsed is dropped whole (zeroed in
/// HEIC), since what it holds can't be known.
///
/// Stripping is idempotent, keeps the pixels byte for byte, and its output inspects to the
/// same `ImageInfo` as its input.
public enum MetadataStripper {
    /// The photo in `bytes` without its identifying metadata.
    /// - Parameter keepLocation: keep the EXIF GPS IFD (the user chose to share where the
    ///   photo was taken); serial numbers and maker notes are removed either way.
    /// - Throws: `MediaError` when `bytes` is not an image `ImageInfo.inspect(_:)` accepts,
    ///   when the file ends inside a segment or chunk, or (HEIC) when its metadata can't be
    ///   located.
    public static func strip(_ bytes: [UInt8], keepLocation: Bool) throws(MediaError) -> [UInt8] {
        let info = try ImageInfo.inspect(bytes)
        let stripped: [UInt8]
        switch info.mediaType {
        case .jpeg: stripped = try JPEGFile.stripped(bytes, keepLocation: keepLocation)
        case .png: stripped = try PNGFile.stripped(bytes, keepLocation: keepLocation)
        case .webp: stripped = try WebPFile.stripped(bytes, keepLocation: keepLocation)
        case .heic: stripped = try HEICFile.stripped(bytes, keepLocation: keepLocation)
        }
        // The header must survive untouched; if a rewrite ever broke it, refuse rather than
        // hand on a photo the daemon would later fail to read.
        guard (try? ImageInfo.inspect(stripped)) == info else {
            throw .malformed(info.mediaType, "its header could not be kept while removing its metadata")
        }
        return stripped
    }
}
