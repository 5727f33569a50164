import Foundation
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Relays named inside documents (`Protocol/relay.md` §5.1): the owner of an itinerary, outbox
/// or card it keeps at relays writes a `relay` entity per relay (its key and address), so every
/// member reaches the document through them without having typed a relay's address. A member
/// dials a relay it learned this way only while some other participant of a document that
/// names it is not reachable directly: a direct path goes first, and the relay then carries
/// nothing live for them (it keeps what the owner pushes, for whoever comes back later).
extension Engine {
    /// Most relays one document names (the owner's first by the order they were added); a
    /// member reads no more than these.
    static let maxRelaysPerDocument = 4
    /// Most relays learned from documents that a daemon dials.
    static let maxLearnedRelays = 32

    /// The `relay` entity naming `key`: the first 16 bytes of BLAKE2b-256 of "relay:<key hex>".
    static func relayEntity(_ key: PublicKey) -> EntityID? {
        guard let hash = try? Blake2bStream(), (try? hash.update(Array("relay:\(key.hex)".utf8))) != nil,
            let digest = try? hash.finalize()
        else { return nil }
        return HexCoding.encode(digest.prefix(16))
    }

    // MARK: The owner names its relays

    /// Marks `record` for naming this person's relays in it, after the commit under way.
    func relayNamingAfterCommit(_ record: Store.DocumentRecord) {
        guard let me, record.owner == me.bytes, [.itinerary, .outbox, .card].contains(record.kind),
            relays.namingPending.count < 10_000
        else { return }
        relays.namingPending.insert(record.id)
    }

    /// Names this person's relays in every document marked since the last call (after a
    /// request, an ingest or a relay added or removed). Cheap when nothing is marked.
    func nameRelaysPending() {
        guard !relays.namingPending.isEmpty else { return }
        let docs = relays.namingPending
        relays.namingPending.removeAll()
        let mine = (try? store.relays()) ?? []
        for doc in docs {
            guard let record = try? store.document(doc) else { continue }
            nameRelays(mine, in: record)
        }
    }

    /// Marks every document this person owns that goes to relays (a relay added or removed).
    func nameRelaysEverywhere() {
        guard let me else { return }
        for kind in [Store.DocumentKind.itinerary, .outbox, .card] {
            for record in (try? store.documents(kind: kind)) ?? [] where record.owner == me.bytes {
                relays.namingPending.insert(record.id)
            }
        }
    }

    /// Writes the changes that make `record`'s `relay` entities name `mine` (the first
    /// `maxRelaysPerDocument`) while it goes to relays, and no relay this device stopped using.
    private func nameRelays(_ mine: [Store.RelayRecord], in record: Store.DocumentRecord) {
        guard let me, record.owner == me.bytes else { return }
        let wanted = isRelayDocument(record) ? Array(mine.prefix(Self.maxRelaysPerDocument)) : []
        let held = ((try? store.entities(in: record.id, kind: .relay)) ?? [])
        var changes = [Change]()
        var named = Set<EntityID>()
        for relay in wanted {
            guard let entity = Self.relayEntity(relay.key) else { continue }
            named.insert(entity)
            let current = held.first { $0.id == entity }
            let fields = current.map(Views.fields) ?? [:]
            if current == nil { changes.append(.create(entity: entity, kind: .relay)) }
            let values: [(String, JSONValue)] = [
                (RelayFields.key.name, .string(relay.key.hex)), (RelayFields.address.name, .string(relay.address)),
                (FieldSpec.deleted.name, .bool(false)),
            ]
            for (field, value) in values where fields[field] != value && !(field == "deleted" && current == nil) {
                changes.append(.set(entity: entity, kind: .relay, field: field, value: value, old: fields[field]))
            }
        }
        // Only relays this device added (and since removed) are taken out: another device of
        // this person's names its own relays, and this one leaves them be.
        for entity in held where !entity.deleted && !named.contains(entity.id) {
            guard case .string(let hex)? = Views.fields(entity)[RelayFields.key.name],
                let key = Engine.publicKey(hex: hex), relays.named.contains(key)
            else { continue }
            changes.append(
                .set(entity: entity.id, kind: .relay, field: FieldSpec.deleted.name, value: .bool(true), old: nil))
        }
        guard !changes.isEmpty else { return }
        do {
            _ = try commit(record.id, changes)
            logger.info(
                "named this person's relays in a document",
                metadata: ["doc.id": "\(record.id)", "relays": "\(wanted.count)"])
        } catch {
            logger.error(
                "naming relays in a document failed", metadata: ["doc.id": "\(record.id)", "error": "\(error)"])
        }
    }

    // MARK: Members learn them

    /// Reads the relays `record`'s owner names in it: at most `maxRelaysPerDocument`, never a
    /// key this daemon knows as a person, a device or itself (an owner cannot make a friend
    /// look like a relay here), nor a relay this device added itself (a peer already). In a
    /// document of this person's, they are the relays its other devices added.
    func learnRelays(in record: Store.DocumentRecord) {
        guard me != nil, [.itinerary, .outbox, .card].contains(record.kind) else { return }
        var found = [PublicKey: String]()
        let entities = ((try? store.entities(in: record.id, kind: .relay)) ?? []).filter { !$0.deleted }
        for entity in entities.sorted(by: { $0.id < $1.id }) {
            guard found.count < Self.maxRelaysPerDocument else { break }
            let fields = Views.fields(entity)
            guard case .string(let hex)? = fields[RelayFields.key.name], let key = Engine.publicKey(hex: hex),
                case .string(let address)? = fields[RelayFields.address.name], HostPort.isValid(address),
                entity.id == Self.relayEntity(key), !relays.known.contains(key), mayBeRelay(key)
            else {
                if case .string(let hex)? = fields[RelayFields.key.name], let key = Engine.publicKey(hex: hex),
                    relays.known.contains(key)
                {
                    continue
                }
                logger.info("ignored a relay named in a document", metadata: ["doc.id": "\(record.id)"])
                continue
            }
            found[key] = address
        }
        relays.learn(found, in: record.id, limit: Self.maxLearnedRelays)
    }

    /// Whether `key` may be taken as a relay named in a document: not this daemon, not a
    /// device of this person's, not anyone it knows as a person.
    private func mayBeRelay(_ key: PublicKey) -> Bool {
        key != identity?.publicKey && key != me && !isSibling(key) && person(of: key) == key && !isKnown(key)
    }

    /// Reads the relays of every document held (at start and after unlocking).
    func learnAllRelays() {
        relays.forgetLearned()
        for kind in [Store.DocumentKind.itinerary, .outbox, .card] {
            for record in (try? store.documents(kind: kind)) ?? [] { learnRelays(in: record) }
        }
    }

    // MARK: Direct first

    /// Dials each relay learned from documents while some other participant of a document
    /// naming it has no direct session here, and hangs up on it once they all have one. The
    /// relays this person added stay connected (it keeps what this daemon pushes).
    func steerLearnedRelays() async {
        guard let sync else { return }
        let connected = Set(syncComponent.peerNames.keys.map { person(of: $0) })
        for (key, learned) in relays.learned where !relays.known.contains(key) {
            let needed = learned.docs.contains { doc in
                guard let record = try? store.document(doc) else { return false }
                return participants(of: record).contains { $0 != me && !connected.contains($0) }
            }
            guard needed != (relays.dialled[key] != nil), let (host, port) = Engine.parseHostPort(learned.address)
            else { continue }
            if needed {
                guard await sync.addPeer(host: host, port: port) else { continue }
                relays.dialled[key] = learned.address
                logger.info(
                    "dialling a relay named in a document: a member is not reachable directly",
                    metadata: ["relay.id": "\(key.humanID.prefix(7))"])
            } else {
                relays.dialled[key] = nil
                await sync.forgetPeer(host: host, port: port)
                await sync.disconnect(key, reason: "every member is reachable directly")
                logger.info(
                    "hung up on a relay named in a document: every member is reachable directly",
                    metadata: ["relay.id": "\(key.humanID.prefix(7))"])
            }
        }
        // Relays no document names any more.
        for (key, address) in relays.dialled where relays.learned[key]?.address != address {
            relays.dialled[key] = nil
            if let (host, port) = Engine.parseHostPort(address) { await sync.forgetPeer(host: host, port: port) }
            if !relays.known.contains(key) {
                await sync.disconnect(key, reason: "no document names this relay here any more")
            }
        }
    }
}
