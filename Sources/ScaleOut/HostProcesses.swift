import Foundation
import IntentBus

/// The harness's hosts: one `intentbus host` process per manifest, started, SIGKILLed and
/// started again by pid (never by name), each with its own state directory and spawned
/// plugins.
///
/// Threading: `kill`, `restart` and `stopAll` from the chaos thread or the main thread,
/// one at a time (the lock keeps the pid table whole).
final class HostProcesses: @unchecked Sendable {
    // @unchecked: `processes` is only touched under `lock`.
    let manifests: [String]
    let frontends: [String]
    private let intentbus: String
    private let lock = NSLock()
    private var processes: [Process?]

    init(manifests: [String], frontends: [String], intentbus: String) {
        self.manifests = manifests
        self.frontends = frontends
        self.intentbus = intentbus
        processes = Array(repeating: nil, count: manifests.count)
    }

    /// Starts host `index` and waits until it answers `ib.ping` (at most 20 s).
    func start(_ index: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: intentbus)
        process.arguments = ["host", "--config", manifests[index], "--log-level", "warning"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: manifests[index] + ".log") ?? FileHandle.nullDevice
        try process.run()
        lock.withLock { processes[index] = process }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let client = try? IntentClient(endpoint: frontends[index]) {
                client.hostSlack = .zero
                client.connectWait = .milliseconds(200)
                if (try? client.control("ib.ping", wait: .milliseconds(300))) != nil { return }
            }
            guard process.isRunning else { throw HarnessFailure("host \(index) exited at start; see \(manifests[index]).log") }
            usleep(50_000)
        }
        throw HarnessFailure("host \(index) did not serve within 20 s; see \(manifests[index]).log")
    }

    /// Waits until every host answers a request for each of `intents` (its remote plugins
    /// said HELLO to it), at most 30 s.
    func awaitPlugins(intents: [String]) throws {
        let deadline = Date().addingTimeInterval(30)
        for frontend in frontends {
            let client = try IntentClient(endpoint: frontend)
            var options = RequestOptions()
            options.timeout = .seconds(2)
            for intent in intents {
                while (try? client.send(intent, options: options) { _ in nil }) == nil {
                    guard Date() < deadline else { throw HarnessFailure("\(frontend) did not serve \(intent) within 30 s: its remote plugin is not connected") }
                    usleep(100_000)
                }
            }
        }
    }

    /// SIGKILL to host `index` by its pid, reaped; its plugins die with it.
    func kill(_ index: Int) {
        guard let process = lock.withLock({ processes[index] }), process.isRunning else { return }
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM to every host by pid, SIGKILL after 5 s, each reaped.
    func stopAll() {
        let running = lock.withLock { processes.compactMap { $0 } }.filter(\.isRunning)
        for process in running { _ = Foundation.kill(process.processIdentifier, SIGTERM) }
        let deadline = Date().addingTimeInterval(5)
        for process in running {
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }
}

/// The harness could not set up or check its run.
struct HarnessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
