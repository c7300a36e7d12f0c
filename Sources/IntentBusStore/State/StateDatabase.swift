import Foundation

/// Which SQL a `StateDatabase` speaks. The stores write one statement for both where the
/// two agree (upserts, `?` parameters, `RETURNING`) and pick by dialect where they don't
/// (table definitions, the schema version, the clock).
package enum StateDialect: String, Sendable {
    case sqlite
    case postgresql
}

/// A value bound to a `?` parameter of a statement.
package enum StateValue: Sendable, Equatable {
    case text(String)
    case int(Int64)
    case null
}

/// Read access to the current row of a result. Valid only inside the closure it is
/// handed to.
package protocol StateRow {
    /// Column `index` (0-based) as text, or `nil` when it is NULL.
    func text(_ index: Int32) -> String?
    /// Column `index` (0-based) as an integer; NULL reads as 0.
    func int(_ index: Int32) -> Int64
    /// Whether column `index` (0-based) is NULL.
    func isNull(_ index: Int32) -> Bool
}

/// One connection to where the host keeps what users taught it: an SQLite file
/// (`SQLiteDatabase`, the embedded default) or a PostgreSQL server shared by several
/// hosts (`PostgresDatabase`, `host.state: postgresql://…`). The choice and shortcut
/// stores are written against this interface only, so both back ends hold the same
/// tables and run the same migrations (`StateSchema`).
///
/// SQL uses `?` (or `?N`) parameters; the PostgreSQL connection renumbers them `$N`.
///
/// Threading: a connection is used from one thread at a time; its owner serialises.
package protocol StateDatabase: AnyObject {
    /// The SQL this connection speaks.
    var dialect: StateDialect { get }
    /// Where the data is, for messages: the file, or the connection string.
    var location: String { get }
    /// Runs SQL that returns no rows the caller needs (several statements allowed).
    func exec(_ sql: String) throws
    /// Runs one statement with `parameters`; returns how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ parameters: [StateValue]) throws -> Int
    /// Runs a query and maps every row with `transform`.
    func query<T>(_ sql: String, _ parameters: [StateValue], row transform: (any StateRow) -> T) throws -> [T]
    /// Runs `body` in one transaction that takes the write lock first; rolls back and
    /// rethrows when `body` or the commit throws. Transactions do not nest.
    func transaction<R>(_ body: () throws -> R) throws -> R
    /// The schema version of `store` (0 for a new database). Inside `transaction`.
    func schemaVersion(store: String) throws -> Int64
    /// Records `version` as `store`'s schema. Inside `transaction`.
    func setSchemaVersion(_ version: Int64, store: String) throws
    /// Tells the other hosts on this database that `table` changed, at commit (PostgreSQL's
    /// NOTIFY); nothing for a file only this host writes. Inside `transaction`.
    func announceChange(_ table: String) throws
    /// Closes the connection; later calls fail. Idempotent.
    func close()
}

extension StateDatabase {
    /// `run` without parameters.
    @discardableResult
    package func run(_ sql: String) throws -> Int { try run(sql, []) }

    /// `query` without parameters.
    package func query<T>(_ sql: String, row transform: (any StateRow) -> T) throws -> [T] {
        try query(sql, [], row: transform)
    }

    /// The first column of the first row as an integer, or nil without rows.
    package func scalarInt(_ sql: String, _ parameters: [StateValue] = []) throws -> Int64? {
        try query(sql, parameters) { $0.int(0) }.first
    }
}
