extension PostgresDatabase {
    /// A connection to the host's shared state: every new connection first brings every
    /// store's schema up to date (`StateSchema.all`; cheap when it is), and with
    /// `listening` subscribes to the stores' change announcements.
    package static func forState(_ conninfo: String, listening: Bool = false) throws(PostgresError) -> PostgresDatabase {
        let db = try PostgresDatabase(conninfo: conninfo)
        db.onConnect = { db in
            for schema in StateSchema.all { try schema.migrate(db) }
            if listening { try db.exec("LISTEN \(PostgresDatabase.channel)") }
        }
        return db
    }
}
