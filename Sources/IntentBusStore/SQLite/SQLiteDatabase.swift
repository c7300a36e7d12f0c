internal import CSQLite

/// A failed SQLite call. Keeps the primary and extended result codes, the text of
/// `sqlite3_errmsg` at the moment of failure, and what was being done, so that a log
/// line says exactly what went wrong.
package struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code, for example `SQLITE_BUSY` (5) or `SQLITE_NOTADB` (26).
    package let code: Int32
    /// The extended result code, for example `SQLITE_IOERR_FSYNC`.
    package let extendedCode: Int32
    /// SQLite's own message for the failure (`sqlite3_errmsg`).
    package let message: String
    /// What was being done: the C function and, where useful, the SQL.
    package let operation: String

    /// Creates an error from its parts; the wrapper builds these from the connection.
    package init(code: Int32, extendedCode: Int32, message: String, operation: String) {
        self.code = code
        self.extendedCode = extendedCode
        self.message = message
        self.operation = operation
    }

    /// The file is not a database, or its contents are damaged. Only these two codes
    /// justify setting the file aside; locks, I/O and permission errors do not.
    package var isCorruption: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }

    /// `operation: message (code N, extended N)`.
    package var description: String {
        "\(operation): \(message) (code \(code), extended \(extendedCode))"
    }
}

/// One open SQLite connection. C pointers stay inside this file.
///
/// Threading: not thread-safe. A connection is used from one thread at a time; the
/// owner (for example `ChoiceStore`) serialises access with its own lock. Statements
/// keep the connection alive and must be used under the same rule.
package final class SQLiteDatabase: StateDatabase {
    /// The database file, as given to `init`.
    package let path: String
    /// SQLite's SQL.
    package var dialect: StateDialect { .sqlite }
    /// The database file.
    package var location: String { path }
    private var handle: OpaquePointer?
    /// Statements compiled by `run` and `query`, by their SQL text, kept for the next call
    /// with the same text: compiling took more instructions than running a donation's
    /// INSERT (callgrind, docs/performance.md). Finalised by `close()` and `deinit`.
    private var compiled: [String: OpaquePointer] = [:]
    private static let maximumCompiled = 64

    /// Opens `path` for reading and writing, creating the file if it is missing.
    ///
    /// Opening does not read the file: a file that is not a database is reported by
    /// the first statement that touches it.
    package init(path: String, busyTimeoutMilliseconds: Int32 = 5_000) throws(SQLiteError) {
        self.path = path
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            // Even a failed open usually hands back a handle that carries the message,
            // and it must be closed.
            let error = SQLiteError(
                code: rc & 0xff, extendedCode: db.map(sqlite3_extended_errcode) ?? rc,
                message: db.map { String(cString: sqlite3_errmsg($0)) }
                    ?? String(cString: sqlite3_errstr(rc)),
                operation: "sqlite3_open_v2 \(path)")
            sqlite3_close_v2(db)
            throw error
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
    }

    deinit {
        finalizeCompiled()
        sqlite3_close_v2(handle)
    }

    private func finalizeCompiled() {
        for statement in compiled.values { sqlite3_finalize(statement) }
        compiled.removeAll()
    }

    /// Closes the connection. Later calls fail with `SQLITE_MISUSE`. Idempotent.
    package func close() {
        // close_v2 defers the real close until outstanding statements are finalised,
        // so a statement that outlives this call cannot touch freed memory.
        finalizeCompiled()
        sqlite3_close_v2(handle)
        handle = nil
    }

    /// Whether `close()` has been called.
    package var isClosed: Bool { handle == nil }

    /// Runs one or more SQL statements that return no rows the caller needs.
    package func exec(_ sql: String) throws(SQLiteError) {
        let db = try openHandle("sqlite3_exec")
        let rc = sqlite3_exec(db, sql, nil, nil, nil)
        if rc != SQLITE_OK { throw error(rc, "sqlite3_exec \(sql)") }
    }

    /// Compiles `sql` into a statement bound to this connection.
    package func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        let db = try openHandle("sqlite3_prepare_v2")
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            sqlite3_finalize(stmt)
            throw error(rc == SQLITE_OK ? SQLITE_MISUSE : rc, "sqlite3_prepare_v2 \(sql)")
        }
        return SQLiteStatement(database: self, statement: stmt, sql: sql)
    }

    /// The statement for `sql` from `compiled`, reset when released; compiled and kept
    /// when it is not there yet. A kept statement still in use (a query's row closure
    /// running the same SQL) is not shared: that call gets one of its own.
    private func reusable(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = compiled[sql], sqlite3_stmt_busy(statement) == 0 {
            return SQLiteStatement(database: self, statement: statement, sql: sql, kept: true)
        }
        let fresh = try prepare(sql)
        guard compiled[sql] == nil, compiled.count < Self.maximumCompiled else { return fresh }
        compiled[sql] = fresh.keep()
        return SQLiteStatement(database: self, statement: compiled[sql]!, sql: sql, kept: true)
    }

    /// Runs a statement with `parameters` and returns how many rows it changed.
    @discardableResult
    package func run(_ sql: String, _ parameters: [StateValue]) throws(SQLiteError) -> Int {
        let statement = try reusable(sql)
        try statement.bind(parameters)
        while try statement.step() {}
        return changes
    }

    /// Runs a query and maps every row with `row`. The `SQLiteRow` is valid only
    /// inside the closure.
    package func query<T>(
        _ sql: String, _ parameters: [StateValue] = [],
        row transform: (any StateRow) -> T
    ) throws(SQLiteError) -> [T] {
        let statement = try reusable(sql)
        try statement.bind(parameters)
        var rows: [T] = []
        while try statement.step() { rows.append(transform(statement.currentRow)) }
        return rows
    }

    /// The first column of the first row as text, for `PRAGMA` queries.
    package func scalarText(_ sql: String) throws(SQLiteError) -> String? {
        try query(sql) { $0.text(0) }.first ?? nil
    }

    /// `PRAGMA user_version`: one store per file, so `store` names nothing here.
    package func schemaVersion(store: String) throws(SQLiteError) -> Int64 {
        try query("PRAGMA user_version") { $0.int(0) }.first ?? 0
    }

    /// Sets `PRAGMA user_version`.
    package func setSchemaVersion(_ version: Int64, store: String) throws(SQLiteError) {
        try exec("PRAGMA user_version = \(version)")
    }

    /// Nothing: only this host writes the file, and it knows its own changes.
    package func announceChange(_ table: String) {}

    /// Rows changed by the most recent INSERT, UPDATE or DELETE.
    package var changes: Int { handle.map { Int(sqlite3_changes64($0)) } ?? 0 }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`. If `body` or the commit throws,
    /// the transaction is rolled back and the error rethrown.
    ///
    /// `IMMEDIATE` takes the write lock up front, so a writer waits (up to the busy
    /// timeout) at `BEGIN` instead of failing with `SQLITE_BUSY` half-way through.
    /// Transactions do not nest.
    package func transaction<R>(_ body: () throws -> R) throws -> R {
        let db = try openHandle("BEGIN IMMEDIATE")
        precondition(sqlite3_get_autocommit(db) != 0, "SQLiteDatabase.transaction does not nest")
        try run("BEGIN IMMEDIATE", [])
        do {
            let result = try body()
            try run("COMMIT", [])
            return result
        } catch {
            // A failed COMMIT may leave the transaction open; ROLLBACK's own failure
            // (no transaction active) adds nothing to the original error.
            if sqlite3_get_autocommit(db) == 0 { _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    // MARK: Internals shared with SQLiteStatement

    fileprivate func openHandle(_ operation: String) throws(SQLiteError) -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(code: SQLITE_MISUSE, extendedCode: SQLITE_MISUSE,
                              message: "database connection is closed", operation: operation)
        }
        return handle
    }

    fileprivate func error(_ rc: Int32, _ operation: String) -> SQLiteError {
        // sqlite3_errmsg describes the most recent failure on this connection, which
        // is the call that returned `rc`: the owner's lock keeps other calls out.
        guard let handle else {
            return SQLiteError(code: rc & 0xff, extendedCode: rc,
                               message: String(cString: sqlite3_errstr(rc)), operation: operation)
        }
        return SQLiteError(code: rc & 0xff, extendedCode: sqlite3_extended_errcode(handle),
                           message: String(cString: sqlite3_errmsg(handle)), operation: operation)
    }
}

/// Tells SQLite to copy bound text before the bind call returns
/// (`SQLITE_TRANSIENT`, a macro Swift cannot import).
private var sqliteTransient: sqlite3_destructor_type {
    unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self)
}

/// A compiled statement. Finalised when released.
///
/// Threading: the same rule as its `SQLiteDatabase`.
package final class SQLiteStatement {
    // Strong reference: the connection must outlive its statements.
    private let database: SQLiteDatabase
    private let statement: OpaquePointer
    private let sql: String
    /// The database keeps the compiled statement (`SQLiteDatabase.reusable`): released,
    /// this one is only reset.
    private var kept: Bool

    fileprivate init(database: SQLiteDatabase, statement: OpaquePointer, sql: String, kept: Bool = false) {
        self.database = database
        self.statement = statement
        self.sql = sql
        self.kept = kept
    }

    deinit {
        if kept {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        } else {
            sqlite3_finalize(statement)
        }
    }

    /// Hands the compiled statement to the database, which keeps it; this object then no
    /// longer finalises it.
    fileprivate func keep() -> OpaquePointer {
        kept = true
        return statement
    }

    /// Binds `values` to the statement's `?` parameters, in order.
    package func bind(_ values: [StateValue]) throws(SQLiteError) {
        let expected = Int(sqlite3_bind_parameter_count(statement))
        guard values.count == expected else {
            throw SQLiteError(code: SQLITE_RANGE, extendedCode: SQLITE_RANGE,
                              message: "\(values.count) values for \(expected) parameters",
                              operation: "sqlite3_bind \(sql)")
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null:
                rc = sqlite3_bind_null(statement, index)
            case .int(let number):
                rc = sqlite3_bind_int64(statement, index, number)
            case .text(let text):
                // An explicit length keeps embedded NULs; the terminator is not counted.
                rc = text.utf8CString.withUnsafeBufferPointer {
                    sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count - 1),
                                      sqliteTransient)
                }
            }
            if rc != SQLITE_OK { throw database.error(rc, "sqlite3_bind \(sql)") }
        }
    }

    /// Advances to the next row. Returns `true` when a row is available and `false`
    /// when the statement has finished.
    package func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let rc: throw database.error(rc, "sqlite3_step \(sql)")
        }
    }

    /// The row `step()` last produced.
    fileprivate var currentRow: SQLiteRow { SQLiteRow(statement: statement) }
}

/// Read access to the current row of a statement. Valid only until the next `step()`,
/// which is why it is only ever handed to a closure.
package struct SQLiteRow: StateRow {
    fileprivate let statement: OpaquePointer

    /// Column `index` (0-based) as text, or `nil` when it is NULL.
    package func text(_ index: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, index) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Column `index` (0-based) as an integer; NULL reads as 0.
    package func int(_ index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }

    /// Whether column `index` (0-based) is NULL.
    package func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }
}
