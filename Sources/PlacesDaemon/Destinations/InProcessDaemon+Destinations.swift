import Foundation
import NIOCore

/// Test hooks of destinations: the clock the dashboard and the weather schedule read, and the
/// weather client's deadline (a slow source's test should not wait 10 seconds).
extension InProcessDaemon {
    /// Replaces the destinations' clock.
    public func setDestinationsClock(_ now: @escaping @Sendable () -> Date) async {
        await engine.setDestinationsClock(now)
    }

    /// Sets the weather client's deadline, before the first fetch.
    public func setWeatherTimeout(milliseconds: Int64) async {
        await engine.setWeatherTimeout(.milliseconds(milliseconds))
    }
}

extension Engine {
    func setDestinationsClock(_ now: @escaping @Sendable () -> Date) { destinationsComponent.now = now }
    func setWeatherTimeout(_ timeout: TimeAmount) { destinationsComponent.client.timeout = timeout }
}
