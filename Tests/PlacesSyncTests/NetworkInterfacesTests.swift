import NIOCore
import Testing

@testable import PlacesSync

@Suite("Network interfaces: one enumeration for discovery and address hints")
struct NetworkInterfacesTests {
    @Test("the address hints are this host's IPv4 addresses outside 127.0.0.0/8")
    func hints() throws {
        let hints = NetworkInterfaces.nonLoopbackIPv4Addresses()
        let all = NetworkInterfaces.ipv4Devices().compactMap { $0.address?.ipAddress }
        for hint in hints {
            #expect(!hint.hasPrefix("127."))
            #expect(all.contains(hint))
            let address = try SocketAddress(ipAddress: hint, port: 0)
            guard case .v4 = address else {
                Issue.record("\(hint) is not IPv4")
                continue
            }
        }
        #expect(hints.count == all.filter { !$0.hasPrefix("127.") }.count)
    }

    @Test("discovery joins each multicast interface once, from the same enumeration")
    func multicastOncePerInterface() {
        let joined = NetworkInterfaces.multicast()
        #expect(Set(joined.map(\.interfaceIndex)).count == joined.count)
        let indexes = Set(NetworkInterfaces.ipv4Devices().filter(\.multicastSupported).map(\.interfaceIndex))
        #expect(Set(joined.map(\.interfaceIndex)) == indexes)
    }
}
