import Foundation
import IntentBusCore

/// A phrase a user recorded for an intent with fixed parameters ("Add to Siri").
package struct UserPhrase: Sendable, Equatable {
    /// The phrase as the user wrote it.
    package let phrase: String
    package let intent: String
    /// A JSON object: the parameters the intent runs with.
    package let parameters: JSON
    /// The plugin it runs on, or nil for whichever the usual choice picks.
    package let plugin: String?
    /// The client that recorded it, when it gave an identity.
    package let client: String?
    package let createdAt: Date
    package let updatedAt: Date

    /// Creates a phrase from its parts.
    package init(phrase: String, intent: String, parameters: JSON, plugin: String?, client: String?,
                 createdAt: Date, updatedAt: Date) {
        self.phrase = phrase
        self.intent = intent
        self.parameters = parameters
        self.plugin = plugin
        self.client = client
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The normalised words the phrase is stored and matched by.
    package var key: String { PhraseText.normalised(phrase) }
}

/// User phrases and donations, in SQLite beside the remembered choices
/// (`shortcuts.sqlite3` in the state directory), with the same durability: WAL with
/// `synchronous=FULL`, so a call that returned has committed and survives `kill -9`.
/// A corrupt file is moved aside and an empty one takes its place, as for choices.
///
/// Storage is bounded: at most `maximumUserPhrases` phrases (more are refused) and
/// `maximumDonations` donations (the oldest are dropped first).
///
/// Threading: not thread-safe; the host uses it from the router thread only.
package final class ShortcutStore {
    package static let fileName = "shortcuts.sqlite3"
    package static var schemaVersion: Int64 { StateSchema.shortcuts.version }
    package static let maximumUserPhrases = 500
    package static let maximumDonations = 2_000

    package let path: String
    private let db: any StateDatabase
    /// Set when a corrupt file was moved aside at open.
    package private(set) var recoveryNote: String?

    /// Opens (or creates) the store in `directory`.
    package init(directory: String) throws(ShortcutStoreError) {
        path = (directory as NSString).appendingPathComponent(Self.fileName)
        do { try ChoiceStore.prepareDirectory(directory) } catch {
            throw ShortcutStoreError(.unavailable, path: directory, detail: error.detail)
        }
        switch Self.open(path) {
        case .success(let opened): db = opened
        case .failure(let error) where error.sqlite?.isCorruption == true:
            let movedTo: String
            do { movedTo = try ChoiceStore.moveAside(path) } catch {
                throw ShortcutStoreError(.unavailable, path: path, detail: error.detail)
            }
            recoveryNote = "the shortcut store was corrupt (\(error.detail)); moved to \(movedTo), starting empty"
            switch Self.open(path) {
            case .success(let opened): db = opened
            case .failure(let again): throw again
            }
        case .failure(let error): throw error
        }
    }

    /// A store on a PostgreSQL database shared with other hosts (`host.state`); connects
    /// on first use (see `ChoiceStore.init(postgres:)`).
    package init(postgres: PostgresDatabase) {
        path = postgres.location
        db = postgres
    }

    private static func open(_ path: String) -> Result<SQLiteDatabase, ShortcutStoreError> {
        do {
            let db = try SQLiteDatabase(path: path)
            _ = try db.scalarText("PRAGMA journal_mode=WAL")
            try db.exec("PRAGMA synchronous=FULL")
            let check = try db.query("PRAGMA quick_check") { $0.text(0) ?? "" }
            guard check == ["ok"] else {
                db.close()
                return .failure(ShortcutStoreError(.unavailable, path: path, detail: "quick_check: \(check.prefix(3).joined(separator: "; "))",
                    sqlite: SQLiteError(code: 11, extendedCode: 11, message: "quick_check failed", operation: "open")))
            }
            try StateSchema.shortcuts.migrate(db)
            return .success(db)
        } catch let error as ShortcutStoreError {
            return .failure(error)
        } catch let error as StateSchema.NewerVersion {
            return .failure(ShortcutStoreError(.unavailable, path: path, detail: error.description))
        } catch let error as SQLiteError {
            return .failure(ShortcutStoreError(.unavailable, path: path, detail: "open failed", sqlite: error))
        } catch {
            return .failure(ShortcutStoreError(.unavailable, path: path, detail: "open failed: \(error)"))
        }
    }

    package func close() { db.close() }

    /// Runs `body`, turning what it throws into a `ShortcutStoreError`.
    package func access<R>(_ operation: String, _ body: (any StateDatabase) throws -> R) throws(ShortcutStoreError) -> R {
        do { return try body(db) } catch let error as ShortcutStoreError {
            throw error
        } catch let error as PostgresError where error.newerSchema != nil {
            throw ShortcutStoreError(.unavailable, path: path, detail: error.newerSchema!.description)
        } catch let error as PostgresError {
            throw ShortcutStoreError(error.isUnavailable ? .stateUnavailable : .queryFailed, path: path,
                                     detail: "\(operation) failed: \(error)")
        } catch let error as StateSchema.NewerVersion {
            throw ShortcutStoreError(.unavailable, path: path, detail: error.description)
        } catch let error as SQLiteError {
            throw ShortcutStoreError(.queryFailed, path: path, detail: "\(operation) failed", sqlite: error)
        } catch {
            throw ShortcutStoreError(.queryFailed, path: path, detail: "\(operation) failed: \(error)")
        }
    }

    package static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
    package static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    // MARK: User phrases

    /// Every user phrase, by its words.
    package func userPhrases() throws(ShortcutStoreError) -> [UserPhrase] {
        try access("list user phrases") { db in
            try db.query("SELECT \(Self.phraseColumns) FROM user_phrases ORDER BY key", row: Self.userPhrase)
        }
    }

    /// The user phrase whose words are `key`, or nil.
    package func userPhrase(key: String) throws(ShortcutStoreError) -> UserPhrase? {
        try access("find a user phrase") { db in
            try db.query("SELECT \(Self.phraseColumns) FROM user_phrases WHERE key = ?", [.text(key)], row: Self.userPhrase).first
        }
    }

    private static let phraseColumns = "phrase, intent, parameters, plugin, client, created_at, updated_at"

    private static func userPhrase(_ row: any StateRow) -> UserPhrase {
        UserPhrase(phrase: row.text(0) ?? "", intent: row.text(1) ?? "",
                   parameters: (try? JSON.parse(row.text(2) ?? "{}")) ?? .object([:]),
                   plugin: row.text(3), client: row.text(4),
                   createdAt: date(row.int(5)), updatedAt: date(row.int(6)))
    }

    /// Stores `phrase`, replacing the one stored under `replacing` (its key) when given.
    /// Refuses a new phrase beyond `maximumUserPhrases`.
    package func save(_ phrase: UserPhrase, replacing: String? = nil) throws(ShortcutStoreError) {
        try access("save a user phrase") { db in
            try db.transaction {
                if let replacing { try db.run("DELETE FROM user_phrases WHERE key = ?", [.text(replacing)]) }
                let count = try db.scalarInt("SELECT count(*) FROM user_phrases") ?? 0
                guard count < Self.maximumUserPhrases else {
                    throw ShortcutStoreError(.queryFailed, path: path,
                        detail: "\(count) user phrases are stored, the most there may be; delete some first")
                }
                try db.run("""
                    INSERT INTO user_phrases (key, phrase, intent, parameters, plugin, client, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.text(phrase.key), .text(phrase.phrase), .text(phrase.intent), .text(phrase.parameters.canonicalString),
                          phrase.plugin.map { .text($0) } ?? .null, phrase.client.map { .text($0) } ?? .null,
                          .int(Self.milliseconds(phrase.createdAt)), .int(Self.milliseconds(phrase.updatedAt))])
                try db.announceChange("user_phrases")
            }
        }
    }

    /// Deletes the user phrase stored under `key`; returns whether there was one.
    package func deleteUserPhrase(key: String) throws(ShortcutStoreError) -> Bool {
        try access("delete a user phrase") { db in
            try db.transaction {
                let removed = try db.run("DELETE FROM user_phrases WHERE key = ?", [.text(key)])
                if removed > 0 { try db.announceChange("user_phrases") }
                return removed
            } > 0
        }
    }
}
