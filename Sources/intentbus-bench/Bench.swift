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

/// Runs the scenarios. Owns every process it starts (through `registry`) and the
/// temporary directory that holds their manifests, sockets and logs.
final class Bench {
    let options: BenchOptions
    var settings: BenchSettings { options.settings }
    let registry = ChildRegistry()
    let context = ZMQContext()
    /// Short, so that ipc paths stay under Linux's 107-byte limit.
    let work = "/tmp/ibb-\(getpid())"
    var rows: [ResultRow] = []
    var details: [ScenarioDetail] = []
    /// The load processes for throughput, started on first use.
    private var startedFleet: LoadFleet?
    /// How many load processes a throughput round uses unless a scenario says otherwise.
    /// The fleet has twice as many, for the generator capacity check.
    var loadProcesses = 2

    func fleet() throws -> LoadFleet {
        if let startedFleet { return startedFleet }
        let f = try LoadFleet(bench: self, processes: loadProcesses * 2)
        startedFleet = f
        return f
    }

    init(options: BenchOptions) throws {
        self.options = options
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

    // MARK: - Interleaved measurement

    /// Runs `measure` for both subjects, alternating which goes first, after one
    /// unrecorded warm-up round each.
    func interleaved(_ a: Subject, _ b: Subject, rounds: Int, warmUp: (Subject) throws -> Void,
                     measure: (Subject, Int) throws -> Void) throws {
        try warmUp(a)
        try warmUp(b)
        for round in 0..<rounds {
            let order = round % 2 == 0 ? [a, b] : [b, a]
            for subject in order { try measure(subject, round) }
        }
    }

    /// One request in flight: p50 and p99 of `subject` against `baseline`.
    func latency(_ scenario: String, subject: Subject, baseline: Subject, size: Int, count: Int,
                 p50Target: Double?) throws -> (PathMeasurement, PathMeasurement) {
        var bodies: [String: Frame] = [:]
        for s in [subject, baseline] { bodies[s.name] = LoadClient.payload(size: size, key: s.parameter) }
        var samples: [String: [UInt64]] = [:]
        var result = [subject.name: PathMeasurement(path: subject.name), baseline.name: PathMeasurement(path: baseline.name)]
        // One request at a time, alternating between the paths request by request (A B, B A,
        // …), so that both see the same moments of a shared machine: whether a wake-up
        // lands on an idle core or behind someone's compiler changes a round trip by tens
        // of µs, and it drifts over seconds.
        for s in [subject, baseline] {
            _ = try s.client.latencyRound(intent: s.intent, body: bodies[s.name]!, count: min(count, 100), seconds: 0.3,
                                          echo: s.echoes)
        }
        for _ in 0..<settings.rounds {
            var round: [String: [UInt64]] = [:]
            let stopAt = MonotonicClock.now() + UInt64(settings.latencySeconds * 2 * 1e9)
            var i = 0
            while i < count && MonotonicClock.now() < stopAt {
                for s in (i % 2 == 0 ? [subject, baseline] : [baseline, subject]) {
                    let (times, counts) = try s.client.latencyRound(intent: s.intent, body: bodies[s.name]!, count: 1,
                                                                     seconds: 10, echo: s.echoes)
                    round[s.name, default: []] += times
                    result[s.name]!.counts.add(counts)
                }
                i += 1
            }
            for s in [subject, baseline] {
                samples[s.name, default: []] += round[s.name] ?? []
                result[s.name]!.rounds.append(percentile(round[s.name] ?? [], 50))
            }
        }
        for name in [subject.name, baseline.name] {
            let all = samples[name] ?? []
            result[name]!.p50 = percentile(all, 50)
            result[name]!.p99 = percentile(all, 99)
            result[name]!.samples = all.count
        }
        let s = result[subject.name]!, b = result[baseline.name]!
        details.append(ScenarioDetail(name: scenario, unit: "ns", measurements: [s, b]))
        let note = shortfallNote(s, b)
        for (metric, sv, bv) in [("p50", s.p50!, b.p50!), ("p99", s.p99!, b.p99!)] {
            let ratio = sv / bv
            let targeted = metric == "p50" ? p50Target : nil
            rows.append(ResultRow(
                scenario: scenario, metric: metric, value: Format.micros(sv), baseline: "\(baseline.name) \(Format.micros(bv))",
                ratio: ratio, target: targeted.map { "≤ \(String(format: "%.2f", $0))×" } ?? "–",
                verdict: targeted.map { ratio <= $0 ? .pass : .fail } ?? .info,
                rawValue: sv, rawBaseline: bv, unit: "ns", note: metric == "p50" ? note : nil))
        }
        return (s, b)
    }

    /// `window` requests in flight: requests (or bytes) per second, median of the rounds.
    /// The load comes from the load processes (`LoadFleet`), over `connections` client
    /// connections per path, from `processes` load processes (default `loadProcesses`).
    /// - Parameter middleCPUTarget: judge the middle's CPU per request (the host's own
    ///   cost) against this ratio; otherwise the CPU row is for information.
    func throughput(_ scenario: String, subject: Subject, baseline: Subject, size: Int, window: Int, count: Int,
                    bytes: Bool, minRatio: Double?, middleCPUTarget: Double? = nil, connections: Int = 1,
                    processes: Int? = nil, rounds: Int? = nil, seconds: Double? = nil) throws -> (PathMeasurement, PathMeasurement) {
        let fleet = try fleet()
        let processes = processes ?? loadProcesses
        var result = [subject.name: PathMeasurement(path: subject.name), baseline.name: PathMeasurement(path: baseline.name)]
        var samples: [String: [UInt64]] = [:]
        func load(_ s: Subject, count: Int, seconds: Double) throws -> FleetRound {
            let processes = min(s.loadProcesses ?? processes, window)
            return try fleet.round(processes: processes, endpoint: s.client.endpoint, intent: s.intent, size: size, key: s.parameter,
                            window: window, connections: max(connections, processes), count: count, seconds: seconds, echo: s.echoes,
                            curve: s.curve)
        }
        try interleaved(subject, baseline, rounds: rounds ?? settings.throughputRounds, warmUp: { s in
            _ = try load(s, count: min(count, window * 5), seconds: 0.3)
        }, measure: { s, _ in
            let before = CPUSnapshot(s)
            let round = try load(s, count: count, seconds: seconds ?? settings.throughputSeconds)
            let counts = round.counts
            result[s.name]!.cpu = (result[s.name]!.cpu ?? [])
                + [CPUSnapshot(s).perRequest(since: before, client: round.cpuSeconds, requests: counts.ok)]
            let perSecond = round.seconds > 0 ? Double(counts.ok) / round.seconds : 0
            result[s.name]!.rounds.append(bytes ? perSecond * Double(size) : perSecond)
            result[s.name]!.counts.add(counts)
            samples[s.name, default: []] += round.samples
        })
        for name in [subject.name, baseline.name] {
            let all = samples[name] ?? []
            result[name]!.p50 = percentile(all, 50)
            result[name]!.p99 = percentile(all, 99)
            result[name]!.samples = all.count
        }
        let s = result[subject.name]!, b = result[baseline.name]!
        let sv = median(s.rounds), bv = median(b.rounds)
        let unit = bytes ? "bytes/s" : "req/s"
        details.append(ScenarioDetail(name: scenario, unit: unit, measurements: [s, b]))
        let show = bytes ? Format.bytesRate : Format.rate
        // The spread of the round-by-round ratios (each round against its neighbour on
        // the other path) says how far to trust the ratio of the medians.
        let paired = zip(s.rounds, b.rounds).map { $0 / $1 }.sorted()
        let spread = paired.isEmpty ? "" : String(format: "round-by-round ratios: middle half %.2f–%.2f, all %.2f–%.2f",
            paired[paired.count / 4], paired[(paired.count * 3) / 4 - (paired.count % 4 == 0 ? 1 : 0)],
            paired.first!, paired.last!)
        rows.append(ResultRow(
            scenario: scenario, metric: bytes ? "bytes/s" : "req/s", value: show(sv), baseline: "\(baseline.name) \(show(bv))",
            ratio: sv / bv, target: minRatio.map { "≥ \(String(format: "%.2f", $0))×" } ?? "–",
            verdict: minRatio.map { sv / bv >= $0 ? .pass : .fail } ?? .info,
            rawValue: sv, rawBaseline: bv, unit: unit,
            note: [spread, shortfallNote(s, b)].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "; ")))
        if let sc = s.cpu, let bc = b.cpu, !sc.isEmpty, !bc.isEmpty {
            // Medians per role: the clock-tick resolution (10 ms) is coarse for one round.
            func med(_ c: [CPUPerRequest]) -> CPUPerRequest {
                CPUPerRequest(client: median(c.map(\.client)), middle: median(c.map(\.middle)), farEnd: median(c.map(\.farEnd)))
            }
            let sm = med(sc), bm = med(bc)
            func text(_ c: CPUPerRequest, _ middle: String, _ end: String) -> String {
                String(format: "%.1f µs (%@ %.1f, %@ %.1f, client %.1f)", c.total, middle, c.middle, end, c.farEnd, c.client)
            }
            if let target = middleCPUTarget {
                let ratio = sm.middle / bm.middle
                rows.append(ResultRow(
                    scenario: scenario, metric: "host CPU per request", value: String(format: "%.2f µs", sm.middle),
                    baseline: String(format: "%@ %.2f µs", baseline.name, bm.middle), ratio: ratio,
                    target: String(format: "≤ %.2f×", target), verdict: ratio <= target ? .pass : .fail,
                    rawValue: sm.middle, rawBaseline: bm.middle, unit: "µs CPU",
                    note: "user + system CPU of the host process (all threads) per answered request, median of the rounds: the routing cost itself, without the wake-up noise of a round trip"))
            } else {
                rows.append(ResultRow(
                    scenario: scenario, metric: "CPU per request", value: text(sm, subject.roles.0, subject.roles.1),
                    baseline: "\(baseline.name) " + text(bm, baseline.roles.0, baseline.roles.1), ratio: sm.total / bm.total, target: "–", verdict: .info,
                    rawValue: sm.total, rawBaseline: bm.total, unit: "µs CPU",
                    note: "user + system CPU of every process on the path (all threads) per answered request, median of the rounds; on 2 cores the path that needs more CPU per request runs out of cores first"))
            }
        }
        return (s, b)
    }

    /// Says what did not come back as a REPLY, on either side; nil when everything did.
    func shortfallNote(_ measurements: PathMeasurement...) -> String? {
        let parts = measurements.compactMap { m -> String? in
            let c = m.counts
            guard c.busy + c.otherErrors + c.missing > 0 else { return nil }
            var text = "\(m.path): \(c.sent) sent, \(c.ok) replies, \(c.busy) busy, \(c.otherErrors) other errors, \(c.missing) missing"
            if let e = c.firstError { text += " (first: \(e))" }
            return text
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
