import PlacesAccess
import PlacesCrypto
import PlacesModel

/// `tokens`: the input both as a binary capability token (`CapabilityToken(decoding:)`) and
/// as pasted share-link text (`ShareLink(parsing:)`), then the checks a redeemer runs.
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
