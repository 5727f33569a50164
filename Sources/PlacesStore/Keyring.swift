import PlacesModel

/// The document keys a logged-in daemon holds in memory, by document and epoch. Built at
/// login by opening each sealed key with the identity; dropped at logout.
public struct Keyring: Sendable {
    fileprivate var keys: [DocumentID: [UInt32: [UInt8]]] = [:]

    public init() {}

    /// The key of `doc` for `epoch`, if held.
    public func key(_ doc: DocumentID, epoch: UInt32) -> [UInt8]? { keys[doc]?[epoch] }

    /// The newest epoch held for `doc` and its key.
    public func current(_ doc: DocumentID) -> (epoch: UInt32, key: [UInt8])? {
        guard let byEpoch = keys[doc], let epoch = byEpoch.keys.max() else { return nil }
        return (epoch, byEpoch[epoch]!)
    }

    /// Adds a key.
    public mutating func insert(_ key: [UInt8], doc: DocumentID, epoch: UInt32) {
        keys[doc, default: [:]][epoch] = key
    }

    /// Forgets one document's keys.
    public mutating func remove(_ doc: DocumentID) { keys[doc] = nil }
}

extension Keyring {
    /// Every epoch key held for `doc`, oldest first.
    public func all(_ doc: DocumentID) -> [(epoch: UInt32, key: [UInt8])] {
        (keys[doc] ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
