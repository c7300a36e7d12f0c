/// What `ChoiceStore` did when it found its database corrupt: the damaged file was set
/// aside and an empty database created in its place.
package struct ChoiceStoreRecovery: Sendable, Equatable {
    /// Why the file was judged corrupt: SQLite's message, or the `quick_check` findings.
    package let reason: String
    /// The damaged file, which was moved to `movedTo`.
    package let originalPath: String
    /// Where the damaged file now is (`choices.sqlite3.corrupt-<timestamp>`). Its
    /// write-ahead log, if any, sits beside it with a `-wal` suffix.
    package let movedTo: String
    /// The SQLite error that revealed the damage, when it was an error rather than a
    /// `quick_check` finding.
    package let sqlite: SQLiteError?

    /// One line for the host's log, for example "choices.sqlite3 was corrupt (file is
    /// not a database); moved to …; remembered choices were reset".
    package var note: String {
        let name = originalPath.split(separator: "/").last.map(String.init) ?? originalPath
        return "\(name) was corrupt (\(reason)); moved to \(movedTo); remembered choices were reset"
    }
}
