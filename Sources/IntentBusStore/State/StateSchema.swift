/// The tables of one store and how they came to be: migration N takes a database from
/// schema version N-1 to N, written once for each dialect. Both back ends run the same
/// list, so an SQLite file and a PostgreSQL database at one version hold the same tables;
/// a database at a newer version than this code knows is left alone and refused.
///
/// Versions are kept per store: in SQLite as `PRAGMA user_version` of the store's file,
/// in PostgreSQL in the table `intentbus_schema` (one database holds every store).
package struct StateSchema: Sendable {
    /// The store, as named in `intentbus_schema`: `choices` or `shortcuts`.
    package let store: String
    /// Migration `index + 1`, by dialect.
    package let migrations: [[StateDialect: String]]

    /// The version this code writes.
    package var version: Int64 { Int64(migrations.count) }

    /// Why migrating failed in a way no retry mends.
    package struct NewerVersion: Error, Sendable, CustomStringConvertible {
        package let store: String
        package let found: Int64
        package let known: Int64
        package var description: String {
            "\(store) schema version \(found) is newer than \(known); written by a newer IntentBus"
        }
    }

    /// Brings `db` up to `version`, in one transaction: the version is read with the
    /// write lock held, so two hosts opening one new database do not both create it.
    ///
    /// - Throws: `NewerVersion`, or the database's own error.
    package func migrate(_ db: any StateDatabase) throws {
        try db.transaction {
            let found = try db.schemaVersion(store: store)
            guard found <= version else { throw NewerVersion(store: store, found: found, known: version) }
            guard found < version else { return }
            for step in migrations[Int(found)...] {
                guard let sql = step[db.dialect] else { preconditionFailure("\(store): a migration without \(db.dialect) SQL") }
                try db.exec(sql)
            }
            try db.setSchemaVersion(version, store: store)
        }
    }

    /// Every store's schema, for a PostgreSQL connection that may touch any table.
    package static let all = [choices, shortcuts]

    /// Remembered choices (ChoiceStore). The global entry is stored with client '' rather
    /// than NULL: NULLs are distinct in a primary key, so an upsert would never find it.
    package static let choices = StateSchema(store: "choices", migrations: [[
        .sqlite: """
            CREATE TABLE IF NOT EXISTS choices (
                intent TEXT NOT NULL,
                client TEXT NOT NULL,      -- '' means every client
                plugin TEXT NOT NULL,
                set_at INTEGER NOT NULL,   -- milliseconds since 1970, UTC
                source TEXT NOT NULL,      -- 'always', 'cli' or 'api'
                PRIMARY KEY (intent, client)
            ) WITHOUT ROWID;
            """,
        // COLLATE "C": strings sort byte by byte, as in SQLite, whatever the server's locale.
        .postgresql: """
            CREATE TABLE IF NOT EXISTS choices (
                intent TEXT COLLATE "C" NOT NULL,
                client TEXT COLLATE "C" NOT NULL,
                plugin TEXT NOT NULL,
                set_at BIGINT NOT NULL,
                source TEXT NOT NULL,
                PRIMARY KEY (intent, client)
            );
            """,
    ]])

    /// User phrases and donations (ShortcutStore).
    package static let shortcuts = StateSchema(store: "shortcuts", migrations: [[
        .sqlite: """
            CREATE TABLE IF NOT EXISTS user_phrases (
                key TEXT PRIMARY KEY,        -- the phrase's normalised words
                phrase TEXT NOT NULL,
                intent TEXT NOT NULL,
                parameters TEXT NOT NULL,    -- a JSON object
                plugin TEXT,                 -- NULL: the usual choice
                client TEXT,
                created_at INTEGER NOT NULL, -- milliseconds since 1970, UTC
                updated_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS donations (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                identifier TEXT,             -- the donor's persistent identifier
                group_id TEXT,
                intent TEXT NOT NULL,
                parameters TEXT NOT NULL,    -- a JSON object
                plugin TEXT,
                client TEXT,
                title TEXT,
                phrase TEXT,                 -- suggested invocation phrase
                predict INTEGER NOT NULL,    -- eligible for prediction
                source TEXT NOT NULL,        -- 'host', 'plugin' or 'client'
                at INTEGER NOT NULL          -- milliseconds since 1970, UTC
            );
            CREATE INDEX IF NOT EXISTS donations_identifier ON donations (identifier);
            CREATE INDEX IF NOT EXISTS donations_group ON donations (group_id);
            """,
        .postgresql: """
            CREATE TABLE IF NOT EXISTS user_phrases (
                key TEXT COLLATE "C" PRIMARY KEY,
                phrase TEXT NOT NULL,
                intent TEXT NOT NULL,
                parameters TEXT NOT NULL,
                plugin TEXT,
                client TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS donations (
                id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                identifier TEXT,
                group_id TEXT,
                intent TEXT NOT NULL,
                parameters TEXT NOT NULL,
                plugin TEXT,
                client TEXT,
                title TEXT,
                phrase TEXT,
                predict INTEGER NOT NULL,
                source TEXT NOT NULL,
                at BIGINT NOT NULL
            );
            CREATE INDEX IF NOT EXISTS donations_identifier ON donations (identifier);
            CREATE INDEX IF NOT EXISTS donations_group ON donations (group_id);
            """,
    ], [
        // 2: a row may stand for several of the host's own donations (DonationMerger);
        // the rows already there are one donation each.
        .sqlite: "ALTER TABLE donations ADD COLUMN times INTEGER NOT NULL DEFAULT 1;",
        .postgresql: "ALTER TABLE donations ADD COLUMN IF NOT EXISTS times INTEGER NOT NULL DEFAULT 1;",
    ]])
}
