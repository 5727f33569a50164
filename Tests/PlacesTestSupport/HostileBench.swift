import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore

@testable import PlacesSync

extension DaemonProcess {
    /// The daemon's resident set in kilobytes (Linux `VmRSS`), nil when it is not running.
    var residentKilobytes: Int? {
        guard let pid = process?.processIdentifier,
            let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return line.split(separator: " ").compactMap { Int($0) }.first
    }

    /// Whether the process runs and answers `GET /v1/status` with 200.
    var isServing: Bool {
        guard process?.isRunning == true, let r = try? send("GET", "/v1/status") else { return false }
        return r.status == 200
    }
}

/// Figures for issue #11's benchmark: what a stranger's connection costs a daemon, and how
/// a daemon serves a good peer while one peer floods it with bogus offers. Call them
/// against a running daemon (`DaemonProcess`, loopback address).
enum HostileBench {
    /// Percentiles of a list of durations in milliseconds.
    struct Percentiles: Sendable, CustomStringConvertible {
        var count: Int
        var p50: Double
        var p99: Double
        var max: Double

        init(_ samples: [Double]) {
            let sorted = samples.sorted()
            count = sorted.count
            func at(_ q: Double) -> Double {
                sorted.isEmpty ? 0 : sorted[Swift.min(sorted.count - 1, Int(Double(sorted.count - 1) * q))]
            }
            p50 = at(0.5)
            p99 = at(0.99)
            max = sorted.last ?? 0
        }

        var description: String {
            String(format: "n=%d p50=%.2f ms p99=%.2f ms max=%.2f ms", count, p50, p99, max)
        }
    }

    /// Connects `count` times as a fresh stranger (handshake, `Hello`, close) and times each
    /// connection from the TCP connect to the daemon's `Hello`.
    static func strangerConnections(to address: String, count: Int = 200) throws -> Percentiles {
        var samples = [Double]()
        for _ in 0..<count {
            let stranger = try AdversarialPeer()
            let started = ContinuousClock.now
            let session = try stranger.connect(to: address)
            samples.append(milliseconds(ContinuousClock.now - started))
            session.close()
        }
        return Percentiles(samples)
    }

    /// What `offerFlood` measured.
    struct FloodReport: Sendable, CustomStringConvertible {
        /// Offers sent.
        var offers: Int
        /// From the first bogus offer until the daemon answered the flooder's last (honest)
        /// offer or closed the flooder's connection; nil when neither happened in time.
        var sheddingSeconds: Double?
        /// Whether the daemon closed the flooder's connection.
        var flooderDisconnected: Bool
        /// The good peer's live latency during the flood: a local edit through the control
        /// API until its op arrives at the good peer (a miss counts as the time waited).
        var goodPeerLive: Percentiles
        /// Live edits that did not reach the good peer within `liveTimeoutSeconds`.
        var liveMisses: Int
        /// `GET /v1/status` latency during the flood.
        var status: Percentiles
        /// The daemon's resident set before and after, in kilobytes.
        var rssBeforeKB: Int
        var rssAfterKB: Int

        var description: String {
            let shed = sheddingSeconds.map { String(format: "shed in %.2f s", $0) } ?? "not shed in time"
            return "\(offers) offers \(shed) (flooder disconnected: \(flooderDisconnected)); good peer live "
                + "\(goodPeerLive), \(liveMisses) missed; status \(status); RSS \(rssBeforeKB) → \(rssAfterKB) kB"
        }
    }

    /// Bogus offers: each names a fresh random document with the flooder as its owner, a
    /// version vector of `vectorEntries` entries (every other offer with 100-byte author
    /// fields and seq UInt64.max), a key grant to
    /// `victim` signed by the flooder and `extraGrants` garbage grants claiming to be the
    /// flooder's.
    static func bogusOffers(
        _ count: Int, from flooder: AdversarialPeer, to victim: PublicKey, vectorEntries: Int = 10, extraGrants: Int = 3
    ) throws -> [WireMessage] {
        let key = try SecretBox.randomKey()
        var out = [WireMessage]()
        out.reserveCapacity(count)
        // Half the offers carry a vector a daemon should refuse outright (100-byte authors,
        // seq past 2^32), half a well-formed one, so that their grants get looked at.
        let longVector = (0..<vectorEntries).map { _ in (SecureRandom.bytes(100), UInt64.max) }
        let vector = (0..<vectorEntries).map { _ in (SecureRandom.bytes(32), UInt64(1)) }
        // One sealed key serves every grant (it does not depend on the document); each grant
        // is still signed for its own document.
        let sealed = try SealedBox.seal(key, to: victim)
        for index in 0..<count {
            guard let doc = DocumentID(bytes: SecureRandom.bytes(16)) else { continue }
            let signature = flooder.identity.sign(
                KeyGrant.signedBytes(doc: doc, epoch: 0, member: victim.bytes, sealedKey: sealed))
            var grants = [
                Wire.grant(
                    KeyGrant(
                        doc: doc, epoch: 0, member: victim.bytes, sealedKey: sealed, issuer: flooder.key,
                        signature: signature.bytes))
            ]
            for _ in 0..<extraGrants {
                var g = grants[0]
                g.signature = Data(SecureRandom.bytes(64))
                g.sealedKey = Data(SecureRandom.bytes(80))
                grants.append(g)
            }
            out.append(
                Wire.offer(
                    doc: doc, owner: flooder.key, vector: index.isMultiple(of: 2) ? longVector : vector, grants: grants)
            )
        }
        return out
    }

    /// Floods `daemon` with `offers` bogus offers from `flooder` (a member of `itinerary`,
    /// connected) while timing, every 50 ms, a local edit of `itinerary` until the good
    /// peer's session (a member, caught up) receives its op, and `GET /v1/status`. Stops
    /// measuring after `maxSeconds` even if the daemon has not got through the flood.
    static func offerFlood(
        daemon: DaemonProcess, itinerary: String, flooder: AdversarialPeer, flooderSession: PeerSession,
        goodSession: PeerSession, offers: Int = 10_000, maxSeconds: Double = 20, liveTimeoutSeconds: Double = 2
    ) throws -> FloodReport {
        guard let doc = DocumentID(hex: itinerary) else { throw HarnessError("not a document id: \(itinerary)") }
        let victim = flooderSession.remoteKey
        let owner = try HumanID.decode(daemon.call(Itinerary.self, "GET", "/v1/itineraries/\(itinerary)").owner)
        let messages = try bogusOffers(offers, from: flooder, to: victim)
        let rssBefore = daemon.residentKilobytes ?? 0
        let done = DispatchSemaphore(value: 0)
        let outcome = FloodOutcome()
        let started = ContinuousClock.now
        let deadline = Date().addingTimeInterval(maxSeconds)
        Thread {
            defer { done.signal() }
            do {
                for start in stride(from: 0, to: messages.count, by: 100) {
                    try flooderSession.send(
                        Array(messages[start..<min(start + 100, messages.count)]), deadline: deadline)
                }
                // An honest offer last: its answer says the daemon got through the flood.
                try flooderSession.send(Wire.offer(doc: doc, owner: owner.bytes, reply: false))
                let answered = try flooderSession.wait(timeout: deadline.timeIntervalSinceNow) { message in
                    if case .offer(let o)? = message.kind { return o.doc == Data(doc.bytes) && o.reply }
                    return false
                }
                if answered != nil || flooderSession.closed {
                    outcome.set(disconnected: answered == nil)
                    outcome.finish(milliseconds(ContinuousClock.now - started) / 1000)
                }
            } catch {
                if deadline.timeIntervalSinceNow > 0 {
                    outcome.set(disconnected: true)
                    outcome.finish(milliseconds(ContinuousClock.now - started) / 1000)
                }
            }
            outcome.stop()
        }.start()

        var live = [Double](), status = [Double]()
        var misses = 0
        var i = 0
        while !outcome.stopped, deadline.timeIntervalSinceNow > 0 {
            i += 1
            let statusStarted = ContinuousClock.now
            _ = try? daemon.send("GET", "/v1/status")
            status.append(milliseconds(ContinuousClock.now - statusStarted))
            let editStarted = ContinuousClock.now
            let r = try daemon.send("PATCH", "/v1/itineraries/\(itinerary)", json: #"{"notes":"flood edit \#(i)"}"#)
            guard r.status == 200 else { throw HarnessError("a local edit during the flood failed: \(r.text)") }
            let arrived = try goodSession.wait(timeout: liveTimeoutSeconds) { message in
                if case .ops(let batch)? = message.kind { return batch.doc == Data(doc.bytes) }
                return false
            }
            if arrived == nil { misses += 1 }
            live.append(milliseconds(ContinuousClock.now - editStarted))
            Thread.sleep(forTimeInterval: 0.05)
        }
        flooderSession.abort()
        done.wait()
        return FloodReport(
            offers: offers, sheddingSeconds: outcome.seconds, flooderDisconnected: outcome.disconnected,
            goodPeerLive: Percentiles(live), liveMisses: misses, status: Percentiles(status), rssBeforeKB: rssBefore,
            rssAfterKB: daemon.residentKilobytes ?? 0)
    }

    /// Sends `offers` offers of `itinerary` (which `flooder` is a participant of, connected
    /// as `session`) naming its real owner, each with `grants` key grants that claim the
    /// owner as issuer but carry the flooder's signature (well-formed, so a verifier cannot
    /// reject it early), and times until the daemon has answered them all
    /// (each `reply = false` offer gets an offer back). Nil when it did not within
    /// `maxSeconds`.
    static func grantBomb(
        daemon: DaemonProcess, itinerary: String, flooder: AdversarialPeer, session: PeerSession, offers: Int = 10,
        grants: Int = 10_000,
        maxSeconds: Double = 30
    ) throws -> Double? {
        guard let doc = DocumentID(hex: itinerary) else { throw HarnessError("not a document id: \(itinerary)") }
        let owner = try HumanID.decode(daemon.call(Itinerary.self, "GET", "/v1/itineraries/\(itinerary)").owner)
        let signature = flooder.identity.sign(SecureRandom.bytes(16)).bytes
        var messages = [WireMessage]()
        for _ in 0..<offers {
            let bogus = (0..<grants).map { _ in
                Wire.grant(
                    KeyGrant(
                        doc: doc, epoch: 0, member: SecureRandom.bytes(32), sealedKey: SecureRandom.bytes(80),
                        issuer: owner.bytes, signature: signature))
            }
            messages.append(Wire.offer(doc: doc, owner: owner.bytes, grants: bogus))
        }
        let started = ContinuousClock.now
        let deadline = Date().addingTimeInterval(maxSeconds)
        try session.send(messages, deadline: deadline)
        var answered = 0
        while answered < offers {
            guard
                try session.wait(
                    timeout: deadline.timeIntervalSinceNow,
                    for: { message in
                        if case .offer(let o)? = message.kind { return o.doc == Data(doc.bytes) && o.reply }
                        return false
                    }) != nil
            else { return nil }
            answered += 1
        }
        return milliseconds(ContinuousClock.now - started) / 1000
    }

    static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }
}

/// The flooder thread's result, read by the measuring thread.
private final class FloodOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var _seconds: Double?
    private var _disconnected = false
    private var _stopped = false

    var seconds: Double? { lock.withLock { _seconds } }
    var disconnected: Bool { lock.withLock { _disconnected } }
    func set(disconnected: Bool) { lock.withLock { _disconnected = disconnected } }
    func finish(_ seconds: Double) { lock.withLock { _seconds = seconds } }
    var stopped: Bool { lock.withLock { _stopped } }
    func stop() { lock.withLock { _stopped = true } }
}
