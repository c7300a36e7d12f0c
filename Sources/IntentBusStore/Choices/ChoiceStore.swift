import Foundation
import IntentBusCore

/// Remembers which plugin handles an intent when several claim it, so that a client
/// that answered "always" is not asked again. Backed by SQLite in WAL mode with
/// `synchronous=FULL`: a call that returned has committed, and survives the host being
/// killed with `kill -9` (and a power cut).
///
/// An entry is either for one client or global (`client == nil`, any client). When
/// both exist, the client's own entry wins.
///
/// Corruption never stops the host: if the file is not a database or fails
/// `PRAGMA quick_check` when opened, it is moved aside, an empty database takes its
/// place, and `recovery` says what happened. Other failures (permissions, locks, I/O)
/// are thrown, and the file is left alone, because they are not a reason to forget
/// what users chose.
///
/// Threading: thread-safe. Every call takes an internal lock for its whole duration,
/// so the host may call it from any thread; calls are short (one small transaction).
package final class ChoiceStore: @unchecked Sendable {
    // @unchecked: `database` is only read or written inside `lock.withLock`.
    // `directory`, `databasePath` and `recovery` are immutable.
    private let lock = Lock()
    private var database: (any StateDatabase)?

    /// The name of the database file inside the store's directory.
    package static let fileName = "choices.sqlite3"
    /// The schema this code writes (`StateSchema.choices`).
    package static var schemaVersion: Int64 { StateSchema.choices.version }

    /// The directory given to `init`.
    package let directory: String
    /// The database file: `directory/choices.sqlite3`.
    package let databasePath: String
    /// Set when the database was found corrupt at open and replaced by an empty one.
    package let recovery: ChoiceStoreRecovery?
    /// Whether other hosts share the database (PostgreSQL; such a store has no directory).
    package var isShared: Bool { directory.isEmpty }
    /// `recovery?.note`: one line for the host's log, or `nil` when nothing happened.
    package var recoveryNote: String? { recovery?.note }

    /// Opens the store in `directory`, creating the directory and the database file
    /// if they are missing. A corrupt database is set aside and recreated (see
    /// `recovery`).
    ///
    /// - Throws: `.directoryUnavailable` when the directory cannot be created or
    ///   written; `.databaseUnavailable` when the file cannot be opened for a reason
    ///   other than corruption; `.unsupportedSchemaVersion` when a newer IntentBus
    ///   wrote it; `.recoveryFailed` when a corrupt file could not be replaced.
    package init(directory: String) throws(ChoiceStoreError) {
        try Self.prepareDirectory(directory)
        let path = (directory as NSString).appendingPathComponent(Self.fileName)
        self.directory = directory
        self.databasePath = path

        switch Self.open(path) {
        case .success(let opened):
            database = opened
            recovery = nil
        case .failure(.failed(let error)):
            throw error
        case .failure(.corrupt(let reason, let sqlite)):
            let movedTo = try Self.moveAside(path)
            switch Self.open(path) {
            case .success(let opened):
                database = opened
                recovery = ChoiceStoreRecovery(
                    reason: reason, originalPath: path, movedTo: movedTo, sqlite: sqlite)
            case .failure(.failed(let error)):
                throw error
            case .failure(.corrupt(let again, let sqlite)):
                throw ChoiceStoreError(
                    .recoveryFailed, path: path,
                    detail: "recreated database is still corrupt (\(again)); the damaged file is at \(movedTo)",
                    sqlite: sqlite)
            }
        }
    }

    /// A store on a PostgreSQL database shared with other hosts (`host.state`). Does not
    /// connect: the first call does, and brings the schema up to date then (the caller
    /// sets `db.onConnect` to `StateSchema` migrations, see `StateConnections`).
    package init(postgres db: PostgresDatabase) {
        directory = ""
        databasePath = db.location
        recovery = nil
        database = db
    }

    /// Closes the database. Later calls throw `.closed`. Idempotent; also done when
    /// the store is released.
    package func close() {
        lock.withLock {
            database?.close()
            database = nil
        }
    }

    // MARK: Queries

    /// The plugin remembered for `intent` when `client` asks: the client's own entry
    /// if there is one, otherwise the global entry, otherwise `nil`. With
    /// `client == nil`, only the global entry counts.
    package func defaultPlugin(intent: String, client: String?) throws(ChoiceStoreError) -> RememberedChoice? {
        try Self.require(intent, "intent", path: databasePath)
        let clientKey = try Self.clientKey(client, path: databasePath)
        return try withDatabase("defaultPlugin") { db in
            // '' sorts before any client id, so "client = ''" puts the global entry last.
            try db.query(
                "SELECT \(Self.columns) FROM choices WHERE intent = ?1 AND client IN (?2, '') ORDER BY client = '' LIMIT 1",
                [.text(intent), .text(clientKey)], row: Self.choice
            ).first
        }
    }

    /// Every remembered choice, sorted by intent and then client, with the global
    /// entry (`client == nil`) first. Strings compare byte by byte (UTF-8).
    package func list() throws(ChoiceStoreError) -> [RememberedChoice] {
        try withDatabase("list") { db in
            try db.query("SELECT \(Self.columns) FROM choices ORDER BY intent, client", row: Self.choice)
        }
    }

    // MARK: Changes

    /// Remembers `plugin` as the default for `intent`, for `client` or, when `client`
    /// is `nil`, for every client. Replaces any entry for the same intent and client.
    ///
    /// - Parameters:
    ///   - source: who chose: `"always"`, `"cli"` or `"api"`.
    ///   - date: when; stored to the millisecond.
    /// - Returns: the entry as stored, with `setAt` rounded down to the millisecond.
    @discardableResult
    package func remember(intent: String, client: String?, plugin: String, source: String,
                         at date: Date = Date()) throws(ChoiceStoreError) -> RememberedChoice {
        try Self.require(intent, "intent", path: databasePath)
        try Self.require(plugin, "plugin", path: databasePath)
        try Self.require(source, "source", path: databasePath)
        let clientKey = try Self.clientKey(client, path: databasePath)
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let stored = try withDatabase("remember") { db in
            try db.transaction {
                // Shared: the database's clock, read when the row is written, so that
                // `set_at` orders the writes of one choice as they were committed (a later
                // writer waits for the earlier one's row lock). Embedded: the host's clock.
                let shared = db.dialect == .postgresql
                let clock = shared ? "(extract(epoch FROM clock_timestamp()) * 1000)::bigint" : "?5"
                let setAt = try db.query("""
                    INSERT INTO choices (intent, client, plugin, source, set_at) VALUES (?1, ?2, ?3, ?4, \(clock))
                    ON CONFLICT (intent, client) DO UPDATE SET
                        plugin = excluded.plugin, set_at = \(clock), source = excluded.source
                    RETURNING set_at
                    """,
                    [.text(intent), .text(clientKey), .text(plugin), .text(source)] + (shared ? [] : [.int(milliseconds)])) { $0.int(0) }.first
                try db.announceChange("choices")
                return setAt ?? milliseconds
            }
        }
        return RememberedChoice(intent: intent, client: client, plugin: plugin,
                                setAt: Self.date(milliseconds: stored), source: source)
    }

    /// Forgets remembered choices for `intent`.
    ///
    /// With `client == nil`, removes every entry for the intent: the global one and
    /// those of every client ("reset this intent"). With a client, removes only that
    /// client's entry; the global entry stays.
    ///
    /// - Returns: how many entries were removed.
    @discardableResult
    package func reset(intent: String, client: String?) throws(ChoiceStoreError) -> Int {
        try Self.require(intent, "intent", path: databasePath)
        if let client {
            try Self.require(client, "client", path: databasePath)
            return try withDatabase("reset") { db in
                try db.transaction {
                    let removed = try db.run("DELETE FROM choices WHERE intent = ? AND client = ?",
                                             [.text(intent), .text(client)])
                    try db.announceChange("choices")
                    return removed
                }
            }
        }
        return try withDatabase("reset") { db in
            try db.transaction {
                let removed = try db.run("DELETE FROM choices WHERE intent = ?", [.text(intent)])
                try db.announceChange("choices")
                return removed
            }
        }
    }

    /// Forgets every remembered choice. Returns how many entries were removed.
    @discardableResult
    package func resetAll() throws(ChoiceStoreError) -> Int {
        try withDatabase("resetAll") { db in
            try db.transaction {
                let removed = try db.run("DELETE FROM choices")
                try db.announceChange("choices")
                return removed
            }
        }
    }

    // MARK: Access

    /// Runs `body` under the lock with the open database, and turns whatever it throws
    /// into a `ChoiceStoreError`.
    private func withDatabase<R>(
        _ operation: String, _ body: (any StateDatabase) throws -> R
    ) throws(ChoiceStoreError) -> R {
        do {
            return try lock.withLock {
                guard let database else {
                    throw ChoiceStoreError(.closed, path: databasePath, detail: "\(operation) after close()")
                }
                return try body(database)
            }
        } catch let error as ChoiceStoreError {
            throw error
        } catch let error as SQLiteError {
            throw ChoiceStoreError(.queryFailed, path: databasePath, detail: "\(operation) failed", sqlite: error)
        } catch let error as PostgresError where error.newerSchema != nil {
            throw ChoiceStoreError(.unsupportedSchemaVersion, path: databasePath, detail: error.newerSchema!.description)
        } catch let error as PostgresError {
            throw ChoiceStoreError(error.isUnavailable ? .stateUnavailable : .queryFailed, path: databasePath,
                                   detail: "\(operation) failed: \(error)")
        } catch let error as StateSchema.NewerVersion {
            throw ChoiceStoreError(.unsupportedSchemaVersion, path: databasePath, detail: error.description)
        } catch {
            throw ChoiceStoreError(.queryFailed, path: databasePath, detail: "\(operation) failed: \(error)")
        }
    }

    // MARK: Rows

    // The global entry is stored with client '' rather than NULL: NULLs are distinct
    // in a primary key, so an upsert would never find the existing global entry.
    private static let columns = "intent, client, plugin, set_at, source"

    private static func choice(_ row: any StateRow) -> RememberedChoice {
        let client = row.text(1) ?? ""
        return RememberedChoice(
            intent: row.text(0) ?? "", client: client.isEmpty ? nil : client,
            plugin: row.text(2) ?? "", setAt: date(milliseconds: row.int(3)),
            source: row.text(4) ?? "")
    }

    private static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// The stored form of `client`: `''` for every client. An empty client id would
    /// be confused with that, so it is refused.
    private static func clientKey(_ client: String?, path: String) throws(ChoiceStoreError) -> String {
        guard let client else { return "" }
        try require(client, "client", path: path)
        return client
    }

    private static func require(_ value: String, _ name: String, path: String) throws(ChoiceStoreError) {
        if value.isEmpty {
            throw ChoiceStoreError(.invalidArgument, path: path, detail: "\(name) must not be empty")
        }
    }
}
