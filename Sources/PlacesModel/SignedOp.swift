/// The header of an op: everything but its encrypted body and signature. See
/// `Protocol/op-format.md` for the byte layout this is encoded to and signed in.
public struct OpHeader: Hashable, Sendable {
    /// The document this op changes.
    public var doc: DocumentID
    /// The author's 32-byte Ed25519 public key.
    public var author: [UInt8]
    /// The author's op counter in this document, 1, 2, 3, … with no gaps.
    public var seq: UInt64
    /// Ids of the document heads the author had seen (causal dependencies).
    public var deps: [[UInt8]]
    /// Lamport clock: greater than the lamport of every dependency.
    public var lamport: UInt64
    /// Which document key (epoch) encrypts the body.
    public var epoch: UInt32

    public init(doc: DocumentID, author: [UInt8], seq: UInt64, deps: [[UInt8]], lamport: UInt64, epoch: UInt32) {
        self.doc = doc
        self.author = author
        self.seq = seq
        self.deps = deps
        self.lamport = lamport
        self.epoch = epoch
    }

    /// The author as a hex key (the form the merge rules order by).
    public var authorKey: AuthorKey { HexCoding.encode(author) }
}

/// The failure to decode op bytes: what was wrong, for logs and problem responses.
public struct OpFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { "malformed op: \(message)" }
}

/// An op as stored and sent: the signed bytes (header ‖ ciphertext, canonical encoding)
/// followed by the 64-byte Ed25519 signature. The op id is BLAKE2b-256 of `signedBytes`,
/// computed by the crypto layer.
public struct SignedOp: Hashable, Sendable {
    /// Magic and version at the start of every op: "PLOP" 0x01.
    public static let magic: [UInt8] = Array("PLOP".utf8) + [1]
    /// Upper bound on an encoded op (header, body and signature): 1 MiB.
    public static let maxBytes = 1 << 20
    /// Upper bound on the number of dependencies.
    public static let maxDeps = 64

    public let header: OpHeader
    public let ciphertext: [UInt8]
    public let signature: [UInt8]
    /// The exact bytes the signature covers.
    public let signedBytes: [UInt8]

    /// Encodes a header and ciphertext into signed bytes (to be signed by the caller).
    public static func encodeSignedBytes(header: OpHeader, ciphertext: [UInt8]) -> [UInt8] {
        var out = magic
        out.reserveCapacity(magic.count + 16 + 32 + 8 + 8 + 4 + 2 + header.deps.count * 32 + 4 + ciphertext.count)
        out += header.doc.bytes
        out += header.author
        appendBE(&out, header.seq, bytes: 8)
        appendBE(&out, header.lamport, bytes: 8)
        appendBE(&out, UInt64(header.epoch), bytes: 4)
        appendBE(&out, UInt64(header.deps.count), bytes: 2)
        for d in header.deps { out += d }
        appendBE(&out, UInt64(ciphertext.count), bytes: 4)
        out += ciphertext
        return out
    }

    /// Assembles an op from its parts; `signedBytes` must be `encodeSignedBytes(header, ciphertext)`.
    public init(header: OpHeader, ciphertext: [UInt8], signature: [UInt8], signedBytes: [UInt8]) {
        self.header = header
        self.ciphertext = ciphertext
        self.signature = signature
        self.signedBytes = signedBytes
    }

    /// The op as stored and sent: signed bytes ‖ signature.
    public var encoded: [UInt8] { signedBytes + signature }

    /// Parses an encoded op, checking lengths and structure (not the signature).
    public init(decoding bytes: [UInt8]) throws(OpFormatError) {
        guard bytes.count <= SignedOp.maxBytes else { throw OpFormatError("over \(SignedOp.maxBytes) bytes") }
        var r = ByteReader(bytes)
        guard try r.take(5) == SignedOp.magic else { throw OpFormatError("bad magic or unsupported version") }
        guard let doc = DocumentID(bytes: try r.take(16)) else { throw OpFormatError("bad document id") }
        let author = try r.take(32)
        let seq = try r.uint(8)
        let lamport = try r.uint(8)
        let epoch = UInt32(try r.uint(4))
        let depCount = Int(try r.uint(2))
        guard depCount <= SignedOp.maxDeps else { throw OpFormatError("more than \(SignedOp.maxDeps) deps") }
        var deps = [[UInt8]]()
        for _ in 0..<depCount { deps.append(try r.take(32)) }
        let length = Int(try r.uint(4))
        let ciphertext = try r.take(length)
        let signedEnd = r.offset
        let signature = try r.take(64)
        guard r.offset == bytes.count else { throw OpFormatError("trailing bytes after the signature") }
        guard seq >= 1, seq <= OpRules.maxSeq else { throw OpFormatError("seq \(seq) is outside 1…2^32−1") }
        guard lamport >= 1, lamport <= OpRules.maxLamport else {
            throw OpFormatError("lamport \(lamport) is outside 1…2^53−1")
        }
        for i in deps.indices.dropFirst() where !deps[i - 1].lexicographicallyPrecedes(deps[i]) {
            throw OpFormatError("deps are not sorted ascending without duplicates")
        }
        self.header = OpHeader(doc: doc, author: author, seq: seq, deps: deps, lamport: lamport, epoch: epoch)
        self.ciphertext = ciphertext
        self.signature = signature
        self.signedBytes = Array(bytes[..<signedEnd])
    }

    private static func appendBE(_ out: inout [UInt8], _ value: UInt64, bytes: Int) {
        for i in stride(from: bytes - 1, through: 0, by: -1) {
            out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))))
        }
    }
}

struct ByteReader {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func take(_ n: Int) throws(OpFormatError) -> [UInt8] {
        guard n >= 0, bytes.count - offset >= n else { throw OpFormatError("truncated at byte \(offset)") }
        defer { offset += n }
        return Array(bytes[offset..<offset + n])
    }

    mutating func uint(_ n: Int) throws(OpFormatError) -> UInt64 {
        var v: UInt64 = 0
        for b in try take(n) { v = v << 8 | UInt64(b) }
        return v
    }
}
