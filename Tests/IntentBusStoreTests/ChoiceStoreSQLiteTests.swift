import Foundation
import Testing
@testable import IntentBusStore

@Suite("SQLiteDatabase for ChoiceStore")
struct ChoiceStoreSQLiteTests {
    @Test func transactionRollsBackOnError() throws {
        try withTemporaryDirectory { dir in
            let db = try SQLiteDatabase(path: dir + "/t.sqlite3")
            try db.exec("CREATE TABLE t (x INTEGER)")
            struct Boom: Error {}
            #expect(throws: Boom.self) {
                try db.transaction {
                    try db.run("INSERT INTO t VALUES (?)", [.int(1)])
                    throw Boom()
                }
            }
            #expect(try db.scalarInt("SELECT count(*) FROM t") == 0)
            #expect(try db.transaction { try db.run("INSERT INTO t VALUES (?)", [.null]) } == 1)
            #expect(try db.query("SELECT x FROM t") { $0.isNull(0) } == [true])
        }
    }

    @Test func errorsKeepCodesMessageAndOperation() throws {
        try withTemporaryDirectory { dir in
            let db = try SQLiteDatabase(path: dir + "/t.sqlite3")
            let error = #expect(throws: SQLiteError.self) { try db.exec("SELECT * FROM missing") }
            #expect(error?.code == 1)  // SQLITE_ERROR
            #expect(error?.message == "no such table: missing")
            #expect(error?.operation.contains("SELECT * FROM missing") == true)

            let range = #expect(throws: SQLiteError.self) { try db.run("SELECT ?", []) }
            #expect(range?.code == 25)  // SQLITE_RANGE

            db.close()
            #expect(throws: SQLiteError.self) { try db.exec("SELECT 1") }
        }
    }
}
