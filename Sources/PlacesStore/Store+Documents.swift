import Foundation
import GRDB
import PlacesCrypto
import PlacesModel

/// Documents and their sealed keys: creating, listing, purging.
extension Store {
    /// Registers a new document with its first key sealed to the owner.
    public func createDocument(
        _ id: DocumentID, kind: DocumentKind, owner: PublicKey, sealedKey: [UInt8], timeMs: Int64
    ) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "INSERT INTO document(id, kind, owner, created_ms) VALUES (?, ?, ?, ?)",
                arguments: [Data(id.bytes), kind.rawValue, Data(owner.bytes), timeMs])
            try db.execute(
                sql: "INSERT INTO doc_key(doc, epoch, sealed) VALUES (?, 0, ?)",
                arguments: [Data(id.bytes), Data(sealedKey)])
        }
    }

    /// All documents, optionally of one kind.
    public func documents(kind: DocumentKind? = nil) throws(StoreError) -> [DocumentRecord] {
        try read { db in
            if let kind {
                return try Store.fetchDocuments(db, "WHERE kind = ? ORDER BY created_ms") { $0.bind(kind.rawValue) }
            }
            return try Store.fetchDocuments(db, "ORDER BY created_ms") { _ in }
        }
    }

    /// One document, or nil.
    public func document(_ id: DocumentID) throws(StoreError) -> DocumentRecord? {
        let kept = documentRecords.lookup(id)
        if let record = kept.record { return record }
        let record = try readOne { db in try Store.fetchDocuments(db, "WHERE id = ?") { $0.bind(id.bytes) }.first }
        if let record { documentRecords.keep(record, readAt: kept.generation) }
        return record
    }

    /// The owner's public key of a document, or nil when there is no such document.
    static func owner(_ db: Database, of doc: DocumentID) throws -> [UInt8]? {
        try fetchDocuments(db, "WHERE id = ?") { $0.bind(doc.bytes) }.first?.owner
    }

    /// Document rows through a cached statement (every control request resolves one).
    static func fetchDocuments(_ db: Database, _ clause: String, bind: (inout RawStatement) -> Void) throws
        -> [DocumentRecord]
    {
        var statement = try RawStatement(db, "SELECT id, kind, owner, created_ms FROM document \(clause)")
        bind(&statement)
        var records = [DocumentRecord]()
        try statement.forEachRow(db) { row in
            guard let id = DocumentID(bytes: row.blob(0)), let kind = DocumentKind(rawValue: row.string(1)) else {
                return
            }
            records.append(DocumentRecord(id: id, kind: kind, owner: row.blob(2), createdMs: row.int64(3)))
        }
        return records
    }

    /// Deletes a document with its log, keys and materialized rows (owner's delete, or leaving).
    public func purgeDocument(_ id: DocumentID) throws(StoreError) {
        try write { db in
            let doc = Data(id.bytes)
            for table in [
                "entity", "activity", "member_event", "head", "op", "key_grant", "doc_key", "document",
            ] {
                let column = table == "document" ? "id" : "doc"
                try db.execute(sql: "DELETE FROM \(table) WHERE \(column) = ?", arguments: [doc])
            }
        }
        documentRecords.forget(id)
    }

    /// Every sealed document key, for unlocking at login.
    public func sealedKeys() throws(StoreError) -> [(doc: DocumentID, epoch: UInt32, sealed: [UInt8])] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT doc, epoch, sealed FROM doc_key").compactMap { row in
                guard let doc = DocumentID(bytes: [UInt8](row["doc"] as Data)) else { return nil }
                return (doc, UInt32(row["epoch"] as Int64), [UInt8](row["sealed"] as Data))
            }
        }
    }
}
