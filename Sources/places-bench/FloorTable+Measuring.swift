import Foundation
import PlacesAPI
import PlacesControlClient

#if canImport(Glibc)
    import Glibc
#endif

/// How the floor table measures: percentiles, concurrent reads, the loopback round trip.
extension FloorTable {
    typealias Percentiles = (p50: Double, p99: Double)

    static func percentiles(_ samples: [Double]) -> Percentiles {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return (.nan, .nan) }
        return (sorted[sorted.count / 2], sorted[sorted.count * 99 / 100])
    }

    /// Requests from `clients` threads at once, `each` per thread, each on a new connection:
    /// requests per second over all of them, and their latency in ms.
    static func concurrentReads(
        _ client: ControlClient, path: String, clients: Int, each: Int,
        valid: @escaping @Sendable (ControlClient.Response) -> Bool
    ) throws -> (rate: Double, latency: Percentiles) {
        let samples = Samples()
        let done = DispatchGroup()
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<clients {
            done.enter()
            Thread {
                var mine = [Double]()
                mine.reserveCapacity(each)
                var failed = false
                for _ in 0..<each {
                    let t0 = clock.now
                    guard let r = try? client.send("GET", path), valid(r) else {
                        failed = true
                        break
                    }
                    mine.append(PlacesBench.seconds(clock.now - t0) * 1_000)
                }
                samples.add(mine, failed: failed)
                done.leave()
            }.start()
        }
        done.wait()
        let elapsed = PlacesBench.seconds(clock.now - start)
        let (all, failed) = samples.collected
        guard !failed, all.count == clients * each else { throw BenchError("a concurrent read of \(path) failed") }
        return (Double(all.count) / elapsed, percentiles(all))
    }

    /// The floor of a message to another daemon and back: one byte each way over loopback
    /// TCP (Nagle off), between this thread and an echoing one, 5,000 times; in ms.
    static func loopbackRoundTrip() throws -> Percentiles {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw BenchError("socket failed") }
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, listen(listener, 1) == 0 else { throw BenchError("bind/listen failed") }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let echo = Thread {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            defer { close(fd) }
            noDelay(fd)
            var byte: UInt8 = 0
            while read(fd, &byte, 1) == 1 { guard write(fd, &byte, 1) == 1 else { return } }
        }
        echo.start()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket failed") }
        defer { close(fd) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw BenchError("connect failed") }
        noDelay(fd)
        let clock = ContinuousClock()
        var samples = [Double]()
        var byte: UInt8 = 1
        for round in 0..<5_500 {
            let t0 = clock.now
            guard write(fd, &byte, 1) == 1, read(fd, &byte, 1) == 1 else { throw BenchError("echo failed") }
            if round >= 500 { samples.append(PlacesBench.seconds(clock.now - t0) * 1_000) }  // after a warm-up
        }
        return percentiles(samples)
    }

    static func noDelay(_ fd: Int32) {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }
}

/// Latency samples that threads hand in when they are done.
final class Samples: @unchecked Sendable {
    private let lock = NSLock()
    private var all = [Double]()
    private var failed = false
    func add(_ samples: [Double], failed: Bool) {
        lock.withLock {
            all += samples
            self.failed = self.failed || failed
        }
    }
    var collected: ([Double], Bool) { lock.withLock { (all, failed) } }
}
