import Foundation
import PlacesAPI
import PlacesTestSupport
import Testing

/// The opening summary between real daemons (`Protocol/sync.md` §7, "The opening summary"):
/// after a reconnect, the trips that did not change are agreed on by one summary each way and
/// stay in sync; the trips edited while apart are offered and arrive; and an edit made after the
/// reconnect to a trip agreed on by the summary reaches the other side as a live push.
@Suite("Opening summary between real daemons")
struct OpeningSummarySyncTests {
    static func peerDocuments(_ node: SyncNode, of other: SyncNode) throws -> [PeerDocument] {
        let peers = try node.d.call(PeerList.self, "GET", "/v1/peers").peers
        guard let peer = peers.first(where: { $0.id == other.id }), peer.connected else { return [] }
        return peer.documents
    }

    /// How many of the documents `node` shares with `other` it lists `in-sync` (0 while not connected).
    static func inSync(_ node: SyncNode, with other: SyncNode) throws -> Int {
        try peerDocuments(node, of: other).filter { $0.state == "in-sync" }.count
    }

    /// How many documents each comparison of opening summaries in `node`'s log offered.
    static func comparisons(_ node: SyncNode) -> [Int] {
        node.d.log.split(separator: "\n").filter { $0.contains("compared opening summaries") }.compactMap { line in
            guard let range = line.range(of: "docs.offered=") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    static func name(_ node: SyncNode, _ trip: String) throws -> String? {
        try? node.d.call(Itinerary.self, "GET", "/v1/itineraries/\(trip)").name
    }

    @Test(
        "after a reconnect, unchanged trips are agreed by summary and stay in sync; trips edited apart arrive; live edits to agreed trips still reach the other"
    )
    func reconnectBySummary() async throws {
        let ana = try SyncNode("Ana"), bruno = try SyncNode("Bruno")
        try ana.trust(bruno)
        try bruno.trust(ana)
        try ana.addPeer(bruno)
        try bruno.addPeer(ana)
        var trips = [String]()
        for i in 0..<40 {
            let trip = try ana.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Trip \#(i)"}"#).id
            let shared = try ana.d.send(
                "POST", "/v1/itineraries/\(trip)/share", json: #"{"member":"\#(bruno.id)","role":"editor"}"#)
            #expect(shared.status == 200, "\(shared.text)")
            trips.append(trip)
        }
        try await eventually("both list the 40 trips in sync", timeout: .seconds(60)) {
            try Self.inSync(bruno, with: ana) == 40 && Self.inSync(ana, with: bruno) == 40
        }

        // Bruno goes away; Ana renames one trip meanwhile.
        bruno.stop()
        let renamed = try ana.d.send("PATCH", "/v1/itineraries/\(trips[7])", json: #"{"name":"Trip 7, renamed"}"#)
        #expect(renamed.status == 200, "\(renamed.text)")
        let before = Self.comparisons(ana).count
        try bruno.start()
        try await eventually("Bruno gets the rename made while he was away", timeout: .seconds(30)) {
            try Self.name(bruno, trips[7]) == "Trip 7, renamed"
        }
        // Every trip counts as in sync on both sides again: those the summary agreed on, and the
        // renamed one once its op was sent.
        try await eventually("both list the 40 trips in sync after the reconnect", timeout: .seconds(30)) {
            try Self.inSync(bruno, with: ana) == 40 && Self.inSync(ana, with: bruno) == 40
        }
        // The reconnect went through a summary, which offered no more than the renamed trip's
        // bucket: at most a handful of the 40 trips.
        let offered = Self.comparisons(ana).dropFirst(before)
        #expect(!offered.isEmpty, "Ana compared summaries with Bruno after he came back")
        #expect(offered.allSatisfy { $0 <= 5 } && offered.contains { $0 >= 1 }, "\(offered)")

        // Edits after the reconnect to trips agreed by the summary travel both ways at once.
        for (node, other, trip, name) in [
            (ana, bruno, trips[31], "Trip 31 by Ana"), (bruno, ana, trips[5], "Trip 5 by Bruno"),
        ] {
            let edit = try node.d.send("PATCH", "/v1/itineraries/\(trip)", json: #"{"name":"\#(name)"}"#)
            #expect(edit.status == 200, "\(edit.text)")
            try await eventually("\(other.name) sees \(name)", timeout: .seconds(15)) {
                try Self.name(other, trip) == name
            }
        }
    }
}
