/// A box of the ISO base media file format (ISO/IEC 14496-12), the container of HEIC:
/// a 32-bit size (1: a 64-bit size follows; 0: to the end of the file), a type, a payload.
struct BMFFBox {
    var type: String
    /// The payload, after the size, type and any 64-bit size.
    var payload: Range<Int>

    /// Boxes read in one list at most: HEIC files hold a few dozen; a hostile file of
    /// millions of 8-byte boxes is refused rather than walked.
    static let maxBoxesPerList = 4_096

    /// The boxes that fill `range` of `bytes`, in order.
    /// - Parameter topLevel: only a top-level box may have size 0 ("to the end of the file").
    static func children(of range: Range<Int>, in bytes: [UInt8], topLevel: Bool = false) throws(MediaError)
        -> [BMFFBox]
    {
        var boxes: [BMFFBox] = []
        var position = range.lowerBound
        while position < range.upperBound {
            guard boxes.count < maxBoxesPerList else { throw .unsupported(.heic, "it holds too many boxes") }
            var cursor = ByteCursor(bytes, position..<range.upperBound, shortage: .truncated(.heic, "boxes"))
            let size32 = try cursor.uint32()
            let type = try cursor.fourCC()
            let size: Int
            switch size32 {
            case 0:
                // Allowed for the last top-level box only; anywhere else a length of 0 would
                // leave the rest of the parent unaccounted for.
                guard topLevel else { throw .malformed(.heic, "a box inside it has a length of 0") }
                size = range.upperBound - position
            case 1:
                guard let large = Int(exactly: try cursor.uint64()) else { throw .truncated(.heic, "boxes") }
                size = large
            default:
                guard let small = Int(exactly: size32) else { throw .truncated(.heic, "boxes") }
                size = small
            }
            let headerSize = cursor.offset - position
            guard size >= headerSize else { throw .malformed(.heic, "a box is shorter than its own header") }
            let (end, overflow) = position.addingReportingOverflow(size)
            guard !overflow, end <= range.upperBound, end <= bytes.count else { throw .truncated(.heic, "boxes") }
            boxes.append(BMFFBox(type: type, payload: cursor.offset..<end))
            position = end
        }
        return boxes
    }
}

extension [BMFFBox] {
    /// The first box of a type; HEIC allows at most one of each box this module reads.
    func first(_ type: String) -> BMFFBox? { first { $0.type == type } }
}
