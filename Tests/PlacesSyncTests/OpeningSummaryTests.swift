import Foundation
import PlacesModel
import Testing

@testable import PlacesSync

/// `Protocol/vectors/sync/summary-vectors.json`, written by the independent Python reference
/// from `Protocol/sync.md` §7 ("The opening summary"): the Swift summary hashes the same
/// documents to the same 256 buckets, and compares bucket by bucket.
@Suite("Opening summary")
struct OpeningSummaryTests {
    struct File: Decodable { var vectors: [Vector] }
    struct Access: Decodable { var epoch: UInt32, issuedMs: Int64 }
    struct Doc: Decodable {
        var id: String
        var vector: [String: UInt64]
        var grantEpoch: UInt32
        var grantMembers: [String]
        var access: Access?
    }
    struct Vector: Decodable { var label: String, docs: [Doc], buckets: [String] }

    static let vectors: [Vector] = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Protocol/vectors/sync/summary-vectors.json")
        do { return try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).vectors } catch {
            fatalError("cannot read \(url.path): \(error)")
        }
    }()

    static func entry(_ doc: Doc) throws -> OpeningSummary.Entry {
        OpeningSummary.Entry(
            doc: try #require(HexCoding.decode(doc.id).flatMap(DocumentID.init(bytes:))),
            vector: VersionVector(doc.vector), grantEpoch: doc.grantEpoch,
            grantMembers: try doc.grantMembers.map { try #require(HexCoding.decode($0)) },
            access: doc.access.map { ($0.epoch, $0.issuedMs) })
    }

    @Test("bucket hashes equal the reference's, whatever order the documents come in")
    func referenceVectors() throws {
        #expect(Self.vectors.count == 4)
        for v in Self.vectors {
            let entries = try v.docs.map(Self.entry)
            for order in [entries, entries.reversed()] {
                #expect(OpeningSummary(order).hashes.map(HexCoding.encode) == v.buckets, "\(v.label)")
            }
        }
    }

    @Test("one more op in one trip makes only its bucket differ; grants and access lists count too")
    func onlyTheChangedBucketDiffers() throws {
        let base = try Self.vectors[2].docs.map(Self.entry)
        let summary = OpeningSummary(base)
        #expect(summary.compare(with: summary.hashes).differing.isEmpty)
        let trip = try #require(base.firstIndex { $0.doc.bytes[0] == 0x2A && $0.grantEpoch == 2 })
        var changes = [OpeningSummary.Entry]()
        var more = base[trip]
        more.vector.include(more.vector.seqs.keys.sorted()[0], 1_000)
        changes.append(more)
        var member = base[trip]
        member.grantMembers.removeLast()
        changes.append(member)
        var list = base[trip]
        list.access = (2, 1_764_460_800_124)
        changes.append(list)
        var epoch = base[trip]
        epoch.grantEpoch = 3
        changes.append(epoch)
        for change in changes {
            var entries = base
            entries[trip] = change
            let (agreeing, differing) = OpeningSummary(entries).compare(with: summary.hashes)
            #expect(differing == [0x2A])
            #expect(agreeing.count == 255)
        }
        // A document the other side does not cover at all also makes its bucket differ.
        let fewer = OpeningSummary(base.filter { $0.doc.bytes[0] != 0xF0 })
        #expect(fewer.compare(with: summary.hashes).differing == [0xF0])
    }

    @Test("a summary of another count or with a hash of another length agrees on nothing")
    func malformedAgreesOnNothing() throws {
        let summary = OpeningSummary(try Self.vectors[2].docs.map(Self.entry))
        let hashes = summary.hashes
        for theirs in [
            [], Array(hashes.dropLast()), hashes + [hashes[0]], [Array(hashes[0].dropLast())] + hashes.dropFirst(),
        ] {
            let (agreeing, differing) = summary.compare(with: theirs)
            #expect(agreeing.isEmpty && differing.count == 256)
        }
    }
}
