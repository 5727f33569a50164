import CSodium
import PlacesCrypto
import Synchronization

/// `signatures`: `Ed25519KeyTable.verify` against libsodium's `crypto_sign_verify_detached`
/// (`PublicKey.verify`) on keys, signatures and messages built from the input, valid ones
/// among them (a random input is almost never a valid signature).
///
/// Input: a mode byte, a key byte, then the rest. The mode's low two bits pick the key: one of
/// 256 keys derived from the key byte (0–2), or 32 bytes of the input (3: any bytes, not
/// only points). Bits 2–3 pick the signature: the key's own over the message (0), that
/// signature with 64 bytes of the input XORed in (1), R from the input with the valid S (2),
/// or 64 bytes of the input (3). What is left is the message.
///
/// Checked: a key without a table is one libsodium refuses every signature with; a key with
/// one gets exactly libsodium's answer.
enum FuzzSignatures {
    /// Tables of the derived keys, built once each (a table takes milliseconds in a debug build).
    private static let tables = Mutex<[UInt8: Ed25519KeyTable]>([:])

    static func run(_ input: [UInt8]) {
        guard input.count >= 2 else { return }
        let mode = input[0]
        var rest = ArraySlice(input.dropFirst(2))
        func take(_ count: Int) -> [UInt8] {
            let taken = Array(rest.prefix(count)) + [UInt8](repeating: 0, count: max(0, count - rest.count))
            rest = rest.dropFirst(count)
            return taken
        }
        let derived = mode & 0x03 != 3
        var keyBytes = [UInt8](repeating: 0, count: 32)
        var secret = [UInt8](repeating: 0, count: 64)
        if derived {
            let seed = [UInt8](repeating: input[1], count: 32)
            _ = crypto_sign_seed_keypair(&keyBytes, &secret, seed)
        } else {
            keyBytes = take(32)
        }
        let sigMode = (mode >> 2) & 0x03
        let mask = sigMode == 1 || sigMode == 2 ? take(sigMode == 1 ? 64 : 32) : []
        let raw = sigMode == 3 ? take(64) : []
        let message = Array(rest)
        var sig = [UInt8](repeating: 0, count: 64)
        if derived {
            _ = crypto_sign_detached(&sig, nil, message, UInt64(message.count), secret)
        }
        switch sigMode {
        case 1: for i in 0..<64 { sig[i] ^= mask[i] }
        case 2: sig.replaceSubrange(0..<32, with: mask)
        case 3: sig = raw
        default: break
        }
        guard let key = try? PublicKey(bytes: keyBytes), let signature = try? Signature(bytes: sig) else { return }
        let sodium = message.withUnsafeBytes { key.verify(signature, for: $0) }
        let table: Ed25519KeyTable?
        if derived {
            table = tables.withLock { cached in
                if let hit = cached[input[1]] { return hit }
                let built = Ed25519KeyTable(key)
                cached[input[1]] = built
                return built
            }
            precondition(table != nil, "a key libsodium made has no table")
        } else {
            table = Ed25519KeyTable(key)
        }
        guard let table else {
            precondition(!sodium, "libsodium accepted a signature by a key that has no table")
            return
        }
        let fast = message.withUnsafeBytes { table.verify(signature, for: $0) }
        precondition(fast == sodium, "the key table answered \(fast), libsodium \(sodium)")
    }
}
