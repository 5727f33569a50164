import Foundation
import Testing

@testable import PlacesModel

/// The declared schema checked against itself and against `Protocol/op-format.md` §5, so a
/// field declared in one place and not the other fails here.
@Suite struct SchemaTests {
    let schema = Schema.shipped

    /// Every kind is declared in one document, except the itinerary's items and places to go,
    /// which a published trip holds too (`op-format.md` §5) under the very same declaration,
    /// devices (every document), relays (itineraries, cards and outboxes: `relay.md` §5.1)
    /// and messages (outboxes and itineraries: `sync.md` §7.3, §8.1).
    @Test func everyKindIsDeclaredOnceInOneDocument() {
        let shared = Set(EntityKind.tripItems + [.stop])
        let kinds = schema.documents.flatMap { $0.entities.map(\.kind) }.filter {
            !shared.contains($0) && $0 != .device && $0 != .relay && $0 != .message
        }
        #expect(
            schema.documents.filter { $0.entities.contains { $0.kind == .message } }.map(\.name)
                == ["itinerary", "outbox"])
        #expect(kinds.count == Set(kinds).count)
        // A person's devices may be named in every document (`devices.md` §4).
        #expect(schema.documents.allSatisfy { $0.entities.contains { $0.kind == .device } })
        for document in schema.documents {
            for entity in document.entities where shared.contains(entity.kind) {
                #expect(["itinerary", "published"].contains(document.name))
                #expect(entity.fields.map(\.name) == schema.entity(entity.kind)?.fields.map(\.name))
            }
        }
        let all = Set(schema.documents.flatMap { $0.entities.map(\.kind) })
        #expect(all == Set(EntityKind.allCases))
        for kind in EntityKind.allCases {
            #expect(EntityKind(rawValue: kind.rawValue) == kind)
            #expect(schema.entity(kind)?.kind == kind)
        }
        #expect(EntityKind(rawValue: "hotel") == nil)
    }

    @Test func fieldsAreConsistentAcrossKinds() {
        var columns = [String: String?]()
        for entity in schema.entities {
            let names = entity.fields.map(\.name)
            #expect(names.count == Set(names).count, "\(entity.kind) declares a field twice")
            #expect(entity.field("deleted")?.merge == .tombstone, "\(entity.kind) lacks the tombstone")
            for field in entity.fields {
                // The store promotes by field name: a name has one column in every kind.
                if let seen = columns[field.name] {
                    #expect(seen == field.column, "'\(field.name)' is promoted differently in \(entity.kind)")
                }
                columns[field.name] = field.column
                #expect((field.merge == .position) == (field.rule == .position), "\(entity.kind).\(field.name)")
                #expect((field.merge == .tombstone) == (field.name == "deleted"), "\(entity.kind).\(field.name)")
            }
        }
        // Existing databases have exactly these columns filled: the schema must not move them.
        // A reaction's `post` is promoted to `ref` too (issue 16): no row of an older database
        // is a reaction, so none has to move. Nor a receipt's `message` (issue 32).
        #expect(
            schema.promotedColumns == [
                "deleted": "deleted", "position": "position", "placeId": "ref", "name": "name",
                "latitude": "latitude", "longitude": "longitude", "post": "ref", "message": "ref",
            ])
    }

    // MARK: Protocol/op-format.md §5

    static func section5() throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Protocol/op-format.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let start = try #require(text.range(of: "## 5. "))
        let end = try #require(text.range(of: "## 6. "))
        return String(text[start.upperBound..<end.lowerBound])
    }

    /// The backquoted words of `text`.
    static func quoted(_ text: some StringProtocol) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
            .map { String($0.element) }
    }

    /// Table rows (`| a | b |`) after the header line that starts with `header`.
    static func rows(_ text: String, header: String) -> [[String]] {
        let lines = text.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(header) }) else { return [] }
        return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map {
            $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    @Test func documentKindsMatchTheProtocol() throws {
        let text = try Self.section5()
        var documented = [String: Set<EntityKind>]()
        for row in Self.rows(text, header: "| Document kind |") {
            let document = try #require(Self.quoted(row[0]).first)
            documented[document] = Set(Self.quoted(row[1]).compactMap { EntityKind(rawValue: $0) })
        }
        #expect(documented == schema.kindsByDocument)
    }

    @Test func idShapesMatchTheProtocol() throws {
        var seen = Set<EntityKind>()
        for row in Self.rows(try Self.section5(), header: "| Kind | Entity id |") {
            let fixed = row[1].components(separatedBy: "always `").dropFirst().first?.prefix(32)
            let shape: EntitySchema.IDShape =
                row[1].contains("root")
                ? .root
                : row[1].contains("64 lowercase hex")
                    ? .publicKey
                    : row[1].contains("48 lowercase hex") ? .message : fixed.map { .fixed(String($0)) } ?? .random
            for name in Self.quoted(row[0]) {
                let kind = try #require(EntityKind(rawValue: name))
                #expect(schema.entity(kind)?.id == shape, "\(name)")
                seen.insert(kind)
            }
        }
        #expect(seen == Set(EntityKind.allCases))
    }

    /// Each kind's table (after `**kind**`) names exactly its declared fields in its first
    /// column, and every kind has one. Kinds that share registers share a heading
    /// (`**lodging**, **transport**, …`): their common table, then a `| Kind | Field |` table
    /// of each one's own fields.
    @Test func fieldsMatchTheProtocol() throws {
        let text = try Self.section5()
        #expect(text.contains("Every kind may also carry `deleted`"))
        var seen = Set<EntityKind>()
        for part in text.components(separatedBy: "\n**").dropFirst() {
            let heading = "**" + (part.split(separator: "\n").first ?? "")
            let kinds = heading.components(separatedBy: "**").enumerated().filter { $0.offset % 2 == 1 }
                .compactMap { EntityKind(rawValue: $0.element) }
            let body = String(part.drop { $0 != "\n" })
            let common = Set(Self.rows(body, header: "| Field |").flatMap { Self.quoted($0[0]) })
            for kind in kinds {
                let entity = try #require(schema.entity(kind))
                seen.insert(kind)
                let own = Self.rows(body, header: "| Kind | Field |").filter {
                    Self.quoted($0[0]).contains(kind.rawValue)
                }
                .flatMap { Self.quoted($0[1]) }
                let documented = common.union(own)
                let declared = Set(entity.fields.map(\.name)).subtracting(["deleted"])
                #expect(documented == declared, "\(kind): op-format.md names \(documented.sorted())")
            }
        }
        #expect(seen == Set(EntityKind.allCases))
    }
}
