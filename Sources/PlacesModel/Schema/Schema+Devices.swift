// Devices (issue 29): a person's devices in a document (`Protocol/devices.md` §4). A `device`
// entity's id is the device key; `cert` is the device's certificate, written by the device
// itself in its first op in the document (or copied in by another device of its person),
// `name` the name its person gave it, and `revocation` a revocation of it, which any author
// allowed in the document may copy in. Both values are base64url records signed by
// the person key; the store checks their signatures when it authorizes the op.

extension EntityKind {
    public static let device = EntityKind(declaring: "device")
}

/// A device of a person, in one document.
public enum DeviceFields: EntityDeclaration {
    /// The device's certificate (`devices.md` §2), base64url.
    public static let cert = FieldKey<Self, String>("cert", .token, label: "certificate")
    /// A revocation of the device (`devices.md` §3), base64url.
    public static let revocation = FieldKey<Self, String>("revocation", .token)
    /// The name its person gave the device ("Ana's phone"), written by the person's devices.
    public static let name = FieldKey<Self, String>(
        "name", .text(maxLength: 64, required: false), column: "name")

    public static let schema = EntitySchema(.device, id: .publicKey, fields: [cert, revocation, name])
}
