import NIOCore

/// The connection slots of `Protocol/sync.md` §5, without sockets: inbound connections in
/// total, still handshaking, and per remote address; dialled connections and dials in
/// progress on a separate budget, so that neither side can starve the other.
///
/// Memory is bounded by the number of open connections: an address's entry goes away with
/// its last connection.
struct ConnectionBudget {
    /// Why an inbound connection was refused, for the log.
    enum Refusal: String, Sendable, Equatable {
        case tooManyConnections = "too many inbound connections"
        case tooManyPending = "too many inbound connections still handshaking"
        case tooManyFromAddress = "too many connections from the address"
        case tooManyPendingFromAddress = "too many connections from the address still handshaking"
    }

    private struct Count {
        var open = 0
        var pending = 0
    }

    let limits: SyncLimits
    private(set) var inbound = 0
    private(set) var pending = 0
    private(set) var outbound = 0
    private(set) var dialling = 0
    private var perAddress: [String: Count] = [:]

    init(limits: SyncLimits) {
        self.limits = limits
    }

    /// The number of addresses with an open inbound connection (for tests: it must fall
    /// back to 0).
    var trackedAddresses: Int { perAddress.count }

    /// Claims a slot for a new inbound connection from `address` (an `addressBucket`), or
    /// says why not. A claimed slot is pending until `inboundEstablished`.
    mutating func admitInbound(from address: String) -> Refusal? {
        let count = perAddress[address] ?? Count()
        if inbound >= limits.maxConnections { return .tooManyConnections }
        if count.open >= limits.maxConnectionsPerAddress { return .tooManyFromAddress }
        if pending >= limits.maxPendingConnections { return .tooManyPending }
        if count.pending >= limits.maxPendingConnectionsPerAddress { return .tooManyPendingFromAddress }
        inbound += 1
        pending += 1
        perAddress[address] = Count(open: count.open + 1, pending: count.pending + 1)
        return nil
    }

    /// The inbound connection from `address` delivered its `Hello`: no longer pending.
    mutating func inboundEstablished(from address: String) {
        guard var count = perAddress[address], count.pending > 0 else { return }
        count.pending -= 1
        pending -= 1
        perAddress[address] = count
    }

    /// Frees an inbound slot; `established` says whether `inboundEstablished` was called.
    mutating func releaseInbound(from address: String, established: Bool) {
        guard var count = perAddress[address], count.open > 0 else { return }
        count.open -= 1
        inbound -= 1
        if !established, count.pending > 0 {
            count.pending -= 1
            pending -= 1
        }
        perAddress[address] = count.open == 0 ? nil : count
    }

    /// Claims a slot for a dial, or false when `maxOutboundConnections` are open or
    /// `maxConcurrentDials` dials are in progress.
    mutating func admitDial() -> Bool {
        guard outbound < limits.maxOutboundConnections, dialling < limits.maxConcurrentDials else { return false }
        outbound += 1
        dialling += 1
        return true
    }

    /// The dial became a session (or failed): it no longer counts as in progress.
    mutating func dialFinished() {
        if dialling > 0 { dialling -= 1 }
    }

    /// Frees a dialled connection's slot (after `dialFinished`).
    mutating func releaseOutbound() {
        if outbound > 0 { outbound -= 1 }
    }

    /// The key connections are counted under: an IPv4 address as text, the /64 prefix of an
    /// IPv6 address (one host can hold a whole /64), an IPv4-mapped IPv6 address as IPv4.
    static func addressBucket(_ address: SocketAddress?) -> String {
        switch address {
        case .v4?:
            return address?.ipAddress ?? "unknown"
        case .v6(let v6)?:
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            guard bytes.count == 16 else { return "unknown" }
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                return bytes[12..<16].map { String($0) }.joined(separator: ".")
            }
            let prefix = stride(from: 0, to: 8, by: 2).map { index in
                String(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]), radix: 16)
            }
            return prefix.joined(separator: ":") + "::/64"
        default:
            return "unknown"
        }
    }
}
