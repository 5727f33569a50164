import Foundation
import PlacesAPI
import PlacesBlobs
import PlacesControl
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Photos' state (issue 16): the blob store, and the photo wants recently allowed.
///
/// A component of the engine (docs/devices-design.md §1): it owns the store of photos and
/// other blobs under `DATA_DIR/blobs`, opened on first use, and the per-peer decisions to
/// give a photo, each kept a few seconds; `Engine+Photos` and `Engine+Blobs` hold the rules.
struct PhotoComponent: EngineComponent {
    /// The most bytes of blobs one daemon keeps (photos it added and received).
    static let blobQuotaBytes: Int64 = 4 << 30

    /// The blob store, once opened.
    private var blobs: BlobStore?
    /// Photo wants allowed recently, by `peer/photo`, until when.
    private var permissions: [String: ContinuousClock.Instant] = [:]

    /// Photos' copies at relays by relay name (`Protocol/relay.md` §8): those this daemon
    /// wants from its relays and those it gives them, with the photo's giver. At most
    /// `maxRelayCopies`, emptied when full (found again from the documents).
    var relayCopies: [[UInt8]: (copy: RelayBlob, giver: PublicKey)] = [:]
    static let maxRelayCopies = 8_192
    /// The copies announced to each connected relay this session, by document: a document's
    /// are announced first when the relay offers it (it holds its access list), then as posts
    /// name new ones.
    var relayAnnounced: [PublicKey: [DocumentID: Set<[UInt8]>]] = [:]

    /// Trips where a message this daemon just wrote names photos: their copies are announced
    /// to the relays after the commit (at most `maxRelayCopies`, emptied when full).
    var tripPhotosNamed: Set<DocumentID> = []

    mutating func noteTripPhotos(_ doc: DocumentID) {
        if tripPhotosNamed.count >= Self.maxRelayCopies { tripPhotosNamed.removeAll() }
        tripPhotosNamed.insert(doc)
    }

    /// Remembers a copy by its relay name; one remembered already keeps its giver unless
    /// `replacing` (this daemon gives it: its own message names the photo too).
    mutating func remember(_ copy: RelayBlob, giver: PublicKey, replacing: Bool = false) {
        if let held = relayCopies[copy.name], !replacing || held.giver == giver { return }
        if relayCopies.count >= Self.maxRelayCopies { relayCopies.removeAll() }
        relayCopies[copy.name] = (copy, giver)
    }

    /// The blob store under `directory`, opened on first use.
    mutating func blobStore(directory: String) throws -> BlobStore {
        if let blobs { return blobs }
        do {
            let opened = try BlobStore(
                directory: directory, quotaBytes: Self.blobQuotaBytes, maxBlobBytes: FieldRule.maxPhotoBytes)
            blobs = opened
            return opened
        } catch {
            throw ServiceError.store("Could not open the photo store", error.message, cause: error)
        }
    }

    /// Whether giving the photo `id` to `peer` was allowed within the few seconds before `now`.
    func allowsGiving(_ id: BlobID, to peer: PublicKey, at now: ContinuousClock.Instant) -> Bool {
        guard let until = permissions[Self.key(id, peer)] else { return false }
        return now < until
    }

    /// Keeps a decision to give the photo `id` to `peer` (allowed: for five seconds after
    /// `now`) or forgets the last one (refused).
    mutating func decided(_ allowed: Bool, _ id: BlobID, to peer: PublicKey, at now: ContinuousClock.Instant) {
        let key = Self.key(id, peer)
        guard allowed else {
            permissions[key] = nil
            return
        }
        if permissions.count > 4_096 { permissions.removeAll() }
        permissions[key] = now + .seconds(5)
    }

    private static func key(_ id: BlobID, _ peer: PublicKey) -> String { "\(peer.hex)/\(id.hex)" }
}
