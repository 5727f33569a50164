import Foundation
import PlacesAPI
import Synchronization

/// Fans change events out to every `GET /v1/events` subscriber. Each subscriber has a
/// bounded buffer: a client that stops reading loses the oldest events, never blocks the
/// daemon.
final class EventHub: Sendable {
    private let state = Mutex<[UUID: AsyncStream<[UInt8]>.Continuation]>([:])

    /// A new subscription; it ends when the client disconnects.
    func subscribe(hello: Event) -> AsyncStream<[UInt8]> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(1_000))
        continuation.yield(EventHub.line(hello))
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.removeValue(forKey: id) }
        }
        state.withLock { $0[id] = continuation }
        return stream
    }

    /// Sends an event to every subscriber.
    func publish(_ event: Event) {
        let line = EventHub.line(event)
        for c in state.withLock({ Array($0.values) }) { c.yield(line) }
    }

    /// Ends every subscription (shutdown).
    func finishAll() {
        for c in state.withLock({ s in
            defer { s.removeAll() }; return Array(s.values)
        }) { c.finish() }
    }

    static func line(_ event: Event) -> [UInt8] { event.jsonBytes() + [10] }
}
