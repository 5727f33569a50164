import Foundation
import PlacesTestSupport

/// The faults of a run: every 0.2–1.2 s one daemon is frozen for 0.1–2 s (SIGSTOP, then
/// SIGCONT), killed (SIGKILL) and restarted after 0.1–1 s on the same data dir and port, or
/// frozen and then killed while frozen.
final class FaultChaos: @unchecked Sendable {
    private let nodes: [PeerNode]
    private let ledger: FaultLedger
    private var random: SeededRandom

    init(nodes: [PeerNode], ledger: FaultLedger, seed: UInt64) {
        self.nodes = nodes
        self.ledger = ledger
        random = SeededRandom(seed: seed ^ 0xC4A0_5C4A_05C4_A05C)
    }

    func run(until deadline: Date) {
        while Date() < deadline {
            usleep(UInt32.random(in: 200_000...1_200_000, using: &random))
            let node = nodes[Int.random(in: 0..<nodes.count, using: &random)]
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 55 {
                node.freeze()
                ledger.count("freezes")
                usleep(UInt32.random(in: 100_000...2_000_000, using: &random))
                node.thaw()
            } else {
                if roll >= 90 {
                    node.freeze()
                    ledger.count("freezes")
                    usleep(UInt32.random(in: 100_000...500_000, using: &random))
                }
                node.crash()
                ledger.count("kills")
                usleep(UInt32.random(in: 100_000...1_000_000, using: &random))
                try? Self.restart(node, ledger: ledger)
            }
        }
    }

    /// Starts a killed daemon again, retrying: on a loaded machine a start can exceed the
    /// harness's 15 s.
    static func restart(_ node: PeerNode, ledger: FaultLedger) throws {
        var lastError: Error?
        for _ in 0..<3 {
            do {
                try node.start()
                ledger.count("restarts")
                return
            } catch {
                lastError = error
                node.crash()
                ledger.count("restart.failures")
            }
        }
        throw lastError ?? HarnessError("\(node.name) did not restart")
    }
}
