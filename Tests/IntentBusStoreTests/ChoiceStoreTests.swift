import Foundation
import Testing
@testable import IntentBusStore

/// Runs `body` with a fresh, empty directory that is removed afterwards, so that tests
/// can run in parallel without sharing files.
func withTemporaryDirectory<R>(_ body: (String) throws -> R) throws -> R {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("ChoiceStoreTests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

private func databasePath(_ directory: String) -> String {
    (directory as NSString).appendingPathComponent(ChoiceStore.fileName)
}

/// Files in `directory` whose names start with `prefix`.
private func files(in directory: String, prefix: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory)
        .filter { $0.hasPrefix(prefix) }.sorted()
}

@Suite("ChoiceStore")
struct ChoiceStoreTests {
    let date = Date(timeIntervalSince1970: 1_750_000_000.123)

    // MARK: Basic operations

    @Test func newStoreIsEmpty() throws {
        try withTemporaryDirectory { dir in
            let store = try ChoiceStore(directory: dir)
            #expect(store.recovery == nil)
            #expect(try store.list().isEmpty)
            #expect(try store.defaultPlugin(intent: "INSendPaymentIntent", client: "siri") == nil)
            #expect(FileManager.default.fileExists(atPath: databasePath(dir)))
        }
    }

    @Test func missingDirectoryIsCreated() throws {
        try withTemporaryDirectory { dir in
            let nested = dir + "/a/b/c"
            let store = try ChoiceStore(directory: nested)
            try store.remember(intent: "I", client: nil, plugin: "p", source: "cli")
            #expect(FileManager.default.fileExists(atPath: databasePath(nested)))
        }
    }

    @Test func rememberGetListReset() throws {
        try withTemporaryDirectory { dir in
            let store = try ChoiceStore(directory: dir)
            let stored = try store.remember(intent: "INSendPaymentIntent", client: "siri",
                                            plugin: "balance", source: "always", at: date)
            #expect(stored == RememberedChoice(
                intent: "INSendPaymentIntent", client: "siri", plugin: "balance",
                setAt: Date(timeIntervalSince1970: 1_750_000_000.123), source: "always"))
            #expect(try store.defaultPlugin(intent: "INSendPaymentIntent", client: "siri") == stored)

            // Upsert: same intent and client replaces plugin, time and source.
            let replaced = try store.remember(intent: "INSendPaymentIntent", client: "siri",
                                              plugin: "messenger", source: "cli", at: date + 60)
            #expect(try store.defaultPlugin(intent: "INSendPaymentIntent", client: "siri") == replaced)
            #expect(try store.list().count == 1)

            try store.remember(intent: "INSendMessageIntent", client: nil, plugin: "messenger", source: "api", at: date)
            try store.remember(intent: "INSendPaymentIntent", client: nil, plugin: "balance", source: "api", at: date)
            try store.remember(intent: "INSendPaymentIntent", client: "car", plugin: "echo", source: "always", at: date)

            let listed = try store.list()
            #expect(listed.map(\.intent) == ["INSendMessageIntent", "INSendPaymentIntent",
                                             "INSendPaymentIntent", "INSendPaymentIntent"])
            #expect(listed.map(\.client) == [nil, nil, "car", "siri"])

            #expect(try store.reset(intent: "INSendPaymentIntent", client: "car") == 1)
            #expect(try store.reset(intent: "INSendPaymentIntent", client: "car") == 0)
            #expect(try store.defaultPlugin(intent: "INSendPaymentIntent", client: "car")?.plugin == "balance")

            // No client: the whole intent goes, global and per-client entries alike.
            #expect(try store.reset(intent: "INSendPaymentIntent", client: nil) == 2)
            #expect(try store.list().map(\.intent) == ["INSendMessageIntent"])
            #expect(try store.reset(intent: "NoSuchIntent", client: nil) == 0)

            try store.remember(intent: "A", client: "x", plugin: "p", source: "cli")
            #expect(try store.resetAll() == 2)
            #expect(try store.list().isEmpty)
            #expect(try store.resetAll() == 0)
        }
    }

    @Test func perClientEntryWinsOverGlobal() throws {
        try withTemporaryDirectory { dir in
            let store = try ChoiceStore(directory: dir)
            try store.remember(intent: "I", client: nil, plugin: "global", source: "cli")
            try store.remember(intent: "I", client: "siri", plugin: "mine", source: "always")

            #expect(try store.defaultPlugin(intent: "I", client: "siri")?.plugin == "mine")
            #expect(try store.defaultPlugin(intent: "I", client: "car")?.plugin == "global")
            #expect(try store.defaultPlugin(intent: "I", client: nil)?.plugin == "global")
            #expect(try store.defaultPlugin(intent: "other", client: "siri") == nil)

            // Only a client entry: a request without that client finds nothing.
            try store.remember(intent: "J", client: "siri", plugin: "mine", source: "always")
            #expect(try store.defaultPlugin(intent: "J", client: "car") == nil)
            #expect(try store.defaultPlugin(intent: "J", client: nil) == nil)
        }
    }

    @Test func emptyArgumentsAreRefused() throws {
        try withTemporaryDirectory { dir in
            let store = try ChoiceStore(directory: dir)
            let error = #expect(throws: ChoiceStoreError.self) {
                try store.remember(intent: "I", client: "", plugin: "p", source: "cli")
            }
            #expect(error?.code == .invalidArgument)
            #expect(throws: ChoiceStoreError.self) {
                try store.remember(intent: "", client: nil, plugin: "p", source: "cli")
            }
            #expect(throws: ChoiceStoreError.self) { try store.defaultPlugin(intent: "I", client: "") }
            #expect(try store.list().isEmpty)
        }
    }

    @Test func textIsStoredExactly() throws {
        try withTemporaryDirectory { dir in
            let store = try ChoiceStore(directory: dir)
            let odd = "Zahlung senden 💶 'quoted'; DROP TABLE choices; --\u{0}after-nul"
            try store.remember(intent: odd, client: odd, plugin: odd, source: "api")
            let got = try store.defaultPlugin(intent: odd, client: odd)
            #expect(got?.intent == odd)
            #expect(got?.client == odd)
            #expect(got?.plugin == odd)
        }
    }

    @Test func closedStoreThrows() throws {
        try withTemporaryDirectory { dir in
            let store = try ChoiceStore(directory: dir)
            store.close()
            store.close()
            let error = #expect(throws: ChoiceStoreError.self) { try store.list() }
            #expect(error?.code == .closed)
        }
    }

    @Test func concurrentCallsAreSerialised() throws {
        try withTemporaryDirectory { dir in
            let store = try ChoiceStore(directory: dir)
            DispatchQueue.concurrentPerform(iterations: 40) { index in
                do {
                    try store.remember(intent: "I\(index % 10)", client: "c\(index)", plugin: "p", source: "api")
                    _ = try store.defaultPlugin(intent: "I\(index % 10)", client: "c\(index)")
                } catch {
                    Issue.record("concurrent call failed: \(error)")
                }
            }
            #expect(try store.list().count == 40)
        }
    }

    // MARK: Persistence

    @Test func choicesSurviveReopening() throws {
        try withTemporaryDirectory { dir in
            let first = try ChoiceStore(directory: dir)
            let stored = try first.remember(intent: "I", client: "siri", plugin: "p", source: "always", at: date)
            try first.remember(intent: "I", client: nil, plugin: "q", source: "cli", at: date)
            first.close()

            let second = try ChoiceStore(directory: dir)
            #expect(second.recovery == nil)
            #expect(try second.defaultPlugin(intent: "I", client: "siri") == stored)
            #expect(try second.list().count == 2)
        }
    }

    /// A committed choice is visible to an independent connection while the writer is
    /// still open, i.e. it is in the WAL on disk and not only in the writer's memory.
    @Test func committedChoiceIsVisibleWhileWriterStaysOpen() throws {
        try withTemporaryDirectory { dir in
            let writer = try ChoiceStore(directory: dir)
            let stored = try writer.remember(intent: "I", client: "siri", plugin: "p", source: "always", at: date)
            #expect(FileManager.default.fileExists(atPath: databasePath(dir) + "-wal"))

            let reader = try ChoiceStore(directory: dir)
            #expect(reader.recovery == nil)
            #expect(try reader.defaultPlugin(intent: "I", client: "siri") == stored)
            withExtendedLifetime(writer) {}
        }
    }

    /// A process that committed a choice and was then killed with SIGKILL leaves a WAL
    /// that was never checkpointed; opening must replay it, not call it corrupt. The
    /// writer is the sqlite3 shell with the store's own settings, since the test has no
    /// executable of its own to kill; the host-level test kills the real host.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
    func choiceCommittedByKilledProcessSurvives() throws {
        try withTemporaryDirectory { dir in
            try ChoiceStore(directory: dir).close()

            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            shell.arguments = [databasePath(dir)]
            let input = Pipe(), output = Pipe()
            shell.standardInput = input
            shell.standardOutput = output
            try shell.run()
            input.fileHandleForWriting.write(Data("""
                PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;
                INSERT INTO choices (intent, client, plugin, set_at, source)
                    VALUES ('I', 'siri', 'p', 1750000000123, 'always');
                SELECT 'committed';

                """.utf8))
            var seen = ""
            while !seen.contains("committed") {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                seen += String(decoding: chunk, as: UTF8.self)
            }
            #expect(seen.contains("committed"))
            kill(shell.processIdentifier, SIGKILL)
            shell.waitUntilExit()
            #expect(shell.terminationReason == .uncaughtSignal)
            #expect(FileManager.default.fileExists(atPath: databasePath(dir) + "-wal"))

            let store = try ChoiceStore(directory: dir)
            #expect(store.recovery == nil)
            #expect(try store.defaultPlugin(intent: "I", client: "siri") == RememberedChoice(
                intent: "I", client: "siri", plugin: "p",
                setAt: Date(timeIntervalSince1970: 1_750_000_000.123), source: "always"))
        }
    }

    // MARK: Damaged or unusable files

    @Test func garbageFileIsMovedAsideAndReplaced() throws {
        try withTemporaryDirectory { dir in
            let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            try garbage.write(to: URL(fileURLWithPath: databasePath(dir)))
            // A stale log beside a damaged file must not be replayed into the new one.
            try Data("stale".utf8).write(to: URL(fileURLWithPath: databasePath(dir) + "-wal"))

            let store = try ChoiceStore(directory: dir)
            let recovery = try #require(store.recovery)
            #expect(recovery.reason == "file is not a database")
            #expect(recovery.movedTo.hasPrefix(databasePath(dir) + ".corrupt-"))
            let note = try #require(store.recoveryNote)
            #expect(note.hasPrefix("choices.sqlite3 was corrupt (file is not a database); moved to \(dir)/choices.sqlite3.corrupt-"))
            #expect(note.hasSuffix("; remembered choices were reset"))

            #expect(FileManager.default.contents(atPath: recovery.movedTo) == garbage)
            #expect(FileManager.default.contents(atPath: recovery.movedTo + "-wal") == Data("stale".utf8))

            #expect(try store.list().isEmpty)
            try store.remember(intent: "I", client: nil, plugin: "p", source: "cli")
            store.close()

            // The replacement is a healthy database: reopening needs no recovery.
            let reopened = try ChoiceStore(directory: dir)
            #expect(reopened.recovery == nil)
            #expect(try reopened.defaultPlugin(intent: "I", client: nil)?.plugin == "p")
        }
    }

    @Test func sqliteHeaderOverGarbageIsRecovered() throws {
        try withTemporaryDirectory { dir in
            var bytes = Data("SQLite format 3\u{0}".utf8)
            bytes.append(Data((0..<8176).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }))
            try bytes.write(to: URL(fileURLWithPath: databasePath(dir)))

            // Passes the magic check, so SQLite itself has to find the damage.
            let store = try ChoiceStore(directory: dir)
            let recovery = try #require(store.recovery)
            #expect(recovery.sqlite?.isCorruption == true)
            #expect(FileManager.default.contents(atPath: recovery.movedTo) == bytes)
            #expect(try store.list().isEmpty)
        }
    }

    /// A file SQLite reads without error but whose contents break the schema's
    /// constraints: only `quick_check` notices.
    @Test func quickCheckFindingsAreRecovered() throws {
        try withTemporaryDirectory { dir in
            try ChoiceStore(directory: dir).close()
            let path = databasePath(dir)
            func rewriteSchema(_ from: String, _ to: String) throws {
                let db = try SQLiteDatabase(path: path)
                try db.exec("PRAGMA writable_schema = ON")
                try db.run("UPDATE sqlite_schema SET sql = replace(sql, ?, ?) WHERE name = 'choices'",
                           [.text(from), .text(to)])
                db.close()
            }
            try rewriteSchema("plugin TEXT NOT NULL", "plugin TEXT")
            let db = try SQLiteDatabase(path: path)
            try db.run("INSERT INTO choices VALUES ('I', '', NULL, 0, 'cli')")
            db.close()
            try rewriteSchema("plugin TEXT", "plugin TEXT NOT NULL")

            let store = try ChoiceStore(directory: dir)
            let recovery = try #require(store.recovery)
            #expect(recovery.reason == "quick_check: NULL value in choices.plugin")
            #expect(recovery.sqlite == nil)
            #expect(try store.list().isEmpty)
        }
    }

    @Test func zeroLengthFileIsAnEmptyDatabase() throws {
        try withTemporaryDirectory { dir in
            #expect(FileManager.default.createFile(atPath: databasePath(dir), contents: Data()))
            let store = try ChoiceStore(directory: dir)
            // SQLite treats an empty file as a new database: nothing to set aside.
            #expect(store.recovery == nil)
            try store.remember(intent: "I", client: nil, plugin: "p", source: "cli")
            #expect(try store.defaultPlugin(intent: "I", client: "any")?.plugin == "p")
        }
    }

    @Test func truncatedFileIsRecovered() throws {
        try withTemporaryDirectory { dir in
            try fillAndClose(dir)
            let full = try #require(FileManager.default.contents(atPath: databasePath(dir)))
            try full.prefix(full.count / 2 + 100).write(to: URL(fileURLWithPath: databasePath(dir)))

            let store = try ChoiceStore(directory: dir)
            #expect(store.recovery != nil)
            #expect(try store.list().isEmpty)
            try store.remember(intent: "I", client: nil, plugin: "p", source: "cli")
            #expect(try files(in: dir, prefix: "choices.sqlite3.corrupt-").count == 1)
        }
    }

    @Test func damagedPageIsRecovered() throws {
        try withTemporaryDirectory { dir in
            try fillAndClose(dir)
            var bytes = try #require(FileManager.default.contents(atPath: databasePath(dir)))
            // Keep page 1 (header and schema) intact and scribble over the next pages,
            // so the file still opens and only quick_check or a read finds the damage.
            #expect(bytes.count > 3 * 4096)
            for index in 4096..<(3 * 4096) { bytes[index] = 0xA5 }
            try bytes.write(to: URL(fileURLWithPath: databasePath(dir)))

            let store = try ChoiceStore(directory: dir)
            let recovery = try #require(store.recovery)
            #expect(!recovery.reason.isEmpty)
            #expect(FileManager.default.contents(atPath: recovery.movedTo) == bytes)
            #expect(try store.list().isEmpty)
        }
    }

    @Test func directoryUnderARegularFileIsAClearError() throws {
        try withTemporaryDirectory { dir in
            let file = dir + "/plain-file"
            #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))

            let below = #expect(throws: ChoiceStoreError.self) { try ChoiceStore(directory: file + "/choices") }
            #expect(below?.code == .directoryUnavailable)
            #expect(below?.path == file + "/choices")

            let itself = #expect(throws: ChoiceStoreError.self) { try ChoiceStore(directory: file) }
            #expect(itself?.code == .directoryUnavailable)
            #expect(itself?.path == file)
            #expect(itself?.description.contains(file) == true)
        }
    }

    @Test func newerSchemaIsLeftAlone() throws {
        try withTemporaryDirectory { dir in
            try ChoiceStore(directory: dir).close()
            let db = try SQLiteDatabase(path: databasePath(dir))
            try db.exec("PRAGMA user_version = 99")
            db.close()

            let error = #expect(throws: ChoiceStoreError.self) { try ChoiceStore(directory: dir) }
            #expect(error?.code == .unsupportedSchemaVersion)
            #expect(try files(in: dir, prefix: "choices.sqlite3.corrupt-").isEmpty)
        }
    }

    /// Writes enough choices to spread the table over several pages, then closes, which
    /// checkpoints the WAL into the main file.
    private func fillAndClose(_ dir: String) throws {
        let store = try ChoiceStore(directory: dir)
        for index in 0..<400 {
            try store.remember(intent: "INIntent\(index)", client: "client-\(index)",
                               plugin: "plugin-with-a-longish-name-\(index)", source: "api")
        }
        store.close()
        #expect(!FileManager.default.fileExists(atPath: databasePath(dir) + "-wal"))
    }
}
