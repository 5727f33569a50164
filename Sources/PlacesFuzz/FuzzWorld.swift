import CSodium
import Foundation
import Logging
import PlacesCrypto
import PlacesModel
import PlacesStore

/// The fixed cast every fuzz target plays with: three identities derived from constant
/// seeds (so that signed seeds stay valid from one run to the next), one itinerary with a
/// constant id and key, and the owner's first ops (`Fuzz/fixtures/base-ops.bin`: the
/// itinerary, its name, and `member` made an editor).
///
/// The base ops are kept in a file rather than made at start because op bodies are sealed
/// with a random nonce: the ops of a fresh run would have other ids, and every committed
/// seed that depends on them would stop reaching past the dependency check.
public enum FuzzWorld {
    /// Owns the itinerary; the daemon under test in `sync-session`.
    public static let owner = keyPair(seed: 0x01)
    /// An editor of the itinerary; the peer in `sync-session`.
    public static let member = keyPair(seed: 0x02)
    /// Known to nobody.
    public static let stranger = keyPair(seed: 0x03)
    /// Every identity whose secret the harnesses hold (to re-sign mutated inputs).
    public static let identities = [owner, member, stranger]

    /// The itinerary.
    public static let doc = DocumentID(bytes: [UInt8](repeating: 0xD0, count: 15) + [0x01])!
    /// Its epoch-0 key.
    public static let docKey = [UInt8](repeating: 0x4B, count: 32)
    /// The keyring of a daemon holding `docKey`.
    public static let keyring: Keyring = {
        var ring = Keyring()
        ring.insert(docKey, doc: doc, epoch: 0)
        return ring
    }()
    /// A fixed clock (2026-01-01T00:00:00Z) for checks that compare times.
    public static let nowMs: Int64 = 1_767_225_600_000

    /// A logger that drops everything (the harnesses run millions of inputs).
    public static let quietLogger = Logger(label: "places.fuzz") { _ in SwiftLogNoOpLogHandler() }

    /// The repository's `Fuzz/` directory (found from this file's path at build time).
    public static let fuzzDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static var baseOpsFile: URL { fuzzDirectory.appendingPathComponent("fixtures/base-ops.bin") }

    /// The owner's first ops, encoded, from `Fuzz/fixtures/base-ops.bin`.
    public static let baseOps: [[UInt8]] = {
        guard let data = try? Data(contentsOf: baseOpsFile) else {
            fatalError("\(baseOpsFile.path) is missing: run `places-fuzz seed` to make it")
        }
        var reader = FuzzReader([UInt8](data))
        var ops: [[UInt8]] = []
        while let op = reader.record() { ops.append(op) }
        return ops
    }()

    /// The identity whose public key is `author`, if the harnesses hold its secret.
    public static func identity(for author: [UInt8]) -> SigningKeyPair? {
        identities.first { $0.publicKey.bytes == author }
    }

    /// An Ed25519 key pair from a 32-byte seed of `byte`s.
    static func keyPair(seed byte: UInt8) -> SigningKeyPair {
        _ = sodium_init()
        var pk = [UInt8](repeating: 0, count: 32)
        var sk = [UInt8](repeating: 0, count: 64)
        let seed = [UInt8](repeating: byte, count: 32)
        crypto_sign_seed_keypair(&pk, &sk, seed)
        // A 64-byte libsodium key made by libsodium: the initialiser cannot refuse it.
        guard let pair = try? SigningKeyPair(secretKey: sk) else { fatalError("crypto_sign_seed_keypair failed") }
        return pair
    }

    /// A store at `path` holding the itinerary and, unless `empty`, the base ops.
    public static func makeStore(at path: String, empty: Bool = false) throws -> Store {
        let store = try Store(path: path)
        try store.createDocument(
            doc, kind: .itinerary, owner: owner.publicKey, sealedKey: try SealedBox.seal(docKey, to: owner.publicKey),
            timeMs: 0)
        if !empty {
            let result = try store.ingest(baseOps, doc: doc, keyring: keyring)
            guard result.stored.count == baseOps.count else {
                fatalError("the base ops no longer ingest: \(String(describing: result.rejected?.reason))")
            }
        }
        return store
    }

    /// A store at `path` as `makeStore` makes it, copied from a template made once per
    /// process: one input's setup is then a file write and an open, not a migration and an
    /// ingest (several times more inputs per second).
    public static func freshStore(at path: String) throws -> Store {
        try writeRetrying(template, to: path)
        return try Store(path: path)
    }

    /// The template database's bytes (the WAL is checkpointed into it at close).
    private static let template: [UInt8] = {
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("template.sqlite").path
        do {
            try makeStore(at: path).close()
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            fatalError("could not make the template store: \(error)")
        }
    }()

    /// Removes an input's directory, trying again if a system call was interrupted (a
    /// directory left behind would fill tmpfs over a long run).
    static func remove(_ dir: URL) {
        for _ in 0..<5 {
            do {
                try FileManager.default.removeItem(at: dir)
                return
            } catch {
                if !FileManager.default.fileExists(atPath: dir.path) { return }
            }
        }
    }

    /// Writes a file with `write(2)`, retrying on EINTR: libFuzzer's timeout timer
    /// interrupts system calls, and Foundation's file copy gives up on the first EINTR.
    static func writeRetrying(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw CocoaError(.fileWriteUnknown)
            }
            offset += written
        }
    }

    /// A fresh directory for one input's store; on tmpfs when there is one.
    static func scratchDirectory() -> URL {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let url = URL(fileURLWithPath: base).appendingPathComponent(
            "places-fuzz-\(getpid())-\(UInt64.random(in: 0 ... .max))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// `op` with a valid signature, when its author is one of `identities`.
    static func resigned(_ bytes: [UInt8]) -> [UInt8]? {
        guard let op = try? SignedOp(decoding: bytes), let identity = identity(for: op.header.author) else {
            return nil
        }
        return op.signedBytes + identity.sign(op.signedBytes).bytes
    }

    /// An op with `op`'s header (however mutated) and `body` as its plaintext, sealed with
    /// the key of the header's epoch (or `docKey`) and signed by its author when possible
    /// (else by `member`): mutated headers and bodies then reach the checks past the
    /// signature and the decryption.
    static func resealed(header: OpHeader, body: [UInt8]) -> [UInt8]? {
        let key = keyring.key(header.doc, epoch: header.epoch) ?? docKey
        guard let ciphertext = try? SecretBox.seal(body, key: key, associatedData: OpCrypto.associatedData(header))
        else { return nil }
        let signed = SignedOp.encodeSignedBytes(header: header, ciphertext: ciphertext)
        return signed + (identity(for: header.author) ?? member).sign(signed).bytes
    }
}

/// Reads a fuzz input front to back; every read past the end gives nil or fewer bytes.
public struct FuzzReader {
    let bytes: [UInt8]
    var index = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var isAtEnd: Bool { index >= bytes.count }

    public mutating func byte() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    public mutating func u16() -> Int? {
        guard let high = byte(), let low = byte() else { return nil }
        return Int(high) << 8 | Int(low)
    }

    /// Up to `count` bytes.
    public mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, index + max(0, count))
        defer { index = end }
        return Array(bytes[index..<end])
    }

    /// The rest of the input.
    public mutating func rest() -> [UInt8] { take(bytes.count - index) }

    /// One record: a 2-byte big-endian length, then that many bytes (fewer at the end).
    public mutating func record() -> [UInt8]? {
        guard let length = u16() else { return nil }
        return take(length)
    }

    /// Records as `record()` reads them.
    public static func records(_ items: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for item in items {
            let length = min(item.count, 0xFFFF)
            out += [UInt8(length >> 8), UInt8(length & 0xFF)] + item.prefix(length)
        }
        return out
    }
}
