import NIOCore
import PlacesCrypto
import Synchronization

/// Where a dialled peer was reached; `SyncService.addPeer(host:port:)` keeps one dial loop
/// per target.
struct DialTarget: Hashable, Sendable, CustomStringConvertible {
    var host: String
    var port: Int

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// One established session (handshake and `Hello` done) as the service's bookkeeping sees
/// it: who the peer is, its outbound queue, and how to stop it.
final class SyncSession: Sendable {
    let id: UInt64
    let info: PeerInfo
    /// The address this daemon dialled, or nil for an accepted connection.
    let dialTarget: DialTarget?
    let outbox: SessionOutbox
    let channel: any Channel
    private let closeReason = Mutex<SyncError?>(nil)
    private let offered = Mutex(false)
    private let sentOps = Mutex(SentOps())

    init(id: UInt64, info: PeerInfo, dialTarget: DialTarget?, outbox: SessionOutbox, channel: any Channel) {
        self.id = id
        self.info = info
        self.dialTarget = dialTarget
        self.outbox = outbox
        self.channel = channel
    }

    /// Why the session ended, once `close` was called.
    var reason: SyncError? { closeReason.withLock { $0 } }

    /// Whether the peer offered a document in this session: it has business with this daemon
    /// (a peer closing us as a stranger never offers one), so when the session ends the
    /// dialler re-dials it at once instead of backing off (sync.md §2, "Re-dialling").
    var peerOffered: Bool { offered.withLock { $0 } }

    func noteOffer() { offered.withLock { $0 = true } }

    /// Whether this session covers `target`: it was dialled there, or the peer connected
    /// from that host and listens on that port.
    func serves(_ target: DialTarget) -> Bool {
        if let dialTarget { return dialTarget == target }
        return info.address == target.host && info.listenPort == target.port
    }

    /// Ops received on the session (`SentOps`: sending one back counts as sending it again).
    func noteReceived(ops: [UInt64]) {
        if !ops.isEmpty { sentOps.withLock { $0.noteReceived(ops) } }
    }

    /// The session's description with what it sent of ops so far (`SentOps`).
    var infoNow: PeerInfo {
        var now = info
        sentOps.withLock {
            now.opsSent = $0.sent
            now.opsSentAgain = $0.sentAgain
        }
        return now
    }

    /// Queues serialized messages, holding the ops whose fingerprints are `ops` (`SentOps`).
    /// Returns false, having closed the session, when its queue overflowed (the peer does not
    /// read fast enough).
    @discardableResult
    func enqueue(_ messages: [[UInt8]], ops: [UInt64] = []) -> Bool {
        if !ops.isEmpty { sentOps.withLock { $0.note(ops) } }
        for message in messages {
            switch outbox.enqueue(message) {
            case .enqueued: continue
            case .closed: return true
            case .overflow:
                close(SyncError(.queueOverflow, "The peer did not read its messages fast enough; disconnected it"))
                return false
            }
        }
        return true
    }

    /// Ends the session; the first reason given is the one reported. With `bye`, queued
    /// messages are dropped, the serialized `Bye` is written, and then the connection
    /// closes (at the latest after `byeGrace`); without, the connection closes at once.
    func close(_ reason: SyncError, bye: [UInt8]? = nil, byeGrace: TimeAmount = .seconds(2)) {
        let first = closeReason.withLock { current in
            guard current == nil else { return false }
            current = reason
            return true
        }
        guard first else { return }
        if let bye {
            outbox.finish(last: bye, discardPending: true)
            // A peer that does not read would keep the Bye write pending forever.
            let channel = channel
            channel.eventLoop.scheduleTask(in: byeGrace) { channel.close(promise: nil) }
        } else {
            outbox.finish(discardPending: true)
            channel.close(promise: nil)
        }
    }
}

extension PublicKey {
    /// The short form used in log metadata (`peer.id`): the start of the human-readable id,
    /// enough to tell peers apart, as the rest of the daemon logs it.
    var logID: String { String(humanID.prefix(7)) }
}
