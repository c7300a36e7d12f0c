import Foundation
import IntentBus

/// The package's build products, where `swift build` put the executables.
enum Products {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    static var binDir: String { ProcessInfo.processInfo.environment["INTENTBUS_BIN"] ?? "\(root)/.build/debug" }
    static func path(_ name: String) -> String { "\(binDir)/\(name)" }
}

/// A unique temporary directory, removed by `remove()`. Short, so ipc paths fit.
struct TempDir {
    let path: String
    init() {
        let p = "/tmp/ib-\(UInt32.random(in: 0...UInt32.max))-\(getpid())"
        try! FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        path = p
    }
    func write(_ name: String, _ text: String) -> String {
        let file = "\(path)/\(name)"
        try! FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        try! text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs a command to completion and captures its output.
struct CommandResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

func runCommand(_ path: String, _ args: [String], environment: [String: String] = [:], stdin: String? = nil,
                timeout: Double = 60) -> CommandResult {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    p.environment = env
    let out = Pipe(), err = Pipe(), input = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = input
    try! p.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try? input.fileHandleForWriting.close()
    let killer = DispatchWorkItem { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    killer.cancel()
    return CommandResult(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
}

/// A real `intentbus host` process on a manifest in its own temporary directory, with its
/// own ipc endpoints. `stop()` ends it by pid (SIGTERM, then SIGKILL) and reaps it; the host
/// stops its plugins, and the plugins die with it in any case (PR_SET_PDEATHSIG).
final class TestHost {
    let dir: TempDir
    let manifestPath: String
    let process = Process()
    private let logPipe = Pipe()
    private let logBuffer = LogBuffer()

    var frontend: String { "ipc://\(dir.path)/state/frontend.sock" }

    /// Writes `plugins` (YAML list items, already indented by two spaces) into a manifest
    /// and starts the host. `hostExtra` adds lines to the `host:` section.
    /// `environment` is added to the host's (and so its plugins') environment.
    init(plugins: String, hostExtra: String = "", dir: TempDir = TempDir(), waitReady: [String] = [],
         environment: [String: String] = [:]) throws {
        self.dir = dir
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        manifestPath = dir.write("plugins.yaml", """
        host:
          state_dir: state
        \(hostExtra)
        plugins:
        \(plugins)
        """)
        try start()
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
    var log: String { logBuffer.text }

    /// Whether the log comes to contain `text` within `seconds`. Log lines travel through
    /// a pipe, so a line written just before a reply may arrive just after it.
    func logEventually(contains text: String, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if log.contains(text) { return true }
            usleep(20_000)
        }
        return log.contains(text)
    }

    func client() throws -> IntentClient { try IntentClient(endpoint: frontend) }

    /// A raw DEALER socket on the frontend, for tests that speak frames directly (the
    /// socket keeps its context alive).
    func rawDealer(receiveTimeoutMs: Int32 = 10_000) throws -> ZMQSocket {
        let dealer = try ZMQSocket(ZMQContext(), .dealer)
        try dealer.connect(frontend)
        try dealer.setReceiveTimeout(milliseconds: receiveTimeoutMs)
        return dealer
    }

    /// Waits until the host answers `ib.ping`.
    func waitUntilServing(seconds: Double = 20) throws {
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
    func plugin(_ id: String) throws -> JSON? {
        let body = try client().control("ib.plugins")
        return body["plugins"]?.arrayValue?.first { $0["id"]?.stringValue == id }
    }

    /// Waits until plugin `id` reaches `state` (and, if given, a pid other than `notPid`).
    @discardableResult
    func waitForPlugin(_ id: String, state: String, notPid: Int64? = nil, seconds: Double = 20) throws -> JSON {
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
    func stop() {
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

/// Collects a child's output from the pipe's reader thread.
final class LogBuffer: @unchecked Sendable {
    // @unchecked: `data` is only touched under `lock`.
    private let lock = Lock()
    private var data = Data()
    func append(_ d: Data) { lock.withLock { data.append(d) } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// A manifest entry for the test plugin, as a YAML list item indented by two spaces.
func testPlugin(_ id: String, intents: [String] = ["TestIntent"], timeout: String = "10s", env: [String: String] = [:],
                extra: [String] = []) -> String {
    var lines = [
        "  - id: \(id)",
        "    name: Test \(id)",
        "    exec: \(Products.path("plugin-testplugin"))",
        "    IntentsSupported: [\(intents.joined(separator: ", "))]",
        "    timeout: \(timeout)",
        "    env:",
        "      TEST_INTENTS: \(intents.joined(separator: ","))",
    ]
    for (k, v) in env.sorted(by: { $0.key < $1.key }) { lines.append("      \(k): \"\(v)\"") }
    lines += extra.map { "    " + $0 }
    return lines.joined(separator: "\n")
}
