import Foundation
import Testing
import IntentBus
@testable import PluginHost
import IntentBusTestSupport
import IntentBusStore

/// What only a database shared by several hosts has: concurrent writers, change
/// announcements, a server that goes away and comes back, credentials kept out of the
/// manifest. On a real PostgreSQL server of the suite's own.
@Suite("Shared state on PostgreSQL", .serialized, .temporaryPostgres)
struct SharedStateStoreTests {
    private func database() throws -> String {
        let server = try #require(SharedPostgres.current, "the suite's PostgreSQL server")
        return try server.createDatabase("t_\(UInt32.random(in: 0...UInt32.max))")
    }

    @Test("concurrent writes of one choice: the later commit wins, and set_at (the database's clock) orders the commits")
    func laterCommitWins() throws {
        let url = try database()
        let early = ChoiceStore(postgres: try PostgresDatabase.forState(url))
        defer { early.close() }
        _ = try early.list()
        // The first writer holds the row's lock in an open transaction while the second
        // writes: the second commits later, so it is the one that stays.
        let holder = try PostgresDatabase.forState(url)
        defer { holder.close() }
        let late = ChoiceStore(postgres: try PostgresDatabase.forState(url))
        defer { late.close() }
        _ = try late.list()
        let lateResult = Locked<RememberedChoice?>(nil)
        let lateDone = DispatchSemaphore(value: 0)
        let firstSetAt: Int64 = try holder.transaction {
            let setAt = try holder.query("""
                INSERT INTO choices (intent, client, plugin, set_at, source)
                VALUES ('I', '', 'first', (extract(epoch FROM clock_timestamp()) * 1000)::bigint, 'api') RETURNING set_at
                """, []) { $0.int(0) }.first ?? 0
            Thread.detachNewThread {
                lateResult.withLock { $0 = try? late.remember(intent: "I", client: nil, plugin: "second", source: "api") }
                lateDone.signal()
            }
            #expect(lateDone.wait(timeout: .now() + 0.5) == .timedOut, "the second writer waits for the first's commit")
            return setAt
        }
        #expect(lateDone.wait(timeout: .now() + 10) == .success)
        let second = try #require(lateResult.withLock { $0 })
        #expect(Int64(second.setAt.timeIntervalSince1970 * 1000) >= firstSetAt + 400, "set_at is read when the row is written, after the wait")
        #expect(try early.defaultPlugin(intent: "I", client: nil)?.plugin == "second")

        // Many writers at once: whatever the interleaving, the stored choice is one of
        // the writes with the latest set_at, and every store reads it back.
        let stores = try (0..<4).map { _ in ChoiceStore(postgres: try PostgresDatabase.forState(url)) }
        defer { stores.forEach { $0.close() } }
        let written = Locked<[RememberedChoice]>([])
        DispatchQueue.concurrentPerform(iterations: stores.count) { index in
            for round in 0..<25 {
                if let choice = try? stores[index].remember(intent: "Hot", client: "kim", plugin: "p\(index)-\(round)", source: "api") {
                    written.withLock { $0.append(choice) }
                }
            }
        }
        let all = written.withLock { $0 }
        #expect(all.count == 100)
        let latest = try #require(all.map(\.setAt).max())
        let stored = try #require(try early.defaultPlugin(intent: "Hot", client: "kim"))
        #expect(all.filter { $0.setAt == latest }.map(\.plugin).contains(stored.plugin))
        #expect(stored.setAt == latest)
        for store in stores { #expect(try store.defaultPlugin(intent: "Hot", client: "kim") == stored) }
    }

    @Test("a committed change is announced to listening connections (NOTIFY), a rolled-back one is not")
    func announcements() throws {
        let url = try database()
        let listener = try PostgresDatabase.forState(url, listening: true)
        defer { listener.close() }
        #expect(try listener.notifications(timeoutMilliseconds: 0).isEmpty)
        let choices = ChoiceStore(postgres: try PostgresDatabase.forState(url))
        let shortcuts = ShortcutStore(postgres: try PostgresDatabase.forState(url))
        defer { choices.close(); shortcuts.close() }
        try choices.remember(intent: "I", client: nil, plugin: "p", source: "cli")
        let started = Date()
        #expect(try listener.notifications(timeoutMilliseconds: 2_000) == ["choices"])
        #expect(Date().timeIntervalSince(started) < 0.1, "delivered at commit")
        try shortcuts.save(UserPhrase(phrase: "hallo welt", intent: "I", parameters: [:], plugin: nil, client: nil,
                                      createdAt: Date(), updatedAt: Date()))
        #expect(try listener.notifications(timeoutMilliseconds: 2_000) == ["user_phrases"])
        let raw = try PostgresDatabase(conninfo: url)
        defer { raw.close() }
        #expect(throws: PostgresError.self) {
            try raw.transaction {
                try raw.announceChange("choices")
                throw PostgresError(sqlState: nil, message: "abandoned", operation: "test", isUnavailable: false)
            }
        }
        #expect(try listener.notifications(timeoutMilliseconds: 300).isEmpty)
    }

    @Test("the server goes away: calls fail at once with stateUnavailable; it comes back: the same store writes again")
    func unreachableThenBack() throws {
        let server = try #require(SharedPostgres.current)
        let url = try database()
        let store = ChoiceStore(postgres: try PostgresDatabase.forState(url))
        let shortcuts = ShortcutStore(postgres: try PostgresDatabase.forState(url))
        defer { store.close(); shortcuts.close() }
        try store.remember(intent: "I", client: nil, plugin: "before", source: "cli")
        _ = try shortcuts.userPhrases()
        try server.stop()
        var restarted = false
        defer { if !restarted { try? server.start() } }
        let started = Date()
        let error = try #require(throws: ChoiceStoreError.self) {
            try store.remember(intent: "I", client: nil, plugin: "during", source: "cli")
        }
        #expect(error.code == .stateUnavailable)
        #expect(Date().timeIntervalSince(started) < 3)
        let again = try #require(throws: ChoiceStoreError.self) { try store.list() }
        #expect(again.code == .stateUnavailable)
        let phrases = try #require(throws: ShortcutStoreError.self) { try shortcuts.userPhrases() }
        #expect(phrases.code == .stateUnavailable)
        try server.start()
        restarted = true
        // The connection's backoff is at most 2 s: within 5 s the same store writes again.
        var written: RememberedChoice?
        let deadline = Date().addingTimeInterval(5)
        while written == nil, Date() < deadline {
            written = try? store.remember(intent: "I", client: nil, plugin: "after", source: "cli")
            if written == nil { usleep(100_000) }
        }
        #expect(written?.plugin == "after")
        #expect(try store.defaultPlugin(intent: "I", client: nil)?.plugin == "after")
        #expect(try shortcuts.userPhrases().isEmpty)
    }

    @Test("a password in the connection string is refused, in every form libpq reads")
    func passwordRefused() throws {
        for conninfo in ["postgresql://kim:secret@localhost/db", "postgres://kim@localhost/db?password=secret",
                         "host=localhost dbname=db password=secret"] {
            let error = try #require(throws: PostgresError.self) { try PostgresDatabase(conninfo: conninfo) }
            #expect(error.message.contains("PGPASSFILE"), "\(conninfo)")
            #expect(!error.description.contains("secret"))
        }
        #expect(throws: PostgresError.self) { try PostgresDatabase(conninfo: "postgresql://[oops") }
        #expect(PostgresDatabase.problem(in: "postgresql://kim@localhost/db?sslmode=require") == nil)
        #expect(HostSectionReader.stateProblem("postgresql://kim:secret@db.example/intentbus")?.contains("password") == true)
        #expect(HostSectionReader.stateProblem("postgresql://db.example/intentbus?password=x")?.contains("password") == true)
        #expect(HostSectionReader.stateProblem("mysql://db.example/x")?.contains("postgresql://") == true)
        #expect(HostSectionReader.stateProblem("postgresql://kim@db.example:5433/intentbus?sslmode=require") == nil)
    }
}

/// A value shared by the test's threads, under a lock.
private final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched inside `lock.withLock`.
    private let lock = Lock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}
