import Foundation
import IntentBus

/// The measurements, side by side, and what they found: one request in flight
/// (`latency`, and `alternate` for paths that are not `Subject`s), many in flight
/// (`throughput`, loaded from the `LoadFleet`, which it starts on first use), each
/// scenario's rows for the table (`rows`) and raw figures for the JSON (`details`).
/// Knows nothing of how the paths were started: a scenario connects them and hands the
/// subjects over. Owned by the benchmark's main thread.
final class Recorder {
    let settings: BenchSettings
    var rows: [ResultRow] = []
    var details: [ScenarioDetail] = []
    /// How many load processes a throughput round uses unless a scenario says otherwise.
    /// The fleet has twice as many, for the generator capacity check.
    let loadProcesses = 2
    /// Starts the load processes (given how many).
    private let startFleet: (Int) throws -> LoadFleet
    /// The load processes for throughput, started on first use.
    private var startedFleet: LoadFleet?

    init(settings: BenchSettings, startFleet: @escaping (Int) throws -> LoadFleet) {
        self.settings = settings
        self.startFleet = startFleet
    }

    func fleet() throws -> LoadFleet {
        if let startedFleet { return startedFleet }
        let f = try startFleet(loadProcesses * 2)
        startedFleet = f
        return f
    }

    static func log(_ message: String) {
        FileHandle.standardError.write(Data("[bench] \(message)\n".utf8))
    }

    /// The median of each role's CPU per request over a path's rounds.
    static func medianCPU(_ m: PathMeasurement) -> CPUPerRequest? {
        guard let c = m.cpu, !c.isEmpty else { return nil }
        return CPUPerRequest(client: median(c.map(\.client)), middle: median(c.map(\.middle)), farEnd: median(c.map(\.farEnd)))
    }

    // MARK: - Interleaved measurement

    /// Runs `measure` for both subjects, alternating which goes first, after one
    /// unrecorded warm-up round each.
    private func interleaved(_ a: Subject, _ b: Subject, rounds: Int, warmUp: (Subject) throws -> Void,
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
            result[name]!.summarize(all)
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
            result[name]!.summarize(all)
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

    /// One request at a time, alternating between the two paths (A B, B A, …) as
    /// `latency` does; p50 and p99 rows, for information (no target).
    func alternate(_ scenario: String, _ a: (String, () throws -> ([UInt64], ReplyCounts)),
                           against b: (String, () throws -> ([UInt64], ReplyCounts)), note: String) throws {
        var result = [a.0: PathMeasurement(path: a.0), b.0: PathMeasurement(path: b.0)]
        var samples: [String: [UInt64]] = [:]
        for _ in 0..<min(settings.latencyCount, 100) { _ = try a.1(); _ = try b.1() }  // warm-up
        for _ in 0..<settings.rounds {
            var round: [String: [UInt64]] = [:]
            let stopAt = MonotonicClock.now() + UInt64(settings.latencySeconds * 2 * 1e9)
            var i = 0
            while i < settings.latencyCount && MonotonicClock.now() < stopAt {
                for path in (i % 2 == 0 ? [a, b] : [b, a]) {
                    let (times, counts) = try path.1()
                    round[path.0, default: []] += times
                    result[path.0]!.counts.add(counts)
                }
                i += 1
            }
            for name in [a.0, b.0] {
                samples[name, default: []] += round[name] ?? []
                result[name]!.rounds.append(percentile(round[name] ?? [], 50))
            }
        }
        for name in [a.0, b.0] {
            let all = samples[name] ?? []
            guard !all.isEmpty else { throw BenchFailure("\(scenario): no successful reply on \(name) (\(result[name]!.counts.firstError ?? "none answered"))") }
            result[name]!.summarize(all)
        }
        let s = result[a.0]!, base = result[b.0]!
        details.append(ScenarioDetail(name: scenario, unit: "ns", measurements: [s, base], note: note))
        let shortfall = shortfallNote(s, base)
        for (metric, sv, bv) in [("p50", s.p50!, base.p50!), ("p99", s.p99!, base.p99!)] {
            rows.append(ResultRow(scenario: scenario, metric: metric, value: Format.micros(sv), baseline: "\(b.0) \(Format.micros(bv))",
                                  ratio: sv / bv, target: "–", verdict: .info, rawValue: sv, rawBaseline: bv, unit: "ns",
                                  note: metric == "p50" ? [note, shortfall].compactMap { $0 }.joined(separator: "; ") : nil))
        }
    }
}

extension PathMeasurement {
    /// The p50, p99 and count of all of a path's samples, after its rounds.
    mutating func summarize(_ all: [UInt64]) {
        p50 = percentile(all, 50)
        p99 = percentile(all, 99)
        samples = all.count
    }
}
