import PlacesCrypto

/// Splitting of serialized `SyncMessage`s into Noise transport plaintexts and back
/// (`Protocol/sync.md` §3). Each plaintext is one fragment: a flag byte (`0x01` when more
/// fragments of the same message follow, `0x00` on the last) and up to
/// `maxFragmentPayload` bytes of the message.
public enum SyncFragments {
    /// The flag of the last fragment of a message.
    public static let lastFlag: UInt8 = 0x00
    /// The flag of a fragment that more fragments of the same message follow.
    public static let moreFlag: UInt8 = 0x01
    /// Message bytes per fragment: the largest Noise plaintext (65,519) less the flag byte.
    public static let maxFragmentPayload = NoiseTransport.maxPlaintextLength - 1

    /// The fragments of one serialized message, in order. An empty message gives one
    /// fragment holding only the last-fragment flag.
    public static func split(_ message: [UInt8]) -> [[UInt8]] {
        var fragments: [[UInt8]] = []
        fragments.reserveCapacity(message.count / maxFragmentPayload + 1)
        var start = 0
        repeat {
            let end = min(start + maxFragmentPayload, message.count)
            var fragment = [UInt8]()
            fragment.reserveCapacity(end - start + 1)
            fragment.append(end == message.count ? lastFlag : moreFlag)
            fragment.append(contentsOf: message[start..<end])
            fragments.append(fragment)
            start = end
        } while start < message.count
        return fragments
    }
}

/// Reassembles serialized messages from fragments, enforcing the size limit while they
/// arrive (a peer cannot make it buffer more than `maxMessageBytes`).
public struct SyncMessageAssembler: Sendable {
    /// The largest message accepted.
    public let maxMessageBytes: Int
    private var pending: [UInt8] = []

    /// An assembler accepting messages up to `maxMessageBytes` bytes.
    public init(maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
    }

    /// Adds one decrypted fragment; returns the whole message when it was the last one.
    /// Throws `.protocolViolation` for an empty fragment or an unknown flag and
    /// `.messageTooLarge` once the message passes the limit.
    public mutating func append(_ fragment: [UInt8]) throws(SyncError) -> [UInt8]? {
        guard let flag = fragment.first else {
            throw SyncError(.protocolViolation, "The peer sent an empty fragment (no flag byte)")
        }
        guard flag == SyncFragments.lastFlag || flag == SyncFragments.moreFlag else {
            throw SyncError(.protocolViolation, "The peer sent a fragment with the unknown flag \(flag)")
        }
        guard pending.count + fragment.count - 1 <= maxMessageBytes else {
            throw SyncError(
                .messageTooLarge, "The peer sent a message over the limit of \(maxMessageBytes) bytes")
        }
        pending.append(contentsOf: fragment.dropFirst())
        guard flag == SyncFragments.lastFlag else { return nil }
        defer { pending = [] }
        return pending
    }
}
