import Foundation
import PlacesTestSupport
import Testing

/// What "converged" and "nothing lost" mean for the fault run, on one shared itinerary.
final class ReplicaCheck: @unchecked Sendable {
    let nodes: [PeerNode]
    let doc: String
    /// Why the last `converged()` said no, for the failure message.
    private(set) var lastDifference = ""

    init(nodes: [PeerNode], doc: String) {
        self.nodes = nodes
        self.doc = doc
    }

    /// What differs between replicas by design, and only that: the itinerary's `role` is the
    /// caller's own; people's names come from each daemon's own directory (its profile, the
    /// peers it met, its contacts, else the id's first group), so a member's `name`, an
    /// activity line's `authorName` and its `summary` (a sentence with those names) are
    /// local. The member ids, roles, `via`, and every activity field are compared.
    static func shared(itinerary: [String: Any]) -> [String: Any] {
        var out = itinerary
        out["role"] = nil
        return out
    }

    static func shared(members: [String: Any]) -> [String: Any] {
        var out = members
        out["members"] = (members["members"] as? [[String: Any]])?.map { m -> [String: Any] in
            var m = m
            m["name"] = nil
            return m
        }
        return out
    }

    static func shared(activity: [String: Any]) -> [String: Any] {
        var out = activity
        out["activity"] = (activity["activity"] as? [[String: Any]])?.map { line -> [String: Any] in
            var line = line
            line["authorName"] = nil
            line["summary"] = nil
            return line
        }
        return out
    }

    static let opsSQL = "SELECT lower(hex(id)) FROM op WHERE lower(hex(doc)) = ? ORDER BY id"
    static let activitySQL = """
        SELECT lower(hex(op)), idx, time_ms, lamport, author, action, entity, kind, field, old, new
        FROM activity WHERE lower(hex(doc)) = ? ORDER BY op, idx
        """
    static let entitySQL = """
        SELECT id, kind, data, position, deleted, stamps FROM entity WHERE lower(hex(doc)) = ? ORDER BY id
        """

    /// One replica's answers, canonical.
    struct Views {
        var itinerary: [String: Any]
        var text: [String]
    }

    func views(of node: PeerNode) throws -> Views {
        let base = "/v1/itineraries/\(doc)"
        let itinerary = Self.shared(itinerary: try node.json("GET", base))
        let members = Self.shared(members: try node.json("GET", base + "/members"))
        let activity = Self.shared(activity: try node.json("GET", base + "/activity"))
        return Views(
            itinerary: itinerary,
            text: [JSONCanon.text(itinerary), JSONCanon.text(members), JSONCanon.text(activity)])
    }

    /// Whether every replica holds the same ops of the document and answers the same
    /// itinerary, members and activity.
    func converged() throws -> Bool {
        var ops: [[[String]]] = []
        var answers: [[String]] = []
        for node in nodes {
            ops.append(try DatabaseProbe(path: node.dir.path + "/places.sqlite").rows(Self.opsSQL, arguments: [doc]))
            answers.append(try views(of: node).text)
        }
        for i in 1..<nodes.count {
            if ops[i] != ops[0] {
                lastDifference = "\(nodes[i].name) holds \(ops[i].count) ops, \(nodes[0].name) \(ops[0].count)"
                return false
            }
            for (j, what) in ["itinerary", "members", "activity"].enumerated() where answers[i][j] != answers[0][j] {
                lastDifference =
                    "\(what) differs:\n\(nodes[0].name): \(answers[0][j])\n\(nodes[i].name): \(answers[i][j])"
                return false
            }
        }
        return true
    }

    /// After a clean shutdown: the same ops, activity rows and materialized entities in
    /// every database.
    func compareTables(_ databases: [DatabaseProbe], seed: UInt64) throws {
        for (what, sql) in [("ops", Self.opsSQL), ("activity rows", Self.activitySQL), ("entities", Self.entitySQL)] {
            let first = try databases[0].rows(sql, arguments: [doc])
            #expect(!first.isEmpty)
            for (node, db) in zip(nodes, databases).dropFirst() {
                let rows = try db.rows(sql, arguments: [doc])
                let extra = Set(rows.map { $0.joined(separator: "|") })
                    .symmetricDifference(first.map { $0.joined(separator: "|") })
                #expect(
                    rows == first,
                    "seed \(seed): \(node.name)'s \(what) differ from \(nodes[0].name)'s: \(extra.prefix(5))")
            }
        }
    }

    /// The acknowledged edits whose effect this database does not hold: an added, moved or
    /// removed stop without its activity line; an added stop missing from the final
    /// itinerary though nobody removed it; a removed stop still there though nobody restored
    /// it; a field write without its activity line; a field whose final value is not the
    /// write that the last-writer-wins order (Lamport, author, index) makes the winner.
    func lostEdits(_ edits: [AckedEdit], in db: DatabaseProbe, finalItinerary: [String: Any]) throws -> [String] {
        let rows = try db.rows(Self.activitySQL, arguments: [doc])
        // Columns: 0 op, 1 idx, 2 time, 3 lamport, 4 author, 5 action, 6 entity, 7 kind, 8 field, 9 old, 10 new.
        var lines = Set<String>()
        var writes: [String: [(stamp: (Int, String, Int), value: String)]] = [:]
        for r in rows {
            lines.insert("\(r[5])|\(r[7])|\(r[6])")
            if r[7] == "itinerary", r[5] == "edited" {
                lines.insert("set|\(r[8])|\(r[10])")
                writes[r[8], default: []].append(((Int(r[3]) ?? 0, r[4], Int(r[1]) ?? 0), r[10]))
            }
        }
        let present = Set((finalItinerary["places"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
        var lost: [String] = []
        for edit in edits {
            switch edit.kind {
            case .addedStop(let s):
                if !lines.contains("created|stop|\(s)") {
                    lost.append("\(edit): no creation in the activity")
                } else if !lines.contains("deleted|stop|\(s)") && !present.contains(s) {
                    lost.append("\(edit): never removed, yet not in the itinerary")
                }
            case .movedStop(let s):
                if !lines.contains("moved|stop|\(s)") { lost.append("\(edit): no move in the activity") }
            case .removedStop(let s):
                if !lines.contains("deleted|stop|\(s)") {
                    lost.append("\(edit): no removal in the activity")
                } else if present.contains(s) && !lines.contains("restored|stop|\(s)") {
                    lost.append("\(edit): removed, never restored, yet in the itinerary")
                }
            case .setField(let field, let value):
                if !lines.contains("set|\(field)|\(JSONCanon.text(value))") {
                    lost.append("\(edit): no write in the activity")
                }
            }
        }
        for (field, candidates) in writes {
            guard let winner = candidates.max(by: { $0.stamp < $1.stamp }) else { continue }
            let shown: Any? =
                field.hasPrefix("lodging.")
                ? (finalItinerary["lodging"] as? [String: Any])?[String(field.dropFirst("lodging.".count))]
                : finalItinerary[field]
            if JSONCanon.text(shown ?? NSNull()) != winner.value {
                lost.append(
                    "\(field): shows \(shown ?? "nothing"), the last write by (Lamport, author, index) is \(winner.value)"
                )
            }
        }
        return lost
    }
}
