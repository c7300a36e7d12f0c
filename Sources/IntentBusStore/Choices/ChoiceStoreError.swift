/// A `ChoiceStore` operation that failed. Keeps a stable code, the file or directory
/// involved, and the SQLite error underneath when there is one.
package struct ChoiceStoreError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is. An extensible set of constants: compare with `==`,
    /// and expect new codes to appear.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The directory is missing and cannot be created, is not a directory, or is
        /// not writable.
        package static let directoryUnavailable = Code("directoryUnavailable")
        /// The database file cannot be opened or configured, for a reason other than
        /// corruption (permissions, locks, I/O).
        package static let databaseUnavailable = Code("databaseUnavailable")
        /// The database was corrupt, and setting it aside or recreating it failed.
        package static let recoveryFailed = Code("recoveryFailed")
        /// The database was written by a newer IntentBus with a schema this one does not
        /// know. It is left untouched.
        package static let unsupportedSchemaVersion = Code("unsupportedSchemaVersion")
        /// An argument was empty where a value is required.
        package static let invalidArgument = Code("invalidArgument")
        /// The store was closed with `ChoiceStore.close()`.
        package static let closed = Code("closed")
        /// A read or write on an open database failed.
        package static let queryFailed = Code("queryFailed")
        /// The shared database (`host.state: postgresql://…`) cannot be reached; the host
        /// reconnects by itself, and the call may be made again.
        package static let stateUnavailable = Code("stateUnavailable")

        /// The constant's name, for example `directoryUnavailable`.
        package var description: String { name }
    }

    /// What kind of failure this is.
    package let code: Code
    /// The directory or database file involved.
    package let path: String
    /// A human-readable account of the failure, for logs.
    package let detail: String
    /// The SQLite error underneath, when there is one.
    package let sqlite: SQLiteError?
    /// Where the error was raised, for bug reports.
    package let fileID: String
    /// Where the error was raised, for bug reports.
    package let line: Int

    /// Creates an error. `fileID` and `line` default to the caller's position.
    package init(_ code: Code, path: String, detail: String, sqlite: SQLiteError? = nil,
                fileID: String = #fileID, line: Int = #line) {
        self.code = code
        self.path = path
        self.detail = detail
        self.sqlite = sqlite
        self.fileID = fileID
        self.line = line
    }

    /// `code at path: detail [sqlite error]`.
    package var description: String {
        var text = "\(code) at \(path): \(detail)"
        if let sqlite { text += " [\(sqlite)]" }
        return text
    }
}
