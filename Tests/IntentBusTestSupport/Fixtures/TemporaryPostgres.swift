import Foundation

/// A real PostgreSQL server of the test's own (scripts/pg-temp.sh): initdb into a fresh
/// directory, its unix socket there, a port of its own. `stop()` and `start()` take it
/// away and bring it back on the same data (the "database unreachable" tests);
/// `destroy()` stops it and removes the directory. Nothing is skipped: when the server
/// cannot start, `init` throws with the script's account of why (`make test` installs the
/// postgresql package).
///
/// `@unchecked Sendable`: a suite shares one server through a task-local; `start()` (which
/// sets `url`) runs only while no test of it runs (serialized suites).
package final class TemporaryPostgres: @unchecked Sendable {
    /// The server's directory: `data/`, the socket, the logs.
    package let directory: String
    /// The port, which names the socket file `.s.PGSQL.<port>`.
    package let port: Int
    /// The connection URL for `host.state` and the stores: user `intentbus`, database
    /// `postgres`, no password (trust on the socket only).
    package private(set) var url = ""

    package init() throws {
        directory = "/tmp/ibpg-\(UInt32.random(in: 0...UInt32.max))-\(getpid())"
        port = Int.random(in: 20_000...60_000)
        try start()
    }

    /// Starts the server (again), on the data already there.
    package func start() throws {
        let result = runCommand(Self.script, ["start", directory, String(port)], timeout: 120)
        guard result.status == 0 else {
            throw TestFailure("PostgreSQL did not start (scripts/pg-temp.sh start \(directory) \(port), exit \(result.status)): \(result.stderr)")
        }
        url = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server (fast shutdown: open connections are cut), keeping the data.
    package func stop() throws {
        let result = runCommand(Self.script, ["stop", directory], timeout: 120)
        guard result.status == 0 else { throw TestFailure("pg-temp.sh stop \(directory) failed: \(result.stderr)") }
    }

    /// Stops the server and removes its directory.
    package func destroy() {
        _ = runCommand(Self.script, ["destroy", directory], timeout: 120)
    }

    /// A new empty database on this server, as a connection URL: tests sharing one server
    /// keep their tables apart.
    package func createDatabase(_ name: String) throws -> String {
        let psql = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?
            .sorted().last.map { "/usr/lib/postgresql/\($0)/bin/psql" } ?? "psql"
        let result = runCommand(psql, [url, "-v", "ON_ERROR_STOP=1", "-q", "-c", "CREATE DATABASE \(name)"], timeout: 60)
        guard result.status == 0 else { throw TestFailure("CREATE DATABASE \(name) failed: \(result.stderr)") }
        return url.replacingOccurrences(of: "/postgres?", with: "/\(name)?")
    }

    private static var script: String { Products.file("scripts/pg-temp.sh") }
}
