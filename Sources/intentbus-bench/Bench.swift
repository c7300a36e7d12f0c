import Foundation
import IntentBus
import IntentBusProcess

/// What one path did in one scenario, across its rounds.
struct PathMeasurement: Encodable {
    var path: String
    /// The round-by-round figure (p50 in ns for latency, req/s or bytes/s for throughput).
    var rounds: [Double] = []
    /// Latency scenarios: percentiles over every sample of every round, in ns.
    var p50: Double?
    var p99: Double?
    var samples: Int?
    var counts = ReplyCounts()
    /// Throughput scenarios: CPU per answered request, by role, each round.
    var cpu: [CPUPerRequest]?
}

/// The raw numbers of one scenario, kept in the JSON beside the table.
struct ScenarioDetail: Encodable {
    var name: String
    var unit: String
    var measurements: [PathMeasurement]
    var note: String?
}

/// One side of a comparison: a client connected to a path, and the intent it asks for.
struct Subject {
    var name: String
    let client: LoadClient
    let intent: String
    /// The processes between the client and the far end (the relay, or the host), and the
    /// far end itself (the echo worker, or the plugin), for CPU accounting; may be empty.
    var middle: [pid_t] = []
    var farEnd: [pid_t] = []
    /// The request's one string parameter, and whether the REPLY echoes the body (else
    /// any successful REPLY counts).
    var parameter = "p"
    var echoes = true
    /// Throughput: the load processes this path is loaded from (nil: the scenario's).
    var loadProcesses: Int?
    /// What the CPU row calls the middle and the far end.
    var roles = ("relay", "worker")
    /// The keys for a CURVE frontend (nil: none).
    var curve: BenchCurve?
}

/// CPU time used per answered request in one path, by role, in microseconds.
struct CPUPerRequest: Encodable {
    var client: Double
    var middle: Double
    var farEnd: Double
    var total: Double { client + middle + farEnd }
}

/// Reads the CPU time of a subject's processes; the load generator's CPU comes from the
/// load processes' own reports (`FleetRound.cpuSeconds`).
struct CPUSnapshot {
    var middle: Double
    var farEnd: Double

    init(_ subject: Subject) {
        middle = subject.middle.compactMap { ProcessUsage.cpuSeconds($0) }.reduce(0, +)
        farEnd = subject.farEnd.compactMap { ProcessUsage.cpuSeconds($0) }.reduce(0, +)
    }

    func perRequest(since start: CPUSnapshot, client: Double, requests: Int) -> CPUPerRequest {
        let n = Double(max(requests, 1)) / 1e6
        return CPUPerRequest(client: client / n, middle: (middle - start.middle) / n, farEnd: (farEnd - start.farEnd) / n)
    }
}

/// Runs the scenarios: starts the paths (relays, hosts, clients) and hands them to the
/// `Recorder`, which measures them side by side and keeps the results. Owns every
/// process it starts (through `registry`) and the temporary directory that holds their
/// manifests, sockets and logs.
final class Bench {
    let options: BenchOptions
    var settings: BenchSettings { options.settings }
    let registry: ChildRegistry
    let context: ZMQContext
    /// Short, so that ipc paths stay under Linux's 107-byte limit.
    let work: String
    /// The measurements and what they found (the table and the JSON's scenarios).
    let recorder: Recorder

    init(options: BenchOptions) throws {
        let registry = ChildRegistry(), context = ZMQContext(), work = "/tmp/ibb-\(getpid())"
        (self.options, self.registry, self.context, self.work) = (options, registry, context, work)
        let loader = "\(options.binDirectory)/bench-load"
        recorder = Recorder(settings: options.settings) { processes in
            try LoadFleet(directory: "\(work)/load", context: context, registry: registry, executable: loader,
                          processes: processes)
        }
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        for name in ["intentbus", "plugin-echo", "bench-relay", "bench-worker", "bench-plugin", "bench-load"] {
            guard FileManager.default.isExecutableFile(atPath: bin(name)) else {
                throw BenchFailure("\(bin(name)) is missing: build first with `swift build -c release` (or run `make bench`)")
            }
        }
    }

    func bin(_ name: String) -> String { "\(options.binDirectory)/\(name)" }

    /// Stops everything and removes the temporary directory (keeps it when `keepLogs`).
    func cleanUp(keepLogs: Bool) {
        registry.stopAll()
        if keepLogs {
            log("logs kept in \(work)")
        } else {
            try? FileManager.default.removeItem(atPath: work)
        }
    }

    // MARK: - Starting the paths

    /// The bare relay and its echo worker; returns the endpoint clients connect to.
    func startRelay(_ name: String, workerArguments: [String] = [], dieWithUs: Bool = true) throws -> (String, [BenchChild]) {
        let dir = "\(work)/\(name)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let front = "ipc://\(dir)/front.sock", back = "ipc://\(dir)/back.sock"
        let relay = try registry.spawn(bin("bench-relay"), [front, back], label: "\(name)-relay",
                                       logPath: "\(dir)/relay.log", dieWithUs: dieWithUs)
        // The worker starts once the relay has bound: a connect before the bind would wait
        // for libzmq's 100 ms reconnect interval, which the cold-start figure would show.
        try waitForFile(String(back.dropFirst("ipc://".count)), seconds: 10, watching: relay)
        let worker = try registry.spawn(bin("bench-worker"), workerArguments + [back], label: "\(name)-worker",
                                        logPath: "\(dir)/worker.log", dieWithUs: dieWithUs)
        return (front, [relay, worker])
    }

    /// Waits (polling every 0.2 ms) until `path` exists.
    func waitForFile(_ path: String, seconds: Double, watching child: BenchChild) throws {
        let deadline = MonotonicClock.now() + UInt64(seconds * 1e9)
        while !FileManager.default.fileExists(atPath: path) {
            guard MonotonicClock.now() < deadline else { throw BenchFailure("\(path) did not appear within \(seconds) s") }
            guard child.isRunning else { throw BenchFailure("\(child.label) exited during start-up; see its log in \(work)") }
            usleep(200)
        }
    }

    /// The SDK plugins' packed link (docs/protocol.md §5.1) as the bench was told:
    /// `BENCH_PACKED_LINK=0 intentbus-bench …` measures the six-frame link.
    static var packedLinkEnv: String {
        "BENCH_PACKED_LINK: \"\(ProcessInfo.processInfo.environment["BENCH_PACKED_LINK"] == "0" ? 0 : 1)\""
    }

    /// A real `intentbus host` on `plugins` (YAML list items); returns its frontend.
    func startHost(_ name: String, plugins: String, dieWithUs: Bool = true,
                   prefix: [String] = [], frontend: String? = nil, hostLines: [String] = [],
                   executable: String? = nil) throws -> (String, BenchChild) {
        let dir = "\(work)/\(name)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let manifest = "\(dir)/plugins.yaml"
        let extra = ((frontend.map { ["frontend: \($0)"] } ?? []) + hostLines).map { "  \($0)\n" }.joined()
        try """
        host:
          state_dir: \(dir)/state
        \(extra)plugins:
        \(plugins)
        """.write(toFile: manifest, atomically: true, encoding: .utf8)
        // Warning level: the host logs nothing per request at info either, but busy or
        // failed requests would each write a line, which is not what is measured here.
        let command = prefix + [executable ?? bin("intentbus"), "host", "--config", manifest, "--log-level", "warning"]
        let host = try registry.spawn(command[0], Array(command.dropFirst()), label: name, logPath: "\(dir)/host.log",
                                      dieWithUs: dieWithUs)
        return (frontend ?? "ipc://\(dir)/state/frontend.sock", host)
    }

    /// The echo plugin's manifest entry. By default it answers with the SDK's ordinary plain
    /// handler (`runtime.on(intent) { request, _ in .success(request.parameters) }`), what
    /// plugin authors write; `raw: true` uses `onRaw`, which moves the body back unread.
    func echoPluginEntry(id: String = "echo", raw: Bool = false) -> String {
        """
          - id: \(id)
            exec: \(bin("plugin-echo"))\(raw ? " --raw" : "")
            IntentsSupported: [EchoIntent]
            timeout: 30s
            max_in_flight: 4096
        """
    }

    /// Connects a client and waits until the path answers `intent`.
    func connect(_ name: String, _ endpoint: String, intent: String, watching children: [BenchChild],
                 curve: BenchCurve? = nil) throws -> Subject {
        let client = try LoadClient(context: context, endpoint: endpoint, curve: curve)
        let deadline = MonotonicClock.now() + 30_000_000_000
        while MonotonicClock.now() < deadline {
            for child in children where !child.isRunning {
                throw BenchFailure("\(child.label) exited during start-up; see its log in \(work)")
            }
            if try client.waitUntilAnswering(intent: intent, seconds: 2) {
                return Subject(name: name, client: client, intent: intent, curve: curve)
            }
        }
        throw BenchFailure("\(name) did not answer \(intent) within 30 s; see the logs in \(work)")
    }
}
