import Foundation
import PlacesTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP proxy on loopback between a daemon that dials it and an upstream daemon, for the
/// tampering tests of issue 30: it reads the Noise frames of each direction (`handshake.md`:
/// a two-byte length, then the frame) and, when armed, tampers with one transport frame of
/// one direction after the `Hello`: flips a byte, sends it twice, swaps it with the next one,
/// or passes a few of its bytes and then withholds everything after them (the connection stays
/// open). Blocked, it closes every connection and accepts none.
final class TamperProxy: @unchecked Sendable {
    /// Which way the bytes travel: from the dialling daemon (the Noise initiator) to the
    /// upstream daemon, or back.
    enum Direction: String, Sendable {
        case up, down
        /// Noise XX frames before the first transport frame: messages 1 and 3 go up, 2 down.
        var handshakeFrames: Int { self == .up ? 2 : 1 }
    }

    enum Fault: String, Sendable {
        /// One byte of the frame's ciphertext flipped.
        case flip
        /// The frame sent twice.
        case duplicate
        /// The frame held back and sent after the next one.
        case reorder
        /// `withheldAfterBytes` bytes of the frame passed, then nothing more in that direction.
        case withhold
    }

    /// Bytes of the tampered frame that pass before a withhold.
    static let withheldAfterBytes = 10

    let port: UInt16
    var address: String { "127.0.0.1:\(port)" }
    private let upstream: String
    private let listener: Int32
    private let lock = NSLock()
    private var armed: (fault: Fault, direction: Direction, sticky: Bool)?
    private var faults: [String] = []
    private var accepted = 0
    private var blocked = false
    private var open: Set<Int32> = []
    private var stopped = false

    init(to upstream: String) throws {
        self.upstream = upstream
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket() failed") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = try Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw HarnessError("the proxy could not listen on loopback")
        }
        listener = fd
        port = UInt16(bigEndian: addr.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Tampers once with the next transport frame after the `Hello` going `direction` (every
    /// connection's, when `sticky`).
    func arm(_ fault: Fault, _ direction: Direction, sticky: Bool = false) {
        locked { armed = (fault, direction, sticky) }
    }

    /// The faults applied so far, as "fault direction connection".
    var applied: [String] { locked { faults } }
    /// Connections accepted so far.
    var connections: Int { locked { accepted } }

    /// Closes every connection and refuses new ones (the path is cut), or opens again.
    func block(_ cut: Bool) {
        let fds = locked {
            blocked = cut
            return cut ? open : []
        }
        for fd in fds { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// Stops listening and closes every connection.
    func stop() {
        guard
            locked({ () -> Bool in
                defer { stopped = true }
                return !stopped
            })
        else { return }
        block(true)
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    // MARK: Connections

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let id: Int? = locked {
                guard !blocked else { return nil }
                accepted += 1
                return accepted
            }
            guard let id, let server = try? Self.dial(upstream) else {
                close(client)
                continue
            }
            locked { open.formUnion([client, server]) }
            let done = DispatchGroup()
            for (from, to, direction) in [(client, server, Direction.up), (server, client, .down)] {
                done.enter()
                Thread.detachNewThread { [self] in
                    pump(from: from, to: to, direction, connection: id)
                    // Either side ending ends both.
                    shutdown(from, Int32(SHUT_RDWR))
                    shutdown(to, Int32(SHUT_RDWR))
                    done.leave()
                }
            }
            Thread.detachNewThread { [self] in
                done.wait()
                locked { open.subtract([client, server]) }
                close(client)
                close(server)
            }
        }
    }

    /// Forwards frame by frame from `from` to `to`, tampering as armed.
    private func pump(from: Int32, to: Int32, _ direction: Direction, connection: Int) {
        var pending = [UInt8]()
        var frames = 0
        var held: [UInt8]?
        var withholding = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return }
            // A withholding direction still reads, so the sender never blocks: it just sees
            // nothing arrive.
            if withholding { continue }
            pending += buffer[0..<n]
            while pending.count >= 2 {
                let length = Int(pending[0]) << 8 | Int(pending[1])
                guard pending.count >= 2 + length else { break }
                var frame = Array(pending[0..<(2 + length)])
                pending.removeFirst(2 + length)
                frames += 1
                // Transport frames after the Hello (the first transport frame) may be tampered with.
                let fault = frames > direction.handshakeFrames + 1 ? take(direction) : nil
                if let fault { note(fault, direction, connection) }
                switch fault {
                case .flip?:
                    frame[2 + length / 2] ^= 0x40
                    guard write(frame, to: to) else { return }
                case .duplicate?:
                    guard write(frame + frame, to: to) else { return }
                case .reorder?:
                    held = frame
                case .withhold?:
                    _ = write(Array(frame.prefix(Self.withheldAfterBytes)), to: to)
                    withholding = true
                case nil:
                    guard write(frame, to: to) else { return }
                    if let first = held {
                        held = nil
                        guard write(first, to: to) else { return }
                    }
                }
                if withholding { break }
            }
        }
    }

    private func take(_ direction: Direction) -> Fault? {
        locked {
            guard let armed, armed.direction == direction else { return nil }
            if !armed.sticky { self.armed = nil }
            return armed.fault
        }
    }

    private func note(_ fault: Fault, _ direction: Direction, _ connection: Int) {
        locked { faults.append("\(fault.rawValue) \(direction.rawValue) \(connection)") }
    }

    private func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    private static func loopback(port: UInt16) throws -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        guard inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr) == 1 else { throw HarnessError("inet_pton") }
        return addr
    }

    private static func dial(_ address: String) throws -> Int32 {
        guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...])
        else { throw HarnessError("not HOST:PORT: \(address)") }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket() failed") }
        var addr = try loopback(port: port)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else {
            close(fd)
            throw HarnessError("the proxy could not reach \(address)")
        }
        return fd
    }
}
