/// Framing of Places Noise messages on a byte stream: each handshake or transport message
/// is preceded by its length as a 2-byte big-endian integer (1...65,535).
public enum NoiseFraming {
    /// The largest frame body.
    public static let maxFrameLength = 65_535
    /// The size of the length prefix.
    public static let headerLength = 2

    /// Prefixes `message` with its length. Throws `.invalidInput` for an empty message or
    /// one longer than `maxFrameLength`.
    public static func frame(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard !message.isEmpty else {
            throw CryptoError(.invalidInput, "A Noise frame cannot be empty")
        }
        guard message.count <= maxFrameLength else {
            throw CryptoError(
                .invalidInput, "A Noise frame holds at most \(maxFrameLength) bytes, not \(message.count)")
        }
        return [UInt8(message.count >> 8), UInt8(message.count & 0xff)] + message
    }
}

/// Collects bytes from a stream and yields complete Noise frames (see `NoiseFraming`).
///
/// Pure and I/O-free: feed it whatever the socket delivered with `append(_:)`, then call
/// `nextFrame()` until it returns `nil`. A zero-length frame is a protocol error; after an
/// error the decoder stays failed, and the caller closes the connection.
public struct NoiseFrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    /// Where the unread bytes start in `buffer`; consumed bytes are dropped lazily.
    private var readIndex = 0
    private var failed = false

    /// An empty decoder.
    public init() {}

    /// The number of bytes received but not yet returned in a frame.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Adds bytes read from the stream.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame body, or `nil` if more bytes are needed. Throws
    /// `.invalidInput` on a zero-length frame, and on every call after that.
    public mutating func nextFrame() throws(CryptoError) -> [UInt8]? {
        guard !failed else {
            throw CryptoError(.invalidInput, "The Noise frame stream is already broken; close the connection")
        }
        guard bufferedByteCount >= NoiseFraming.headerLength else { return nil }
        let length = Int(buffer[readIndex]) << 8 | Int(buffer[readIndex + 1])
        guard length > 0 else {
            failed = true
            throw CryptoError(.invalidInput, "The peer sent a zero-length Noise frame; close the connection")
        }
        guard bufferedByteCount >= NoiseFraming.headerLength + length else { return nil }
        let start = readIndex + NoiseFraming.headerLength
        let frame = Array(buffer[start..<(start + length)])
        readIndex = start + length
        // Compact once the consumed prefix dominates, so the buffer stays bounded by about
        // two frames without an O(n) shift per frame.
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
        } else if readIndex > 65_536 {
            buffer.removeFirst(readIndex)
            readIndex = 0
        }
        return frame
    }
}
