import Foundation
import NIOCore
import NIOSSL

/// Test hooks of destinations: the clock the dashboard and the weather schedule read, and the
/// weather client's deadline (a slow source's test should not wait 10 seconds) and the
/// authorities it trusts (an https test's own CA). None of these is reachable through the
/// control API or a setting.
extension InProcessDaemon {
    /// Replaces the destinations' clock.
    public func setDestinationsClock(_ now: @escaping @Sendable () -> Date) async {
        await engine.setDestinationsClock(now)
    }

    /// Sets the weather client's deadline, before the first fetch.
    public func setWeatherTimeout(milliseconds: Int64) async {
        await engine.setWeatherTimeout(.milliseconds(milliseconds))
    }

    /// Makes the weather client trust only the authority in `pem` (instead of the system's
    /// roots) for https sources; nil: the system's again. Throws for a PEM that is not a
    /// certificate.
    public func setWeatherTrustRoots(pem: String?) async throws {
        let roots: NIOSSLTrustRoots =
            if let pem { .certificates([try NIOSSLCertificate(bytes: Array(pem.utf8), format: .pem)]) } else {
                .default
            }
        await engine.setWeatherTrustRoots(roots)
    }
}

extension Engine {
    func setDestinationsClock(_ now: @escaping @Sendable () -> Date) { destinationsComponent.now = now }
    func setWeatherTimeout(_ timeout: TimeAmount) { destinationsComponent.client.timeout = timeout }
    func setWeatherTrustRoots(_ roots: NIOSSLTrustRoots) { destinationsComponent.client.trustRoots = roots }
}
