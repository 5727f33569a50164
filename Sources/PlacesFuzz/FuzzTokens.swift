import PlacesAccess
import PlacesCrypto
import PlacesModel

/// `tokens`: the input both as a binary capability token (`CapabilityToken(decoding:)`) and
/// as pasted share-link text (`ShareLink(parsing:)`), then the checks a redeemer runs; and
/// as a device certificate, a device revocation (`Protocol/devices.md` §2, §3: peer bytes in a
/// `Hello` and in ops) and pasted pairing-code text (§5.1).
///
/// Checked: a decoded token encodes back to exactly its input, and its link text parses
/// back to the same token; a parsed link's token round-trips the same way; `check` and
/// `isSignatureValid` agree on the signature; a token that passes `check` for a presenter
/// is within its validity period.
enum FuzzTokens {
    static func run(_ input: [UInt8]) {
        if let token = try? CapabilityToken(decoding: input) {
            precondition(token.encoded == input, "a decoded token does not encode back to its bytes")
            roundTrip(token)
        }
        let text = String(decoding: input, as: UTF8.self)
        if let link = try? ShareLink(parsing: text) {
            precondition(
                (try? CapabilityToken(decoding: link.token.encoded)) == link.token,
                "a parsed link's token does not decode from its own encoding")
            roundTrip(link.token)
        }
        devices(input, text: text)
    }

    /// A device record decodes only to what encodes back to its bytes and base64url text; a
    /// pairing code only to what prints back to a code that parses the same.
    static func devices(_ input: [UInt8], text: String) {
        if let certificate = try? DeviceCertificate(decoding: input) {
            precondition(certificate.encoded == input, "a decoded certificate does not encode back to its bytes")
            precondition(
                (try? DeviceCertificate(base64url: certificate.base64url)) == certificate,
                "a certificate's text does not decode back")
            precondition(certificate.device != certificate.person, "a certificate of the person key decoded")
        }
        if let revocation = try? DeviceRevocation(decoding: input) {
            precondition(revocation.encoded == input, "a decoded revocation does not encode back to its bytes")
            precondition(
                (try? DeviceRevocation(base64url: revocation.base64url)) == revocation,
                "a revocation's text does not decode back")
        }
        if let code = try? PairingCode(parsing: text) {
            precondition((try? PairingCode(parsing: code.text)) == code, "a pairing code's text does not parse back")
            precondition(code.hints.count <= PairingCode.maxHints, "a pairing code kept too many hints")
        }
    }

    static func roundTrip(_ token: CapabilityToken) {
        let text = ShareLink(token: token).text
        precondition((try? ShareLink(parsing: text))?.token == token, "a token's link text does not parse back")
        precondition((try? ShareLink(parsing: " \(text)\n"))?.token == token, "surrounding whitespace changed a link")
        let valid = token.isSignatureValid
        for presenter in [nil, FuzzWorld.member.publicKey, FuzzWorld.stranger.publicKey] {
            for now in [0, FuzzWorld.nowMs, Int64.max] {
                do {
                    try token.check(nowMs: now, presenter: presenter)
                    precondition(valid, "a token with a bad signature passed check")
                    precondition(now >= token.notBeforeMs, "a token passed check before notBefore")
                    precondition(token.expiresMs.map { now < $0 } ?? true, "a token passed check after expiry")
                } catch {
                    if error.code == .badSignature { precondition(!valid, "check refused a valid signature") }
                }
            }
        }
    }
}
