import NIOCore

/// This host's IPv4 interfaces, from one enumeration (NIO's `System.enumerateDevices`, a
/// `getifaddrs` walk): the interfaces LAN discovery joins its group on, and the addresses
/// share links offer as hints.
public enum NetworkInterfaces {
    /// Every IPv4 address of every interface, as a device (an interface with several
    /// addresses appears once per address).
    static func ipv4Devices() -> [NIONetworkDevice] {
        guard let devices = try? System.enumerateDevices() else { return [] }
        return devices.filter { device in
            guard case .v4 = device.address else { return false }
            return true
        }
    }

    /// One device per interface that is up to multicast (an interface with several IPv4
    /// addresses is listed once; joining a group twice on it would fail).
    static func multicast() -> [NIONetworkDevice] {
        var seen: Set<Int> = []
        return ipv4Devices().filter { device in
            device.multicastSupported && seen.insert(device.interfaceIndex).inserted
        }
    }

    /// The IPv4 addresses of this host outside the loopback network (127.0.0.0/8), in
    /// numeric form, in the order the system lists them.
    public static func nonLoopbackIPv4Addresses() -> [String] {
        ipv4Devices().compactMap { device -> String? in
            guard case .v4(let address) = device.address,
                UInt32(bigEndian: address.address.sin_addr.s_addr) >> 24 != 127
            else { return nil }
            return device.address?.ipAddress
        }
    }
}
