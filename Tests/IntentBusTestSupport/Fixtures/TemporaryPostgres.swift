import Foundation
import IntentBusProcess

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
        let result = try Self.run(["start", directory, String(port)])
        url = result.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server (fast shutdown: open connections are cut), keeping the data.
    package func stop() throws {
        _ = try Self.run(["stop", directory])
    }

    /// Stops the server and removes its directory.
    package func destroy() {
        _ = try? Self.run(["destroy", directory])
    }

    /// A new empty database on this server, as a connection URL: tests sharing one server
    /// keep their tables apart.
    package func createDatabase(_ name: String) throws -> String {
        let psql = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?
            .sorted().last.map { "/usr/lib/postgresql/\($0)/bin/psql" } ?? "psql"
        _ = try Self.run([url, "-v", "ON_ERROR_STOP=1", "-q", "-c", "CREATE DATABASE \(name)"], executable: psql)
        return url.replacingOccurrences(of: "/postgres?", with: "/\(name)?")
    }

    private static var script: String { Products.file("scripts/pg-temp.sh") }

    /// Runs the script (or `executable`) to completion; its output, or a failure with its
    /// error output. ChildProcess.run, not Foundation's Process: the server the script
    /// leaves running must not keep the test waiting for the pipes or the exit.
    private static func run(_ arguments: [String], executable: String = script) throws -> String {
        let spec = ProcessSpec(executable: executable, arguments: arguments, standardOutput: .pipe, standardError: .pipe)
        let done = try ChildProcess.run(spec, timeout: .seconds(120))
        guard case .exited(0) = done.status else {
            throw TestFailure("\(executable) \(arguments.joined(separator: " ")) \(done.status): \(done.standardError.text)")
        }
        return done.standardOutput.text
    }
}
