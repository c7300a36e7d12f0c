import Foundation
import IntentBus

/// The run's remote plugins: test plugins that no host spawns, each connected to every
/// host's CURVE backend at once (`INTENTBUS_BACKEND=A,B,C`, the Swift SDK's several-backend
/// loop), started and stopped by pid. They outlive the hosts' SIGKILLs and greet each host
/// again when it is back, so that a request a client resends through another host reaches
/// the same process: its run log shows whether it ran once (docs/scale-out.md "Run once").
final class RemotePlugins {
    /// One plugin: its id, the intents it claims and its key pair.
    struct Plugin {
        let id: String
        let intents: [String]
        let keys: CurveKeyPair
    }

    let plugins: [Plugin]
    private var processes: [Process] = []

    init(_ specs: [(id: String, intents: [String])]) throws {
        plugins = try specs.map { Plugin(id: $0.id, intents: $0.intents, keys: try CurveKeyPair.generate()) }
    }

    /// The manifest entries for every host (under `plugins:`).
    var manifestEntries: String {
        plugins.map { p in
            var lines = ["  - id: \(p.id)", "    remote: true", "    public_key: \"\(p.keys.publicKey)\"",
                         "    IntentsSupported: [\(p.intents.joined(separator: ", "))]", "    timeout: 10s", "    heartbeat: 1s"]
            if p.intents.contains("ScaleIdempotent") { lines.append("    idempotent: [ScaleIdempotent]") }
            return lines.joined(separator: "\n") + "\n"
        }.joined()
    }

    /// The run log of plugin `id` (`TEST_RUN_LOG`: "PID TAG" per request as it starts).
    func runLog(_ id: String, in work: String) -> String { "\(work)/runs-\(id).log" }

    /// Starts every plugin, connected to all `backends` with their hosts' `serverKeys`.
    func start(binary: String, backends: [String], serverKeys: [String], work: String) throws {
        for p in plugins {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            var env = ProcessInfo.processInfo.environment
            env["INTENTBUS_BACKEND"] = backends.joined(separator: ",")
            env["INTENTBUS_SERVER_KEY"] = serverKeys.joined(separator: ",")
            env["INTENTBUS_CURVE_SECRET"] = p.keys.secretKey
            env["INTENTBUS_PLUGIN_ID"] = p.id
            env["INTENTBUS_LOG"] = "warning"
            env["TEST_INTENTS"] = p.intents.joined(separator: ",")
            env["TEST_RUN_LOG"] = runLog(p.id, in: work)
            for key in ["INTENTBUS_TOKEN", "INTENTBUS_HOST_PID"] { env[key] = nil }
            process.environment = env
            process.standardOutput = FileHandle.nullDevice
            FileManager.default.createFile(atPath: "\(work)/\(p.id).log", contents: nil)
            process.standardError = FileHandle(forWritingAtPath: "\(work)/\(p.id).log") ?? FileHandle.nullDevice
            try process.run()
            processes.append(process)
        }
    }

    /// Whether every plugin is still running (none died with a host).
    var allRunning: Bool { processes.allSatisfy(\.isRunning) }

    /// SIGTERM to each by pid, SIGKILL after 5 s, each reaped.
    func stopAll() {
        for process in processes where process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGTERM) }
        let deadline = Date().addingTimeInterval(5)
        for process in processes {
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }
}
