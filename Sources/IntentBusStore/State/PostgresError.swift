/// A failed libpq call: the server's SQLSTATE when it answered, libpq's message, what was
/// being done, and whether the server is out of reach (the host then answers reads from
/// its cache and refuses writes with `state_unavailable`).
package struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// The server's error code, for example `23505` (unique violation); nil when libpq
    /// failed before the server answered.
    package let sqlState: String?
    /// libpq's or the server's message, on one line.
    package let message: String
    /// What was being done: the libpq function and, where useful, the SQL.
    package let operation: String
    /// The server could not be reached, or the connection broke (SQLSTATE class 08, a
    /// server shutting down: 57P01–57P03). Such a failure ends when the server is back.
    package let isUnavailable: Bool
    /// Set when a new connection found a schema newer than this code (its migrations, in
    /// `onConnect`, refused it): no retry mends that.
    package let newerSchema: StateSchema.NewerVersion?

    /// Creates an error from its parts; `PostgresDatabase` builds these.
    package init(sqlState: String?, message: String, operation: String, isUnavailable: Bool,
                 newerSchema: StateSchema.NewerVersion? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.operation = operation
        self.isUnavailable = isUnavailable
        self.newerSchema = newerSchema
    }

    /// `operation: message (SQLSTATE x)`.
    package var description: String {
        "\(operation): \(message)" + (sqlState.map { " (SQLSTATE \($0))" } ?? "")
    }

    /// Whether `sqlState` says the server went away: a connection exception, or a server
    /// shutting down or starting up.
    package static func meansUnavailable(_ sqlState: String?) -> Bool {
        guard let sqlState else { return false }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
    }
}
