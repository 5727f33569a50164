/// An EXIF TIFF block laid out the way cameras write it: header, IFD0, the Exif IFD, the
/// GPS IFD, then IFD1 (the thumbnail's), each table followed by its out-of-line values.
struct ExifFixture {
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: Int
        /// The value in the block's byte order; placed inline when it fits in 4 bytes.
        var value: [UInt8]
    }

    var bigEndian = false
    var ifd0: [Entry] = []
    var exif: [Entry] = []
    var gps: [Entry] = []
    var ifd1: [Entry] = []

    // Values a test looks for in the output, chosen so they occur nowhere else.
    static func latitude(bigEndian: Bool = false) -> [UInt8] {
        rationals([(47, 1), (22, 1), (512_345, 10_000)], bigEndian: bigEndian)
    }
    static func longitude(bigEndian: Bool = false) -> [UInt8] {
        rationals([(8, 1), (32, 1), (987_651, 10_000)], bigEndian: bigEndian)
    }
    static let bodySerial = "SN-8837261-XQ"
    static let lensSerial = "LENS-55501234"
    static let cameraSerial = "CAMSER-7071"
    static let makerNote = [UInt8](ascii: "MAKERNOTE-SECRET-PAYLOAD-0123")
    static let make = "PlacesCam"

    /// The 24 bytes of three unsigned rationals.
    static func rationals(_ values: [(Int, Int)], bigEndian: Bool) -> [UInt8] {
        values.flatMap { (bigEndian ? be32($0.0) : le32($0.0)) + (bigEndian ? be32($0.1) : le32($0.1)) }
    }

    /// A camera photo's EXIF: orientation and make, a date, serial numbers, a maker note, a
    /// GPS position, and a thumbnail IFD carrying a serial too.
    static func camera(bigEndian: Bool = false) -> ExifFixture {
        var fixture = ExifFixture(bigEndian: bigEndian)
        fixture.ifd0 = [fixture.short(0x0112, 6), fixture.ascii(0x010F, make)]
        fixture.exif = [
            fixture.ascii(0x9003, "2024:06:01 12:34:56"),
            Entry(tag: 0x927C, type: 7, count: makerNote.count, value: makerNote),
            fixture.ascii(0xA431, bodySerial),
            fixture.ascii(0xA435, lensSerial),
        ]
        fixture.gps = [
            Entry(tag: 0x0000, type: 1, count: 4, value: [2, 3, 0, 0]),
            fixture.ascii(0x0001, "N"),
            Entry(tag: 0x0002, type: 5, count: 3, value: latitude(bigEndian: bigEndian)),
            fixture.ascii(0x0003, "E"),
            Entry(tag: 0x0004, type: 5, count: 3, value: longitude(bigEndian: bigEndian)),
        ]
        fixture.ifd1 = [fixture.short(0x0103, 6), fixture.ascii(0xC62F, cameraSerial)]
        return fixture
    }

    func short(_ tag: UInt16, _ value: Int) -> Entry {
        Entry(tag: tag, type: 3, count: 1, value: (bigEndian ? be16(value) : le16(value)) + [0, 0])
    }

    func ascii(_ tag: UInt16, _ text: String) -> Entry {
        let bytes = [UInt8](ascii: text) + [0]
        return Entry(tag: tag, type: 2, count: bytes.count, value: bytes)
    }

    func u32(_ value: Int) -> [UInt8] { bigEndian ? be32(value) : le32(value) }

    /// The TIFF block, starting with "II" or "MM".
    var tiff: [UInt8] {
        var main = ifd0
        let offset0 = 8
        if !exif.isEmpty { main.append(Entry(tag: 0x8769, type: 4, count: 1, value: [0, 0, 0, 0])) }
        if !gps.isEmpty { main.append(Entry(tag: 0x8825, type: 4, count: 1, value: [0, 0, 0, 0])) }
        let exifOffset = offset0 + Self.size(of: main)
        let gpsOffset = exifOffset + Self.size(of: exif)
        let ifd1Offset = gpsOffset + Self.size(of: gps)
        for index in main.indices where main[index].tag == 0x8769 { main[index].value = u32(exifOffset) }
        for index in main.indices where main[index].tag == 0x8825 { main[index].value = u32(gpsOffset) }
        main.sort { $0.tag < $1.tag }
        var bytes = [UInt8](ascii: bigEndian ? "MM" : "II") + (bigEndian ? be16(42) : le16(42)) + u32(offset0)
        bytes += encode(main, at: offset0, next: ifd1.isEmpty ? 0 : ifd1Offset)
        if !exif.isEmpty { bytes += encode(exif, at: exifOffset, next: 0) }
        if !gps.isEmpty { bytes += encode(gps, at: gpsOffset, next: 0) }
        if !ifd1.isEmpty { bytes += encode(ifd1, at: ifd1Offset, next: 0) }
        return bytes
    }

    static func size(of entries: [Entry]) -> Int {
        entries.isEmpty
            ? 0
            : 6 + 12 * entries.count
                + entries.map { $0.value.count > 4 ? ($0.value.count + 1) / 2 * 2 : 0 }.reduce(0, +)
    }

    func encode(_ entries: [Entry], at base: Int, next: Int) -> [UInt8] {
        var table = bigEndian ? be16(entries.count) : le16(entries.count)
        var values: [UInt8] = []
        let valuesStart = base + 6 + 12 * entries.count
        for entry in entries {
            table += (bigEndian ? be16(Int(entry.tag)) : le16(Int(entry.tag)))
            table += (bigEndian ? be16(Int(entry.type)) : le16(Int(entry.type))) + u32(entry.count)
            if entry.value.count <= 4 {
                table += entry.value + Array(repeating: 0, count: 4 - entry.value.count)
            } else {
                table += u32(valuesStart + values.count)
                values += entry.value
                if values.count % 2 == 1 { values.append(0) }
            }
        }
        return table + u32(next) + values
    }
}
