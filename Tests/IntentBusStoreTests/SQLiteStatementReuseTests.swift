import Foundation
import Testing
@testable import IntentBusStore

/// `SQLiteDatabase` keeps the statements `run` and `query` compile, and reuses them.
@Suite("SQLiteDatabase: compiled statements reused")
struct SQLiteStatementReuseTests {
    @Test("the same SQL run again binds its new values; nothing of the last run stays bound")
    func reuseRebinds() throws {
        try withTemporaryDirectory { dir in
            let db = try SQLiteDatabase(path: dir + "/t.sqlite3")
            try db.exec("CREATE TABLE t (x INTEGER, y TEXT)")
            for i in 1...50 {
                try db.transaction { try db.run("INSERT INTO t VALUES (?, ?)", [.int(Int64(i)), i % 2 == 0 ? .text("even") : .null]) }
            }
            #expect(try db.scalarInt("SELECT count(*) FROM t") == 50)
            #expect(try db.scalarInt("SELECT sum(x) FROM t") == 1_275)
            #expect(try db.scalarInt("SELECT count(*) FROM t WHERE y IS NULL") == 25)
            #expect(try db.query("SELECT x FROM t WHERE x > ? ORDER BY x", [.int(48)]) { $0.int(0) } == [49, 50])
            #expect(try db.query("SELECT x FROM t WHERE x > ? ORDER BY x", [.int(49)]) { $0.int(0) } == [50])
        }
    }

    @Test("a query run again inside its own row closure gets a statement of its own")
    func nestedSameSQL() throws {
        try withTemporaryDirectory { dir in
            let db = try SQLiteDatabase(path: dir + "/t.sqlite3")
            try db.exec("CREATE TABLE t (x INTEGER)")
            for i in 1...3 { try db.run("INSERT INTO t VALUES (?)", [.int(Int64(i))]) }
            let sql = "SELECT x FROM t WHERE x >= ? ORDER BY x"
            let pairs = try db.query(sql, [.int(1)]) { row in
                (row.int(0), (try? db.query(sql, [.int(row.int(0))]) { $0.int(0) }.count) ?? -1)
            }
            #expect(pairs.map(\.0) == [1, 2, 3])
            #expect(pairs.map(\.1) == [3, 2, 1])
        }
    }

    @Test("a failed step leaves the statement usable, and close() ends every kept one")
    func failureThenClose() throws {
        try withTemporaryDirectory { dir in
            let db = try SQLiteDatabase(path: dir + "/t.sqlite3")
            try db.exec("CREATE TABLE t (x INTEGER UNIQUE)")
            try db.run("INSERT INTO t VALUES (?)", [.int(1)])
            let error = #expect(throws: SQLiteError.self) { try db.run("INSERT INTO t VALUES (?)", [.int(1)]) }
            #expect(error?.code == 19)  // SQLITE_CONSTRAINT
            try db.run("INSERT INTO t VALUES (?)", [.int(2)])
            #expect(try db.scalarInt("SELECT count(*) FROM t") == 2)
            db.close()
            #expect(throws: SQLiteError.self) { try db.run("INSERT INTO t VALUES (?)", [.int(3)]) }
        }
    }
}
