import Foundation
import PlacesTestSupport

/// One daemon's user during a fault run: random edits of the shared itinerary (add, move and
/// remove places to go, set fields to values unique to the edit), as fast as the daemon
/// answers, recording every edit the API acknowledged. Refusals and failures (the daemon
/// killed or restarting, a stop removed meanwhile) are expected and not recorded.
final class FaultEditor: @unchecked Sendable {
    private let node: PeerNode
    private let doc: String
    private let ledger: FaultLedger
    private var random: SeededRandom
    private var stops: [String] = []
    private var serial = 0

    /// Fields written by `PATCH`, as the request names them.
    static let fields = ["name", "notes", "transportation", "lodging.name"]

    init(node: PeerNode, doc: String, ledger: FaultLedger, seed: UInt64) {
        self.node = node
        self.doc = doc
        self.ledger = ledger
        random = SeededRandom(seed: seed)
    }

    func run(until deadline: Date) {
        while Date() < deadline {
            serial += 1
            let roll = Int.random(in: 0..<100, using: &random)
            let ok: Bool
            if stops.isEmpty || (roll < 30 && stops.count < 40) {
                ok = addStop()
            } else if roll < 50 {
                ok = moveStop()
            } else if roll < 65 || stops.count >= 40 {
                ok = removeStop()
            } else {
                ok = setField()
            }
            ledger.count(ok ? "edits.acked" : "edits.failed")
            usleep(UInt32.random(in: 10_000...120_000, using: &random))
        }
    }

    private var base: String { "/v1/itineraries/\(doc)" }

    /// Sends; on a 2xx itinerary answer, remembers its stops. `nil` when not acknowledged.
    private func edit(_ method: String, _ path: String, _ body: String) -> [String: Any]? {
        guard let r = try? node.send(method, path, body), r.ok,
            let object = JSONCanon.parse(r.body) as? [String: Any]
        else { return nil }
        if let places = object["places"] as? [[String: Any]] { stops = places.compactMap { $0["id"] as? String } }
        return object
    }

    private func addStop() -> Bool {
        let lat = Double.random(in: 38...42, using: &random), lon = Double.random(in: -9.0 ... -7.0, using: &random)
        let name = "\(node.name)-\(serial)"
        guard
            let place = try? node.send(
                "POST", "/v1/places", #"{"name":"\#(name)","latitude":\#(lat),"longitude":\#(lon)}"#), place.ok,
            let placeID = (JSONCanon.parse(place.body) as? [String: Any])?["id"] as? String
        else { return false }
        let position =
            Bool.random(using: &random) ? #","position":\#(Int.random(in: 1...(stops.count + 1), using: &random))"# : ""
        guard let answer = edit("POST", base + "/places", #"{"placeId":"\#(placeID)"\#(position)}"#),
            let stop = (answer["places"] as? [[String: Any]])?.first(where: { $0["placeId"] as? String == placeID }),
            let stopID = stop["id"] as? String
        else { return false }
        ledger.acked(AckedEdit(node: node.name, kind: .addedStop(stopID)))
        return true
    }

    private func moveStop() -> Bool {
        guard let stop = stops.randomElement(using: &random) else { return false }
        let position = Int.random(in: 1...stops.count, using: &random)
        guard edit("POST", base + "/places/\(stop)/move", #"{"position":\#(position)}"#) != nil else { return false }
        ledger.acked(AckedEdit(node: node.name, kind: .movedStop(stop)))
        return true
    }

    private func removeStop() -> Bool {
        guard let stop = stops.randomElement(using: &random) else { return false }
        guard edit("DELETE", base + "/places/\(stop)", "") != nil else { return false }
        ledger.acked(AckedEdit(node: node.name, kind: .removedStop(stop)))
        return true
    }

    private func setField() -> Bool {
        let field = Self.fields[Int.random(in: 0..<Self.fields.count, using: &random)]
        let value = "\(node.name) #\(serial) ✎"
        guard edit("PATCH", base, #"{"\#(field)":"\#(value)"}"#) != nil else { return false }
        ledger.acked(AckedEdit(node: node.name, kind: .setField(field, value)))
        return true
    }
}
