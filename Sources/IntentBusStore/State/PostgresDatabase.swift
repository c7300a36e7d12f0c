internal import CPostgres
import Foundation

/// One connection to a PostgreSQL server, through libpq. C pointers stay inside this file.
///
/// The connection is made on first use and made again after it broke, with a backoff
/// (100 ms doubling to 2 s): while the server is away every call fails at once with an
/// error whose `isUnavailable` is true, so that a write is refused quickly instead of
/// waiting, and the first call after the server is back succeeds. `onConnect` runs on
/// every new connection before anything else (the schema's migrations, `LISTEN`).
///
/// Credentials follow libpq's conventions only (`PGPASSFILE` or `~/.pgpass`, a service
/// file, `PG*` variables): a connection string that carries a password is refused by
/// `init`, so none is ever written in a manifest or shown in a log.
///
/// Threading: not thread-safe; one thread at a time, as for `SQLiteDatabase`.
package final class PostgresDatabase: StateDatabase {
    /// The connection string as given (it carries no password).
    package let location: String
    /// PostgreSQL's SQL.
    package var dialect: StateDialect { .postgresql }
    /// Runs on every new connection, before the call that made it; a throw drops the
    /// connection again.
    package var onConnect: ((PostgresDatabase) throws -> Void)?

    private var connection: OpaquePointer?
    private var closed = false
    private var inTransaction = false
    /// Monotonic nanoseconds before which no new connection is attempted.
    private var retryAt: UInt64 = 0
    private var backoff = PostgresDatabase.initialBackoff
    private static let initialBackoff: UInt64 = 100_000_000
    private static let maximumBackoff: UInt64 = 2_000_000_000
    /// SQL with `?` parameters renumbered `$N`, by the original text; bounded.
    private var renumbered: [String: String] = [:]

    /// Checks `conninfo` (a `postgresql://` URL or `key=value` pairs) and keeps it; does
    /// not connect.
    ///
    /// - Throws: when libpq cannot parse it, or it carries a password.
    package init(conninfo: String) throws(PostgresError) {
        if let problem = Self.problem(in: conninfo) {
            throw PostgresError(sqlState: nil, message: problem, operation: "PQconninfoParse", isUnavailable: false)
        }
        location = conninfo
    }

    deinit { PQfinish(connection) }

    /// Why `conninfo` cannot be used, or nil: libpq's own parser reads it, so every form
    /// it accepts (URL, `key=value`, `?password=`) is checked the same way.
    package static func problem(in conninfo: String) -> String? {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &message) else {
            let reason = message.map { String(cString: $0) } ?? "out of memory"
            PQfreemem(message)
            return "not a PostgreSQL connection string: \(Self.oneLine(reason))"
        }
        defer { PQconninfoFree(options) }
        var index = 0
        while let keyword = options[index].keyword {
            if String(cString: keyword) == "password", let value = options[index].val, value.pointee != 0 {
                return "the connection string carries a password; give it through PGPASSFILE (~/.pgpass), a service file (PGSERVICEFILE) or PGPASSWORD, never in the manifest"
            }
            index += 1
        }
        return nil
    }

    /// Closes the connection. Later calls fail. Idempotent.
    package func close() {
        PQfinish(connection)
        connection = nil
        closed = true
    }

    // MARK: Statements

    package func exec(_ sql: String) throws(PostgresError) {
        let conn = try ready("PQexec")
        let result = PQexec(conn, sql)
        try check(result, conn, "PQexec \(sql)")
        PQclear(result)
    }

    @discardableResult
    package func run(_ sql: String, _ parameters: [StateValue]) throws(PostgresError) -> Int {
        let result = try execute(sql, parameters)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    package func query<T>(_ sql: String, _ parameters: [StateValue], row transform: (any StateRow) -> T) throws(PostgresError) -> [T] {
        let result = try execute(sql, parameters)
        defer { PQclear(result) }
        let count = PQntuples(result)
        var rows: [T] = []
        rows.reserveCapacity(Int(count))
        for index in 0..<count { rows.append(transform(PostgresRow(result: result, row: index))) }
        return rows
    }

    /// `BEGIN … COMMIT`; rolled back when `body` or the commit throws. Writers of one row
    /// queue on its lock, so the transaction that commits later is the one whose values
    /// stay.
    package func transaction<R>(_ body: () throws -> R) throws -> R {
        precondition(!inTransaction, "PostgresDatabase.transaction does not nest")
        try run("BEGIN", [])
        inTransaction = true
        defer { inTransaction = false }
        do {
            let result = try body()
            try run("COMMIT", [])
            return result
        } catch {
            if let connection, PQstatus(connection) == CONNECTION_OK { PQclear(PQexec(connection, "ROLLBACK")) }
            throw error
        }
    }

    /// The version in `intentbus_schema`, the table of every store's schema version
    /// (created here when missing). Takes a transaction-wide advisory lock first, so
    /// that hosts starting together on a new database migrate one after the other.
    package func schemaVersion(store: String) throws(PostgresError) -> Int64 {
        _ = try query("SELECT pg_advisory_xact_lock(?)", [.int(Self.migrationLock)]) { _ in () }
        try exec("CREATE TABLE IF NOT EXISTS intentbus_schema (store TEXT PRIMARY KEY, version BIGINT NOT NULL)")
        return try query("SELECT version FROM intentbus_schema WHERE store = ?", [.text(store)]) { $0.int(0) }.first ?? 0
    }

    package func setSchemaVersion(_ version: Int64, store: String) throws(PostgresError) {
        try run("""
            INSERT INTO intentbus_schema (store, version) VALUES (?, ?)
            ON CONFLICT (store) DO UPDATE SET version = excluded.version
            """, [.text(store), .int(version)])
    }

    /// `NOTIFY intentbus_state, table`: delivered to every listening host when the
    /// transaction commits, and not at all when it rolls back.
    package func announceChange(_ table: String) throws(PostgresError) {
        _ = try query("SELECT pg_notify(?, ?)", [.text(Self.channel), .text(table)]) { _ in () }
    }

    /// The channel the stores announce their changes on.
    package static let channel = "intentbus_state"
    /// The advisory lock key of schema migrations ("IBSCHEMA" in ASCII, as a number).
    private static let migrationLock: Int64 = 0x4942_5343_4845_4D41

    // MARK: Notifications

    /// The payloads (table names) of the notifications that arrived, waiting up to
    /// `timeoutMilliseconds` for the first. The caller has run `LISTEN` (in `onConnect`).
    ///
    /// - Throws: when there is no connection, or it broke while waiting.
    package func notifications(timeoutMilliseconds: Int32) throws(PostgresError) -> [String] {
        let conn = try ready("LISTEN")
        var payloads = Self.drain(conn)
        guard payloads.isEmpty else { return payloads }
        var descriptor = pollfd(fd: PQsocket(conn), events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, timeoutMilliseconds) > 0 else { return [] }
        if PQconsumeInput(conn) == 0 || PQstatus(conn) != CONNECTION_OK {
            let message = Self.oneLine(String(cString: PQerrorMessage(conn)))
            drop()
            throw PostgresError(sqlState: nil, message: message.isEmpty ? "connection lost" : message,
                                operation: "PQconsumeInput", isUnavailable: true)
        }
        payloads = Self.drain(conn)
        return payloads
    }

    private static func drain(_ conn: OpaquePointer) -> [String] {
        var payloads: [String] = []
        while let notice = PQnotifies(conn) {
            payloads.append(String(cString: notice.pointee.extra))
            PQfreemem(notice)
        }
        return payloads
    }

    // MARK: The connection

    /// The open connection, made (again) when there is none and the backoff allows.
    private func ready(_ operation: String) throws(PostgresError) -> OpaquePointer {
        guard !closed else {
            throw PostgresError(sqlState: nil, message: "the connection is closed", operation: operation, isUnavailable: false)
        }
        if let connection {
            if PQstatus(connection) == CONNECTION_OK { return connection }
            drop()
        }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now >= retryAt else {
            throw PostgresError(sqlState: nil, message: "the database is unreachable; next attempt in \((retryAt - now) / 1_000_000) ms",
                                operation: operation, isUnavailable: true)
        }
        let conn = Self.connect(location)
        guard let conn, PQstatus(conn) == CONNECTION_OK else {
            let message = conn.map { Self.oneLine(String(cString: PQerrorMessage($0))) } ?? "out of memory"
            PQfinish(conn)
            retryAt = now + backoff
            backoff = min(backoff * 2, Self.maximumBackoff)
            throw PostgresError(sqlState: nil, message: message, operation: "PQconnectdbParams", isUnavailable: true)
        }
        connection = conn
        do {
            try onConnect?(self)
        } catch {
            drop()
            retryAt = now + backoff
            backoff = min(backoff * 2, Self.maximumBackoff)
            if let error = error as? PostgresError { throw error }
            throw PostgresError(sqlState: nil, message: "\(error)", operation: "on connect", isUnavailable: false,
                                newerSchema: error as? StateSchema.NewerVersion)
        }
        backoff = Self.initialBackoff
        return conn
    }

    /// Connects with the host's defaults first, so that the connection string's own
    /// values win: a 3 s connect timeout, 5 s for unacknowledged TCP data, the
    /// application name, and no NOTICE lines (libpq would print them on stderr).
    private static func connect(_ conninfo: String) -> OpaquePointer? {
        let pairs = [("connect_timeout", "3"), ("tcp_user_timeout", "5000"), ("application_name", "intentbus"),
                     ("options", "-c client_min_messages=warning"), ("dbname", conninfo)]
        let keywords = pairs.map { strdup($0.0) }, values = pairs.map { strdup($0.1) }
        defer { (keywords + values).forEach { free($0) } }
        let k = keywords.map { UnsafePointer($0) } + [nil], v = values.map { UnsafePointer($0) } + [nil]
        return PQconnectdbParams(k, v, 1)
    }

    private func drop() {
        PQfinish(connection)
        connection = nil
    }

    /// Runs one statement with its parameters as text (the server infers their types).
    private func execute(_ sql: String, _ parameters: [StateValue]) throws(PostgresError) -> OpaquePointer {
        let conn = try ready("PQexecParams")
        var texts: [String?] = []
        for value in parameters {
            switch value {
            case .null: texts.append(nil)
            case .int(let number): texts.append(String(number))
            case .text(let text):
                // A C string ends at the first NUL, and PostgreSQL's text cannot hold one.
                guard !text.utf8.contains(0) else {
                    throw PostgresError(sqlState: "22021", message: "text contains a NUL character, which PostgreSQL cannot store",
                                        operation: "PQexecParams \(sql)", isUnavailable: false)
                }
                texts.append(text)
            }
        }
        let copies = texts.map { $0.flatMap { strdup($0) } }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) }
        let result = PQexecParams(conn, numbered(sql), Int32(pointers.count), nil, pointers, nil, nil, 0)
        try check(result, conn, "PQexecParams \(sql)")
        return result!
    }

    /// Throws (and frees `result`) unless it is a success; drops a broken connection, so
    /// that the next call makes a new one at once.
    private func check(_ result: OpaquePointer?, _ conn: OpaquePointer, _ operation: String) throws(PostgresError) {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK { return }
        let sqlState = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) }
        let message = Self.oneLine(String(cString: PQerrorMessage(conn)))
        PQclear(result)
        let lost = PQstatus(conn) != CONNECTION_OK
        if lost {
            drop()
            retryAt = 0
            backoff = Self.initialBackoff
        }
        throw PostgresError(sqlState: sqlState, message: message, operation: operation,
                            isUnavailable: lost || result == nil || PostgresError.meansUnavailable(sqlState))
    }

    /// `sql` with each `?` (or `?N`) written `$N`, as PostgreSQL numbers parameters.
    /// The stores' SQL has no `?` inside string literals.
    private func numbered(_ sql: String) -> String {
        if let done = renumbered[sql] { return done }
        var out = "", next = 0
        var characters = sql.makeIterator()
        var pending = characters.next()
        while let character = pending {
            pending = characters.next()
            guard character == "?" else { out.append(character); continue }
            var digits = ""
            while let digit = pending, digit.isASCII, digit.isNumber { digits.append(digit); pending = characters.next() }
            next += 1
            out += "$" + (digits.isEmpty ? String(next) : digits)
        }
        if renumbered.count < 64 { renumbered[sql] = out }
        return out
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }
}

/// A row of a libpq result, read as text (the results are in text format).
private struct PostgresRow: StateRow {
    let result: OpaquePointer
    let row: Int32

    func text(_ index: Int32) -> String? {
        PQgetisnull(result, row, index) != 0 ? nil : String(cString: PQgetvalue(result, row, index))
    }

    func int(_ index: Int32) -> Int64 { text(index).flatMap { Int64($0) } ?? 0 }

    func isNull(_ index: Int32) -> Bool { PQgetisnull(result, row, index) != 0 }
}
