/// HEIC: a HEIF file (ISO-BMFF boxes) whose `meta` box describes items, images and
/// metadata, whose bytes mostly lie in `mdat`.
///
/// The size is the `ispe` (image spatial extent) property associated with the primary item
/// (`pitm`) through `ipma`; when that association is missing, the largest `ispe` in the
/// file stands in (for a grid image, the full canvas rather than a tile).
enum HEICFile {
    static let xmpContentType = "application/rdf+xml"

    /// The children of the top-level `meta` box.
    static func metaBoxes(_ bytes: [UInt8]) throws(MediaError) -> [BMFFBox] {
        let top = try BMFFBox.children(of: 0..<bytes.count, in: bytes, topLevel: true)
        guard let meta = top.first("meta") else { throw .malformed(.heic, "it has no meta box") }
        return try BMFFBox.children(of: try fullBoxBody(meta, in: bytes), in: bytes)
    }

    /// A full box's payload after its version and flags.
    static func fullBoxBody(_ box: BMFFBox, in bytes: [UInt8]) throws(MediaError) -> Range<Int> {
        guard box.payload.count >= 4 else { throw .malformed(.heic, "its \(box.type) box is too short") }
        return box.payload.lowerBound + 4..<box.payload.upperBound
    }

    /// Reads the width and height of the primary image from its `ispe` property.
    static func dimensions(_ bytes: [UInt8]) throws(MediaError) -> (width: UInt64, height: UInt64) {
        let meta = try metaBoxes(bytes)
        guard let iprp = meta.first("iprp") else { throw .malformed(.heic, "it has no item properties") }
        let iprpBoxes = try BMFFBox.children(of: iprp.payload, in: bytes)
        guard let ipco = iprpBoxes.first("ipco") else { throw .malformed(.heic, "it has no item properties") }
        let properties = try BMFFBox.children(of: ipco.payload, in: bytes)
        // Property indexes in `ipma` count from 1.
        var sizes: [(index: Int, width: UInt64, height: UInt64)] = []
        for (offset, property) in properties.enumerated() where property.type == "ispe" {
            var cursor = ByteCursor(
                bytes, try fullBoxBody(property, in: bytes), shortage: .malformed(.heic, "its image size is too short"))
            sizes.append((offset + 1, UInt64(try cursor.uint32()), UInt64(try cursor.uint32())))
        }
        guard let largest = sizes.max(by: { $0.width * $0.height < $1.width * $1.height }) else {
            throw .malformed(.heic, "it has no image size property")
        }
        if let primary = try primaryItem(meta, in: bytes) {
            let associated = try propertyIndexes(of: primary, in: iprpBoxes, bytes: bytes)
            if let size = sizes.first(where: { associated.contains($0.index) }) { return (size.width, size.height) }
        }
        return (largest.width, largest.height)
    }

    /// The item id `pitm` names, or nil when the file has no `pitm`.
    static func primaryItem(_ meta: [BMFFBox], in bytes: [UInt8]) throws(MediaError) -> UInt32? {
        guard let pitm = meta.first("pitm") else { return nil }
        var cursor = ByteCursor(bytes, pitm.payload, shortage: .malformed(.heic, "its primary item box is too short"))
        let version = try cursor.uint8()
        try cursor.skip(3)
        return version == 0 ? UInt32(try cursor.uint16()) : try cursor.uint32()
    }

    /// The 1-based `ipco` indexes of the properties `ipma` associates with `item`.
    static func propertyIndexes(of item: UInt32, in iprp: [BMFFBox], bytes: [UInt8]) throws(MediaError) -> [Int] {
        var indexes: [Int] = []
        for ipma in iprp where ipma.type == "ipma" {
            var cursor = ByteCursor(bytes, ipma.payload, shortage: .truncated(.heic, "item properties"))
            let version = try cursor.uint8()
            try cursor.skip(2)
            let wideIndexes = try cursor.uint8() & 1 == 1
            let entryCount = try cursor.uint32()
            // Every entry takes at least 3 bytes: a hostile count can't spin the loop.
            guard entryCount <= cursor.remaining / 3 else { throw .truncated(.heic, "item properties") }
            for _ in 0..<entryCount {
                let entryItem = version < 1 ? UInt32(try cursor.uint16()) : try cursor.uint32()
                let associationCount = try cursor.uint8()
                for _ in 0..<associationCount {
                    // The top bit marks an essential property; the rest is the index.
                    let index = wideIndexes ? Int(try cursor.uint16() & 0x7FFF) : Int(try cursor.uint8() & 0x7F)
                    if entryItem == item { indexes.append(index) }
                }
            }
        }
        return indexes
    }
}
