import Foundation

/// A `ShortcutStore` operation that failed: a stable code, the database file, and the
/// SQLite error underneath when there is one.
package struct ShortcutStoreError: Error, Sendable, CustomStringConvertible {
    package enum Code: String, Sendable {
        /// The store could not be opened (directory, permissions, a newer schema).
        case unavailable
        /// A read or write failed.
        case queryFailed
        /// A stored row could not be read back (damaged JSON).
        case badRow
        /// The shared database (`host.state: postgresql://…`) cannot be reached for now.
        case stateUnavailable
    }

    package let code: Code
    package let path: String
    package let detail: String
    package let sqlite: SQLiteError?

    package init(_ code: Code, path: String, detail: String, sqlite: SQLiteError? = nil) {
        self.code = code
        self.path = path
        self.detail = detail
        self.sqlite = sqlite
    }

    package var description: String {
        "\(code.rawValue) at \(path): \(detail)" + (sqlite.map { " [\($0)]" } ?? "")
    }
}
