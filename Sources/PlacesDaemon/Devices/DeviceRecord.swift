import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto

/// What makes this daemon a device of a person other than its root device
/// (`Protocol/devices.md` §1): `DATA_DIR/device.json` holds its certificate and name; an admin
/// device also keeps the person's key, sealed like `identity.key`, in `DATA_DIR/person.key`.
/// A data dir without `device.json` is its person's root device (every data dir made before
/// devices existed): its `identity.key` is the person key.
struct DeviceRecord: Codable, Sendable, Equatable {
    /// The certificate, base64url.
    var certificate: String
    /// The name the person gave this device.
    var name: String

    /// The certificate, checked.
    func checked(for device: PublicKey) throws -> DeviceCertificate {
        let cert = try DeviceCertificate(base64url: certificate)
        guard cert.device == device else {
            throw ServiceError.internal("Wrong device file", "device.json certifies another key than identity.key")
        }
        return cert
    }

    static func path(_ paths: DataPaths) -> String { paths.dataDir + "/device.json" }
    static func personKeyPath(_ paths: DataPaths) -> String { paths.dataDir + "/person.key" }

    /// The record, nil for a root device.
    static func read(_ paths: DataPaths) throws -> DeviceRecord? {
        let path = Self.path(paths)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try JSONDecoder().decode(DeviceRecord.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The admin device's sealed person key, nil when there is none.
    static func readPersonKey(_ paths: DataPaths) throws -> KeyFile? {
        let path = personKeyPath(paths)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try JSONDecoder().decode(KeyFile.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Writes `data` to `path` atomically, readable by the user alone.
    static func writePrivate(_ data: Data, to path: String) throws {
        let tmp = path + ".tmp"
        guard FileManager.default.createFile(atPath: tmp, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteNoPermission)
        }
        try data.write(to: URL(fileURLWithPath: tmp))
        chmod(tmp, 0o600)
        guard rename(tmp, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    func write(_ paths: DataPaths) throws {
        try Self.writePrivate(try ControlJSON.encoder.encode(self), to: Self.path(paths))
    }

    static func writePersonKey(_ file: KeyFile, _ paths: DataPaths) throws {
        try writePrivate(try ControlJSON.encoder.encode(file), to: personKeyPath(paths))
    }
}
