import Foundation
import PlacesAccess
import PlacesCrypto
import Testing

@testable import PlacesModel
@testable import PlacesStore

// Store-level tests of `Protocol/devices.md` §4: a device's first op in a document carries its
// certificate and makes it act for its person (role, owner's powers, activity); a device
// nobody certified, or certified by someone who does not belong, writes nothing; a revoked
// device's later ops are refused and its concurrent ones excluded, in every arrival order;
// two devices of one person are two authors and never equivocate.

/// A device of `person`, writing in its own replica of the fixture's document.
struct DeviceWriter {
    let identity: SigningKeyPair
    let certificate: DeviceCertificate?
    let store: Store
    let keyring: Keyring
    let doc: DocumentID

    init(_ f: Fixture, of person: SigningKeyPair?, admin: Bool = false) throws {
        let identity = try SigningKeyPair()
        self.identity = identity
        certificate = try person.map {
            try DeviceCertificate.issue(device: identity.publicKey, admin: admin, issuedMs: 1_000, by: $0)
        }
        store = try replica(of: f)
        keyring = f.keyring
        doc = f.doc
    }

    var key: String { identity.publicKey.hex }

    /// Takes ops written elsewhere; every one must be accepted.
    func receive(_ ops: [SignedOp], sourceLocation: SourceLocation = #_sourceLocation) throws {
        try accept(store, ops, keyring: keyring, sourceLocation: sourceLocation)
    }

    /// One op written by this device (its certificate goes into its first op in the document).
    func write(_ changes: [Change], timeMs: Int64 = 10) throws -> SignedOp {
        try store.append(
            [Store.Edit(doc: doc, changes: changes, timeMs: timeMs)], identity: identity, keyring: keyring,
            device: certificate)[0]
    }

    /// One op signed by `key` (a person writing as itself) in `replica`'s copy of the document.
    static func forged(by key: SigningKeyPair, in replica: DeviceWriter, _ changes: [Change]) throws -> SignedOp {
        try replica.store.append(
            [Store.Edit(doc: replica.doc, changes: changes, timeMs: 10)], identity: key, keyring: replica.keyring)[0]
    }

    /// One op signed by this device with exactly `changes` (no certificate added), for ops an
    /// honest daemon would not write.
    func forge(_ changes: [Change]) throws -> SignedOp {
        try store.append(
            [Store.Edit(doc: doc, changes: changes, timeMs: 10)], identity: identity, keyring: keyring)[0]
    }
}

/// Base64url without padding, as devices.md writes records.
func base64url(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

enum DeviceEdits {
    static func cert(_ certificate: DeviceCertificate, on entity: String? = nil) -> Change {
        .set(
            entity: entity ?? certificate.device.hex, kind: .device, field: "cert",
            value: .string(certificate.base64url), old: nil)
    }

    static func revoke(_ device: PublicKey, by person: SigningKeyPair) throws -> [Change] {
        let revocation = try DeviceRevocation.issue(device: device, revokedMs: 2_000, by: person)
        return [
            .set(
                entity: device.hex, kind: .device, field: "revocation", value: .string(revocation.base64url),
                old: nil)
        ]
    }
}

@Suite("A person's devices in a document (Protocol/devices.md §4)")
struct DeviceOpTests {
    @Test("the owner's device acts as the owner, and activity names the person")
    func ownerDeviceActsAsOwner() throws {
        let f = try Fixture()
        let setup = try ownerWrite(f, Edits.itinerary(f) + Edits.addStop(sid("s1"), name: "Lunch"))
        let phone = try DeviceWriter(f, of: f.identity)
        try phone.receive([setup])
        let edit = try phone.write(
            Edits.rename(sid("s1"), "Brunch") + Edits.add(try SigningKeyPair().publicKey.hex, as: "viewer"))
        try accept(f.store, [edit], keyring: f.keyring)
        #expect(try stopName(f.store, f.doc, sid("s1")) == "Brunch")
        // Only the owner writes member entities: the device did, as its person.
        let members = try f.store.members(of: f.doc)
        #expect(members.count == 1)
        let lines = try f.store.activity(of: f.doc).filter { $0.opID == opID(edit) }
        #expect(!lines.isEmpty && lines.allSatisfy { $0.author == f.identity.publicKey.hex })
        #expect(try f.store.devicePersons(in: f.doc) == [phone.key: f.identity.publicKey.hex])
        // The replica that wrote it shows the same.
        #expect(try DocView(f.store, f.doc) == DocView(phone.store, f.doc))
    }

    @Test("a member's device edits with its person's role, and stops when the person is made a viewer")
    func memberDeviceHasItsPersonsRole() throws {
        let f = try Fixture()
        let bruno = try SigningKeyPair()
        let setup = try ownerWrite(
            f,
            Edits.itinerary(f) + Edits.addStop(sid("s1"), name: "Lunch") + Edits.add(bruno.publicKey.hex, as: "editor"))
        let phone = try DeviceWriter(f, of: bruno)
        try phone.receive([setup])
        let edit = try phone.write(Edits.rename(sid("s1"), "Brunch"))
        try accept(f.store, [edit], keyring: f.keyring)
        #expect(try stopName(f.store, f.doc, sid("s1")) == "Brunch")
        #expect(try f.store.currentRole(of: phone.identity.publicKey, in: f.doc) == "editor")
        let demote = try ownerWrite(f, Edits.role(bruno.publicKey.hex, "viewer"))
        try phone.receive([demote])
        // A viewer's device may still record its person's view, and edit nothing.
        let view = try phone.write(Edits.view(bruno.publicKey.hex, atMs: 5))
        try accept(f.store, [view], keyring: f.keyring)
        let late = try phone.write(Edits.rename(sid("s1"), "Dinner"))
        #expect(try refusal(f.store, late, keyring: f.keyring) == "viewers cannot edit")
    }

    @Test("a device nobody certified, or certified by a stranger, is refused")
    func uncertifiedDevicesAreStrangers() throws {
        let f = try Fixture()
        let setup = try ownerWrite(f, Edits.itinerary(f) + Edits.addStop(sid("s1"), name: "Lunch"))
        let bare = try DeviceWriter(f, of: nil)
        try bare.receive([setup])
        #expect(
            try refusal(f.store, try bare.write(Edits.rename(sid("s1"), "X")), keyring: f.keyring)
                == "the author is not a member")
        // Certified by someone who is not a member: acts for that stranger.
        let stranger = try DeviceWriter(f, of: try SigningKeyPair())
        try stranger.receive([setup])
        #expect(
            try refusal(f.store, try stranger.write(Edits.rename(sid("s1"), "X")), keyring: f.keyring)
                == "the author is not a member")
    }

    @Test("a forged, misplaced or late certificate is refused")
    func forgedCertificates() throws {
        let f = try Fixture()
        let setup = try ownerWrite(f, Edits.itinerary(f) + Edits.addStop(sid("s1"), name: "Lunch"))
        // The owner's certificate for another key, presented by this one.
        let thief = try DeviceWriter(f, of: nil)
        try thief.receive([setup])
        let other = try DeviceCertificate.issue(
            device: try SigningKeyPair().publicKey, admin: true, issuedMs: 1, by: f.identity)
        let stolen = try thief.forge([DeviceEdits.cert(other, on: thief.key)] + Edits.rename(sid("s1"), "X"))
        #expect(try refusal(f.store, stolen, keyring: f.keyring) == "the device certificate is for another key")
        // A certificate with one signed byte changed.
        let tamperer = try DeviceWriter(f, of: nil)
        try tamperer.receive([setup])
        var bytes = try DeviceCertificate.issue(
            device: tamperer.identity.publicKey, admin: false, issuedMs: 1, by: f.identity
        ).encoded
        bytes[66] ^= 1  // the admin flag
        let tampered = try tamperer.forge(
            [.set(entity: tamperer.key, kind: .device, field: "cert", value: .string(base64url(bytes)), old: nil)])
        #expect(try refusal(f.store, tampered, keyring: f.keyring)?.hasPrefix("device certificate:") == true)
        // A certificate in a device's second op establishes nothing and is refused.
        let late = try DeviceWriter(f, of: nil)
        try late.receive([setup])
        let first = try late.forge(Edits.rename(sid("s1"), "X"))
        _ = first
        let cert = try DeviceCertificate.issue(
            device: late.identity.publicKey, admin: false, issuedMs: 1, by: f.identity)
        let second = try late.forge([DeviceEdits.cert(cert)])
        let result = try f.store.ingest([first.encoded, second.encoded], doc: f.doc, keyring: f.keyring)
        #expect(result.stored.isEmpty)
        // A certificate of the owner's copied in by a stranger's device.
        let copier = try DeviceWriter(f, of: try SigningKeyPair())
        try copier.receive([setup])
        let copy = try copier.write([DeviceEdits.cert(other)])
        #expect(
            try refusal(f.store, copy, keyring: f.keyring)
                == "only a person's own devices copy in its device certificates")
    }

    @Test("a revoked device's later ops are refused and its concurrent ones excluded, in either order")
    func revokedDevice() throws {
        for revocationFirst in [true, false] {
            let f = try Fixture()
            let setup = try ownerWrite(f, Edits.itinerary(f) + Edits.addStop(sid("s1"), name: "Lunch"))
            let phone = try DeviceWriter(f, of: f.identity)
            try phone.receive([setup])
            let before = try phone.write(Edits.addStop(sid("p1"), name: "Before"))
            try accept(f.store, [before], keyring: f.keyring)
            // The phone, offline, keeps writing while the owner revokes it.
            let concurrent = try phone.write(Edits.addStop(sid("p2"), name: "Concurrent"))
            let revocation = try ownerWrite(f, try DeviceEdits.revoke(phone.identity.publicKey, by: f.identity))
            if !revocationFirst {
                // Arrival order on a third replica: the phone's op first, then the revocation.
                let third = try replica(of: f)
                try accept(third, [setup, before, concurrent, revocation], keyring: f.keyring)
                #expect(try stopName(third, f.doc, sid("p2")) == nil)
                #expect(try stopName(third, f.doc, sid("p1")) == "Before")
                #expect(try third.isExcluded(opID(concurrent)))
                continue
            }
            try accept(f.store, [concurrent], keyring: f.keyring)
            #expect(try f.store.isExcluded(opID(concurrent)))
            #expect(try stopName(f.store, f.doc, sid("p2")) == nil)
            #expect(try stopName(f.store, f.doc, sid("p1")) == "Before")
            // Once the phone has seen its revocation, nothing it writes is taken.
            try phone.receive([revocation])
            let after = try phone.write(Edits.addStop(sid("p3"), name: "After"))
            #expect(try refusal(f.store, after, keyring: f.keyring) == "the device was revoked")
            #expect(try f.store.isDeviceRevoked(phone.identity.publicKey, in: f.doc))
            #expect(try f.store.currentRole(of: phone.identity.publicKey, in: f.doc) == nil)
            // The log rebuilt gives the same.
            let view = try DocView(f.store, f.doc)
            try f.store.rebuildMaterialized(keyring: f.keyring)
            #expect(try DocView(f.store, f.doc) == view)
        }
    }

    @Test("a revocation signed by anyone but the device's person is refused")
    func revocationByAnother() throws {
        let f = try Fixture()
        let bruno = try SigningKeyPair()
        let setup = try ownerWrite(f, Edits.itinerary(f) + Edits.add(bruno.publicKey.hex, as: "editor"))
        let phone = try DeviceWriter(f, of: f.identity)
        try phone.receive([setup])
        let first = try phone.write(Edits.addStop(sid("p1"), name: "Phone's"))
        try accept(f.store, [first], keyring: f.keyring)
        // Bruno, an editor, signs a "revocation" of the owner's phone with his own key.
        let brunos = try DeviceWriter(f, of: bruno)
        try brunos.receive([setup, first])
        let forged = try brunos.write(try DeviceEdits.revoke(phone.identity.publicKey, by: bruno))
        #expect(try refusal(f.store, forged, keyring: f.keyring) == "the device revocation is not by its person")
        #expect(try !f.store.isDeviceRevoked(phone.identity.publicKey, in: f.doc))
        // The owner's real revocation, copied in by Bruno's other device (any member may), stands.
        let laptop = try DeviceWriter(f, of: bruno)
        try laptop.receive([setup, first])
        let real = try laptop.write(try DeviceEdits.revoke(phone.identity.publicKey, by: f.identity))
        try accept(f.store, [real], keyring: f.keyring)
        #expect(try f.store.isDeviceRevoked(phone.identity.publicKey, in: f.doc))
    }

    @Test("a member's own revocation of a device not yet in the document never bars that device for its person")
    func preemptiveRevocationByAMember() throws {
        for revocationSeen in [true, false] {
            let f = try Fixture()
            let bruno = try SigningKeyPair()
            let setup = try ownerWrite(f, Edits.itinerary(f) + Edits.add(bruno.publicKey.hex, as: "editor"))
            // Bruno learned the key of the owner's phone (a session, another document) and signs
            // "Bruno revokes that key" into this document, before the phone wrote in it.
            let phone = try DeviceWriter(f, of: f.identity)
            let brunos = try DeviceWriter(f, of: nil)
            try brunos.receive([setup])
            let planted = try DeviceWriter.forged(
                by: bruno, in: brunos, try DeviceEdits.revoke(phone.identity.publicKey, by: bruno))
            try accept(f.store, [planted], keyring: f.keyring)
            // The phone writes as the owner, having seen Bruno's op or not: taken and shown.
            try phone.receive(revocationSeen ? [setup, planted] : [setup])
            let edit = try phone.write(Edits.addStop(sid("p1"), name: "Phone's"))
            try accept(f.store, [edit], keyring: f.keyring)
            #expect(try !f.store.isExcluded(opID(edit)), "seen: \(revocationSeen)")
            #expect(try stopName(f.store, f.doc, sid("p1")) == "Phone's", "seen: \(revocationSeen)")
            #expect(try f.store.currentRole(of: phone.identity.publicKey, in: f.doc) == "owner")
            // Arriving after the phone's op, Bruno's revocation is refused and excludes nothing.
            guard !revocationSeen else { continue }
            let third = try replica(of: f)
            try accept(third, [setup, edit], keyring: f.keyring)
            #expect(try refusal(third, planted, keyring: f.keyring) == "the device revocation is not by its person")
            #expect(try stopName(third, f.doc, sid("p1")) == "Phone's")
            #expect(try !third.isExcluded(opID(edit)))
        }
    }

    @Test("two devices of one person writing at once are two authors, never an equivocation")
    func twoDevicesNeverEquivocate() throws {
        let f = try Fixture()
        let setup = try ownerWrite(f, Edits.itinerary(f) + Edits.addStop(sid("s1"), name: "Lunch"))
        let phone = try DeviceWriter(f, of: f.identity)
        let van = try DeviceWriter(f, of: f.identity)
        try phone.receive([setup])
        try van.receive([setup])
        let a = try phone.write(Edits.rename(sid("s1"), "Phone"))
        let b = try van.write(Edits.rename(sid("s1"), "Van"))
        let c = try ownerWrite(f, Edits.addStop(sid("s2"), name: "Laptop"))
        try accept(f.store, [a, b], keyring: f.keyring)
        try phone.receive([b, c])
        try van.receive([a, c])
        for store in [phone.store, van.store] {
            // Lines of one Lamport time and wall time are listed in arrival order: compared as sets.
            let (theirs, ours) = (try DocView(store, f.doc), try DocView(f.store, f.doc))
            #expect(theirs.entities == ours.entities)
            #expect(Set(theirs.activity) == Set(ours.activity))
        }
        #expect(try f.store.activity(of: f.doc).allSatisfy { $0.action != "equivocated" })
        #expect(try f.store.activity(of: f.doc).allSatisfy { $0.author == f.identity.publicKey.hex })
    }
}
