import Foundation
import Testing
import IntentBusCore
@testable import IntentBusStore
import IntentBusTestSupport

/// Which back end a case of `StateStoreTests` runs on.
enum StateBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgresql
    var testDescription: String { rawValue }
}

/// One fresh database of a back end: an SQLite directory, or a database of its own on the
/// suite's PostgreSQL server. Opens as many stores on it as a test wants (for PostgreSQL,
/// each on a connection of its own, as two hosts would).
struct StateFixture {
    let backend: StateBackend
    /// The directory (SQLite) or connection URL (PostgreSQL).
    let location: String

    func choices() throws -> ChoiceStore {
        switch backend {
        case .sqlite: try ChoiceStore(directory: location)
        case .postgresql: ChoiceStore(postgres: try PostgresDatabase.forState(location))
        }
    }

    func shortcuts() throws -> ShortcutStore {
        switch backend {
        case .sqlite: try ShortcutStore(directory: location)
        case .postgresql: ShortcutStore(postgres: try PostgresDatabase.forState(location))
        }
    }

    /// A raw connection to the same database, for what the stores do not offer.
    func raw(_ file: String) throws -> any StateDatabase {
        switch backend {
        case .sqlite: try SQLiteDatabase(path: "\(location)/\(file)")
        case .postgresql: try PostgresDatabase(conninfo: location)
        }
    }

    static func make(_ backend: StateBackend, _ body: (StateFixture) throws -> Void) throws {
        switch backend {
        case .sqlite:
            let dir = TempDir()
            defer { dir.remove() }
            try body(StateFixture(backend: backend, location: dir.path + "/state"))
        case .postgresql:
            let server = try #require(SharedPostgres.current, "the suite's PostgreSQL server")
            let name = "t_\(UInt32.random(in: 0...UInt32.max))"
            try body(StateFixture(backend: backend, location: try server.createDatabase(name)))
        }
    }
}

private let t0 = Date(timeIntervalSince1970: 1_796_025_600)  // 2026-11-30T08:00:00Z

private func donation(_ intent: String, at: Date, identifier: String? = nil, group: String? = nil,
                      plugin: String? = "p", client: String? = nil) -> Donation {
    Donation(identifier: identifier, group: group, intent: intent, parameters: ["n": .int(1)], plugin: plugin, client: client,
             title: nil, phrase: nil, eligibleForPrediction: true, source: .client, at: at)
}

/// The stores of what users taught the host, the same checks on both back ends: the
/// embedded SQLite files and a real PostgreSQL server (started for the suite by
/// scripts/pg-temp.sh; the suite fails, never skips, when it cannot start).
@Suite("State stores on SQLite and PostgreSQL", .serialized, .temporaryPostgres)
struct StateStoreTests {
    @Test("choices: the client's own entry wins over everyone's, listing is byte-ordered, resets remove what they say",
          arguments: StateBackend.allCases)
    func choices(_ backend: StateBackend) throws {
        try StateFixture.make(backend) { fixture in
            let store = try fixture.choices()
            defer { store.close() }
            try store.remember(intent: "I", client: nil, plugin: "all", source: "cli", at: t0)
            try store.remember(intent: "I", client: "kim", plugin: "own", source: "always", at: t0)
            try store.remember(intent: "B", client: "é", plugin: "x", source: "api", at: t0)
            try store.remember(intent: "a", client: "Z", plugin: "y", source: "api", at: t0)
            #expect(try store.defaultPlugin(intent: "I", client: "kim")?.plugin == "own")
            #expect(try store.defaultPlugin(intent: "I", client: "ada")?.plugin == "all")
            #expect(try store.defaultPlugin(intent: "I", client: nil)?.plugin == "all")
            #expect(try store.defaultPlugin(intent: "J", client: "kim") == nil)
            // Byte order, whatever the server's locale: "B" < "I" < "a", and '' (everyone) first.
            #expect(try store.list().map { "\($0.intent)/\($0.client ?? "*")" } == ["B/é", "I/*", "I/kim", "a/Z"])
            try store.remember(intent: "I", client: "kim", plugin: "other", source: "cli", at: t0)
            #expect(try store.defaultPlugin(intent: "I", client: "kim")?.plugin == "other", "a second remember replaces")
            #expect(try store.reset(intent: "I", client: "kim") == 1)
            #expect(try store.defaultPlugin(intent: "I", client: "kim")?.plugin == "all")
            #expect(try store.reset(intent: "I", client: nil) == 1)
            #expect(try store.resetAll() == 2)
            #expect(try store.list().isEmpty)
            #expect(throws: ChoiceStoreError.self) { try store.remember(intent: "", client: nil, plugin: "p", source: "cli") }
        }
    }

    @Test("two stores on one database (two hosts) see each other's committed choices", arguments: StateBackend.allCases)
    func twoStoresOneDatabase(_ backend: StateBackend) throws {
        try StateFixture.make(backend) { fixture in
            let a = try fixture.choices(), b = try fixture.choices()
            defer { a.close(); b.close() }
            let stored = try a.remember(intent: "I", client: "kim", plugin: "beta", source: "always")
            #expect(try b.defaultPlugin(intent: "I", client: "kim") == stored)
            #expect(try b.reset(intent: "I", client: nil) == 1)
            #expect(try a.list().isEmpty)
        }
    }

    @Test("user phrases: stored by their words, replaced, deleted, seen by a second store", arguments: StateBackend.allCases)
    func userPhrases(_ backend: StateBackend) throws {
        try StateFixture.make(backend) { fixture in
            let store = try fixture.shortcuts(), other = try fixture.shortcuts()
            defer { store.close(); other.close() }
            let phrase = UserPhrase(phrase: "Warenkorb zeigen", intent: "ShowCartIntent", parameters: ["customer": "ada"],
                                    plugin: nil, client: "kim", createdAt: t0, updatedAt: t0)
            try store.save(phrase)
            #expect(try other.userPhrase(key: PhraseText.normalised("warenkorb, ZEIGEN!")) == phrase)
            let renamed = UserPhrase(phrase: "Mein Warenkorb", intent: "ShowCartIntent", parameters: ["customer": "bob"],
                                     plugin: "cart", client: nil, createdAt: t0, updatedAt: t0.addingTimeInterval(1))
            try store.save(renamed, replacing: phrase.key)
            #expect(try other.userPhrases() == [renamed])
            #expect(throws: ShortcutStoreError.self, "the same words twice") { try store.save(renamed) }
            #expect(try other.deleteUserPhrase(key: renamed.key))
            #expect(try !store.deleteUserPhrase(key: renamed.key))
            #expect(try store.userPhrases().isEmpty)
        }
    }

    @Test("donations: ids grow, newest first, deleted by identifier, group, plugin and client; the oldest beyond the bound go",
          arguments: StateBackend.allCases)
    func donations(_ backend: StateBackend) throws {
        try StateFixture.make(backend) { fixture in
            let store = try fixture.shortcuts()
            defer { store.close() }
            let first = try store.donate(donation("A", at: t0, identifier: "one", group: "g"))
            let second = try store.donate(donation("B", at: t0, identifier: "two", group: "g", plugin: "q", client: "kim"))
            #expect(second.id > first.id)
            #expect(try store.donations().map(\.intent) == ["B", "A"])
            #expect(try store.donations(plugin: "q").map(\.intent) == ["B"])
            #expect(try store.deleteDonations(.identifiers(["one"]), client: "kim") == 0, "not kim's")
            #expect(try store.deleteDonations(.group("g"), plugin: "q") == 1)
            #expect(try store.deleteDonations(.identifiers(["one"])) == 1)
            let burst = (0..<(ShortcutStore.maximumDonations + 5)).map { donation("D\($0)", at: t0) }
            try store.donate(batch: burst)
            let kept = try store.donations()
            #expect(kept.count == ShortcutStore.maximumDonations)
            #expect(kept.first?.intent == "D\(ShortcutStore.maximumDonations + 4)")
            #expect(kept.last?.intent == "D5", "the five oldest were dropped")
        }
    }

    @Test("schema: each store records its version; opening again migrates nothing; a newer version is refused, untouched",
          arguments: StateBackend.allCases)
    func schemaVersions(_ backend: StateBackend) throws {
        try StateFixture.make(backend) { fixture in
            try fixture.choices().close()
            try fixture.choices().close()
            let store = try fixture.shortcuts()
            _ = try store.userPhrases()  // a PostgreSQL store connects (and migrates) on first use
            store.close()
            let raw = try fixture.raw(ChoiceStore.fileName)
            defer { raw.close() }
            try raw.transaction {
                #expect(try raw.schemaVersion(store: "choices") == StateSchema.choices.version)
                try raw.setSchemaVersion(99, store: "choices")
            }
            if backend == .postgresql {
                let shortcuts = try PostgresDatabase(conninfo: fixture.location)
                defer { shortcuts.close() }
                #expect(try shortcuts.transaction { try shortcuts.schemaVersion(store: "shortcuts") } == StateSchema.shortcuts.version)
            }
            let error = try #require(throws: ChoiceStoreError.self) {
                let reopened = try fixture.choices()
                defer { reopened.close() }
                _ = try reopened.list()
            }
            #expect(error.code == .unsupportedSchemaVersion)
            #expect(error.description.contains("99"))
        }
    }
}
