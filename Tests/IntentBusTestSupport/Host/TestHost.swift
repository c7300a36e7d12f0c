import Foundation
import IntentBus

/// A real `intentbus host` process on a manifest in its own temporary directory, with its
/// own ipc endpoints. `stop()` ends it by pid (SIGTERM, then SIGKILL) and reaps it; the host
/// stops its plugins, and the plugins die with it in any case (PR_SET_PDEATHSIG).
package final class TestHost {
    package let dir: TempDir
    package let manifestPath: String
    package let process = Process()
    private let logPipe = Pipe()
    private let logBuffer = LogBuffer()

    /// The host's frontend: its manifest keeps the state directory `state` beside it.
    package var frontend: String { dir.ipc("state/frontend.sock") }

    /// Writes `manifest` into `dir` (a fresh one unless given: a host started again on the
    /// same directory keeps its state), starts the host, waits until it serves and until
    /// each plugin in `waitReady` is ready.
    /// `environment` is added to the host's (and so its plugins') environment.
    package convenience init(_ manifest: TestManifest, dir: TempDir = TempDir(), waitReady: [String] = [],
                             environment: [String: String] = [:]) throws {
        precondition(manifest.host.stateDir == "state", "TestHost finds its endpoints in state/ beside the manifest")
        try self.init(yaml: manifest.yaml, dir: dir, waitReady: waitReady, environment: environment)
    }

    /// The same with the manifest's text as it is, for manifests the builder does not
    /// write (remote or Majordomo entries, odd shapes); it must keep `state_dir: state`.
    /// `waitServing: false` for a host the test reaches itself (a CURVE frontend, where
    /// `client()` has no keys): only started.
    package init(yaml: String, dir: TempDir = TempDir(), waitReady: [String] = [],
                 environment: [String: String] = [:], waitServing: Bool = true) throws {
        self.dir = dir
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        manifestPath = dir.write("plugins.yaml", yaml)
        try start()
        guard waitServing else { return }
        try waitUntilServing()
        for id in waitReady { try waitForPlugin(id, state: "ready") }
    }

    private func start() throws {
        process.executableURL = URL(fileURLWithPath: Products.path("intentbus"))
        process.arguments = ["host", "--config", manifestPath, "--log-level", "debug"]
        process.standardOutput = logPipe
        process.standardError = logPipe
        process.currentDirectoryURL = URL(fileURLWithPath: Products.root)
        let buffer = logBuffer
        logPipe.fileHandleForReading.readabilityHandler = { h in
            let d = h.availableData
            if !d.isEmpty { buffer.append(d) }
        }
        try process.run()
    }

    /// Everything the host (and its plugins) logged so far.
    package var log: String { logBuffer.text }

    /// Whether the log comes to contain `text` within `seconds`. Log lines travel through
    /// a pipe, so a line written just before a reply may arrive just after it.
    package func logEventually(contains text: String, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if log.contains(text) { return true }
            usleep(20_000)
        }
        return log.contains(text)
    }

    package func client() throws -> IntentClient { try IntentClient(endpoint: frontend) }

    /// A raw DEALER socket on the frontend, for tests that speak frames directly (the
    /// socket keeps its context alive).
    package func rawDealer(receiveTimeoutMs: Int32 = 10_000) throws -> ZMQSocket {
        let dealer = try ZMQSocket(ZMQContext(), .dealer)
        try dealer.connect(frontend)
        try dealer.setReceiveTimeout(milliseconds: receiveTimeoutMs)
        return dealer
    }

    /// Waits until the host answers `ib.ping`.
    package func waitUntilServing(seconds: Double = 20) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard process.isRunning else { throw TestFailure("host exited early (\(process.terminationStatus)):\n\(log)") }
            if FileManager.default.fileExists(atPath: "\(dir.path)/state/frontend.sock") {
                let c = try client()
                c.hostSlack = .zero
                if (try? c.control("ib.ping", wait: .milliseconds(300))) != nil { return }
            }
            usleep(50_000)
        }
        throw TestFailure("host did not start serving within \(seconds) s:\n\(log)")
    }

    /// The host's `ib.plugins` entry for `id`.
    package func plugin(_ id: String) throws -> JSON? {
        let body = try client().control("ib.plugins")
        return body["plugins"]?.arrayValue?.first { $0["id"]?.stringValue == id }
    }

    /// Waits until plugin `id` reaches `state` (and, if given, a pid other than `notPid`).
    @discardableResult
    package func waitForPlugin(_ id: String, state: String, notPid: Int64? = nil, seconds: Double = 20) throws -> JSON {
        let deadline = Date().addingTimeInterval(seconds)
        var last: JSON?
        while Date() < deadline {
            last = try plugin(id)
            if let p = last, p["state"]?.stringValue == state, notPid == nil || p["pid"]?.intValue != notPid { return p }
            usleep(50_000)
        }
        throw TestFailure("plugin \(id) did not reach \(state) within \(seconds) s (last: \(last?.canonicalString ?? "none")):\n\(log)")
    }

    /// Stops the host by its pid and reaps it. Safe to call twice.
    package func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        logPipe.fileHandleForReading.readabilityHandler = nil
        dir.remove()
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
}
