import Foundation
import IntentBusProcess

/// The run's own PostgreSQL server (`--postgres`): `scripts/pg-temp.sh` (initdb into a
/// directory of the run, a unix socket only, no TCP), destroyed at the end. The script
/// is found beside the package the harness was built in.
struct TemporaryDatabase {
    let directory: String
    let url: String
    private let script: String

    /// Starts a server in `directory` and reads its URL.
    init(directory: String, binaries: String) throws {
        var dir = URL(fileURLWithPath: binaries).resolvingSymlinksInPath()
        var found: String?
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent("scripts/pg-temp.sh").path
            if FileManager.default.isExecutableFile(atPath: candidate) { found = candidate; break }
            dir.deleteLastPathComponent()
        }
        guard let script = found else { throw HarnessFailure("scripts/pg-temp.sh not found above \(binaries)") }
        self.script = script
        self.directory = directory
        let output = try Self.run(script, ["start", directory, "5432"])
        guard output.status == 0, let url = output.text.split(separator: "\n").last.map(String.init), url.hasPrefix("postgresql://") else {
            throw HarnessFailure("the temporary PostgreSQL did not start (\(script) start): \(output.text)")
        }
        self.url = url
    }

    /// Stops the server and removes its directory.
    func destroy() { _ = try? Self.run(script, ["destroy", directory]) }

    /// Runs the script (at most 2 minutes). The server it starts inherits the script's
    /// descriptors: `ChildProcess.run` reads what is left once the script itself exited,
    /// without waiting for the server to close them.
    private static func run(_ script: String, _ arguments: [String]) throws -> (status: Int32, text: String) {
        let done = try ChildProcess.run(ProcessSpec(executable: script, arguments: arguments,
                                                    standardOutput: .pipe, standardError: .sameAsOutput),
                                        timeout: .seconds(120))
        guard case .exited(let code) = done.status else { return (-1, "\(done.status): \(done.standardOutput.text)") }
        return (code, done.standardOutput.text)
    }
}
