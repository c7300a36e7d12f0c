import Foundation

/// Why a database could not be opened: damage, which `ChoiceStore.init` repairs by
/// starting over, or anything else, which it reports.
package enum ChoiceStoreOpenFailure: Error {
    case corrupt(reason: String, sqlite: SQLiteError?)
    case failed(ChoiceStoreError)
}

extension ChoiceStore {
    /// Makes sure `directory` exists, is a directory, and is writable.
    package static func prepareDirectory(_ directory: String) throws(ChoiceStoreError) {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ChoiceStoreError(.directoryUnavailable, path: directory,
                                       detail: "exists and is not a directory")
            }
        } else {
            do {
                try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw ChoiceStoreError(.directoryUnavailable, path: directory,
                                       detail: "cannot create directory: \(error.localizedDescription)")
            }
        }
        // SQLite creates -wal and -shm files beside the database, so the directory
        // itself must be writable, not just the file.
        guard access(directory, W_OK | X_OK) == 0 else {
            let reason = String(cString: strerror(errno))
            throw ChoiceStoreError(.directoryUnavailable, path: directory,
                                   detail: "directory is not writable: \(reason)")
        }
    }

    /// Opens `path`, switches it to WAL with `synchronous=FULL`, checks it, and brings
    /// the schema up to date.
    package static func open(_ path: String) -> Result<SQLiteDatabase, ChoiceStoreOpenFailure> {
        // Checked before SQLite sees the file: closing a connection to a file that is
        // not a database deletes the WAL beside it, which is evidence worth keeping.
        if hasForeignHeader(path) {
            return .failure(.corrupt(reason: "file is not a database", sqlite: nil))
        }
        let db: SQLiteDatabase
        do {
            db = try SQLiteDatabase(path: path)
        } catch {
            return .failure(classify(error, path: path, operation: "open"))
        }
        do {
            // The first statement reads the header, so a file that is not a database
            // fails here with SQLITE_NOTADB.
            _ = try db.scalarText("PRAGMA journal_mode=WAL")
            // WAL with FULL syncs the log on every commit: a returned `remember` is on
            // disk, not just in the page cache.
            try db.exec("PRAGMA synchronous=FULL")
            let findings = try db.query("PRAGMA quick_check") { $0.text(0) ?? "" }
            guard findings == ["ok"] else {
                db.close()
                let summary = findings.prefix(3).joined(separator: "; ")
                return .failure(.corrupt(reason: "quick_check: \(summary)", sqlite: nil))
            }
            try migrate(db)
            return .success(db)
        } catch {
            db.close()
            return .failure(classify(error, path: path, operation: "open"))
        }
    }

    /// Whether `path` is a non-empty file that does not start with SQLite's 16-byte
    /// magic string. A missing, empty or unreadable file is left for SQLite to judge:
    /// it creates the first two and reports the third.
    private static func hasForeignHeader(_ path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        guard let header = try? file.read(upToCount: 16), !header.isEmpty else { return false }
        return header != Data("SQLite format 3\u{0}".utf8)
    }

    /// Brings the schema up to date (StateSchema.choices, the same for both back ends).
    private static func migrate(_ db: SQLiteDatabase) throws {
        try StateSchema.choices.migrate(db)
    }

    private static func classify(_ error: any Error, path: String, operation: String) -> ChoiceStoreOpenFailure {
        switch error {
        case let error as ChoiceStoreError:
            return .failed(error)
        case let error as StateSchema.NewerVersion:
            return .failed(ChoiceStoreError(.unsupportedSchemaVersion, path: path, detail: error.description))
        case let error as SQLiteError where error.isCorruption:
            return .corrupt(reason: error.message, sqlite: error)
        case let error as SQLiteError:
            return .failed(ChoiceStoreError(.databaseUnavailable, path: path,
                                            detail: "\(operation) failed", sqlite: error))
        default:
            return .failed(ChoiceStoreError(.databaseUnavailable, path: path,
                                            detail: "\(operation) failed: \(error)"))
        }
    }

    /// Moves a damaged database to `<path>.corrupt-<UTC timestamp>`, keeping its WAL
    /// beside it so the pair can still be examined. The shared-memory index is only a
    /// cache and is deleted. A WAL left in place would be replayed into the new file.
    ///
    /// - Returns: the new path of the database file.
    package static func moveAside(_ path: String) throws(ChoiceStoreError) -> String {
        let files = FileManager.default
        let stamp = timestamp(Date())
        var target = "\(path).corrupt-\(stamp)"
        var attempt = 1
        while files.fileExists(atPath: target) || files.fileExists(atPath: target + "-wal") {
            attempt += 1
            target = "\(path).corrupt-\(stamp)-\(attempt)"
        }
        do {
            try files.moveItem(atPath: path, toPath: target)
            for suffix in ["-wal", "-journal"] where files.fileExists(atPath: path + suffix) {
                try files.moveItem(atPath: path + suffix, toPath: target + suffix)
            }
            if files.fileExists(atPath: path + "-shm") {
                try files.removeItem(atPath: path + "-shm")
            }
        } catch {
            throw ChoiceStoreError(.recoveryFailed, path: path,
                                   detail: "database is corrupt and could not be moved to \(target): \(error.localizedDescription)")
        }
        return target
    }

    /// `20250131T235959.123Z`: sortable, and free of characters that need quoting.
    private static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        let milliseconds = Int(date.timeIntervalSince1970 * 1000) % 1000
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d%02d%02dT%02d%02d%02d.%03dZ",
                      Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), milliseconds)
    }
}
