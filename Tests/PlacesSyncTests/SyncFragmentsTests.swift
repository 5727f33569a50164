import Testing

@testable import PlacesSync

@Suite("Fragments and reassembly")
struct SyncFragmentsTests {
    @Test(
        "Messages split into fragments of at most 65,518 bytes and reassemble",
        arguments: [0, 1, 65_518, 65_519, 200_000])
    func splitAndReassemble(size: Int) throws {
        let message = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let fragments = SyncFragments.split(message)
        #expect(fragments.allSatisfy { $0.count <= 65_519 })
        #expect(fragments.dropLast().allSatisfy { $0.first == 0x01 })
        #expect(fragments.last?.first == 0x00)
        var assembler = SyncMessageAssembler(maxMessageBytes: 4 << 20)
        var result: [[UInt8]] = []
        for fragment in fragments {
            if let whole = try assembler.append(fragment) { result.append(whole) }
        }
        #expect(result == [message])
    }

    @Test("A message over the limit is refused while it arrives")
    func overLimit() throws {
        var assembler = SyncMessageAssembler(maxMessageBytes: 100_000)
        let fragments = SyncFragments.split([UInt8](repeating: 1, count: 100_001))
        #expect(try assembler.append(fragments[0]) == nil)
        #expect(throws: SyncError.self) { try assembler.append(fragments[1]) }
    }

    @Test("An empty fragment or an unknown flag is a protocol violation")
    func badFlags() {
        var assembler = SyncMessageAssembler(maxMessageBytes: 100)
        #expect { try assembler.append([]) } throws: { ($0 as? SyncError)?.code == .protocolViolation }
        #expect { try assembler.append([0x02, 1]) } throws: { ($0 as? SyncError)?.code == .protocolViolation }
    }
}
