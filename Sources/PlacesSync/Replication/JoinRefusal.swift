import PlacesModel

/// A refusal of a share link (`JoinRefused` on the wire).
public struct JoinRefusal: Sendable, Equatable {
    public var doc: DocumentID
    public var tokenID: [UInt8]
    /// An `AccessError` code.
    public var code: String
    /// Why, for the joiner's user (at most 500 characters are kept from a peer).
    public var reason: String
    public var proof: [UInt8]

    public init(doc: DocumentID, tokenID: [UInt8], code: String, reason: String, proof: [UInt8]) {
        self.doc = doc
        self.tokenID = tokenID
        self.code = code
        self.reason = reason
        self.proof = proof
    }
}
