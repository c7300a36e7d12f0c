import Foundation
import IntentBus

/// The plain path's throughput scenarios, on paths a scenario has connected: the load
/// generator's capacity check against the relay, and the sweep of the host against the
/// relay over depths and connection counts with the host's CPU, the p99 and the SDK's own
/// cost. Records through the recorder; starts nothing but the load it asks of it.
struct ThroughputSweep {
    let recorder: Recorder
    var settings: BenchSettings { recorder.settings }

    /// The load generator's capacity check: the relay loaded from twice the standard
    /// number of load processes against the standard number, the same total in flight. If
    /// the generator limited the relay, twice the generator would carry more; the baseline
    /// counts only if it does not (judged with 5 % for noise). One process against two is
    /// shown too, for information: it is why the standard is more than one.
    func generatorCheck(relay: Subject) throws {
        let standard = recorder.loadProcesses
        func loaded(_ processes: Int) -> Subject {
            var s = relay
            (s.name, s.loadProcesses) = ("relay, \(processes) load process\(processes == 1 ? "" : "es")", processes)
            return s
        }
        for (more, fewer) in [(standard * 2, standard), (standard, standard / 2)] where fewer >= 1 {
            let judged = fewer == standard
            let scenario = "generator \(fewer) → \(more) processes, relay, \(settings.window) in flight, 100 B"
            Recorder.log(scenario)
            let (m, f) = try recorder.throughput(scenario, subject: loaded(more), baseline: loaded(fewer), size: 100,
                                        window: settings.window, count: settings.throughputCount, bytes: false,
                                        minRatio: nil, connections: more,
                                        rounds: judged ? nil : settings.sweepRounds,
                                        seconds: judged ? nil : settings.sweepSeconds)
            guard judged, let index = recorder.rows.lastIndex(where: { $0.scenario == scenario && $0.metric == "req/s" }) else { continue }
            let ratio = median(m.rounds) / median(f.rounds)
            recorder.rows[index].target = "≤ 1.05×"
            recorder.rows[index].verdict = ratio <= 1.05 ? .pass : .fail
        }
    }

    /// Throughput of the host against the relay at several depths and connection counts,
    /// with the host's own CPU, the p99 at the standard depth, and the SDK's cost.
    func run(host: Subject, relay: Subject, rawPlugin: Subject, sdkRaw: Subject) throws {
        let window = settings.window
        for depth in settings.sweepWindows {
            let standard = depth == window
            // One load process per connection, and no more processes than requests in flight.
            let connections = min(recorder.loadProcesses, depth)
            let scenario = "\(depth) in flight, 100 B, \(connections) connection\(connections == 1 ? "" : "s")"
            Recorder.log(scenario)
            let judged = depth == 100 || depth == 200
            let (h, r) = try recorder.throughput(scenario, subject: host, baseline: relay, size: 100, window: depth,
                                        count: standard ? settings.throughputCount : settings.sweepCount,
                                        bytes: false, minRatio: judged ? 0.8 : nil,
                                        rounds: standard ? nil : settings.sweepRounds,
                                        seconds: standard ? nil : settings.sweepSeconds)
            guard standard else { continue }
            if let hc = Recorder.medianCPU(h), let rc = Recorder.medianCPU(r) {
                let ratio = hc.middle / rc.middle
                recorder.rows.append(ResultRow(
                    scenario: scenario, metric: "host CPU per request", value: String(format: "%.2f µs", hc.middle),
                    baseline: String(format: "zmq_proxy %.2f µs", rc.middle), ratio: ratio, target: "≤ 1.30×",
                    verdict: ratio <= 1.3 ? .pass : .fail, rawValue: hc.middle, rawBaseline: rc.middle, unit: "µs CPU",
                    note: "user + system CPU of the host process against the bench-relay process (zmq_proxy), all threads, per answered request, median of the rounds"))
            }
            if let hp99 = h.p99, let rp99 = r.p99 {
                recorder.rows.append(ResultRow(
                    scenario: scenario, metric: "p99", value: Format.micros(hp99), baseline: "relay \(Format.micros(rp99))",
                    ratio: hp99 / rp99, target: "reported", verdict: .info, rawValue: hp99, rawBaseline: rp99, unit: "ns",
                    note: "round trip of every REPLY in every round, measured by the load process from send to answer; missing answers: host \(h.counts.missing), relay \(r.counts.missing)"))
            }
        }
        for connections in settings.sweepConnections {
            let scenario = "\(window) in flight over \(connections) connection\(connections == 1 ? "" : "s"), 100 B"
            Recorder.log(scenario)
            // One connection is one socket, so one load process (which the generator check
            // shows can limit the relay). Many connections cost the generator a zmq_poll over
            // all of them per batch: they are spread over twice the standard processes.
            _ = try recorder.throughput(scenario, subject: host, baseline: relay, size: 100, window: window,
                               count: settings.sweepCount, bytes: false, minRatio: nil, connections: connections,
                               processes: min(connections, recorder.loadProcesses * 2),
                               rounds: settings.sweepRounds, seconds: settings.sweepSeconds)
        }
        // The same host in front of the far ends nobody writes, each as its own row: the
        // SDK's raw handler and the worker that decodes nothing (what the host alone costs).
        for other in [sdkRaw, rawPlugin] {
            let scenario = "\(window) in flight, 100 B, \(other.name)"
            Recorder.log(scenario)
            _ = try recorder.throughput(scenario, subject: other, baseline: relay, size: 100, window: window,
                               count: settings.sweepCount, bytes: false, minRatio: nil,
                               rounds: settings.sweepRounds, seconds: settings.sweepSeconds)
        }
        // The SDK's own cost: the echo plugin's ordinary plain handler, and its raw handler,
        // each against the worker that decodes nothing, each behind a host of its own, in
        // the same interleaved rounds: the same middle, so the far ends see the same arrival
        // pattern (the CPU a far end spends per request depends on how many messages each
        // wake-up finds).
        for (subject, label, target) in [(host, "plugin-echo", nil), (sdkRaw, "plugin-echo --raw", 1.2)] as [(Subject, String, Double?)] {
            let scenario = "plugin SDK \(target == nil ? "plain" : "raw") handler, \(window) in flight, 100 B"
            Recorder.log(scenario)
            let (h, w) = try recorder.throughput(scenario, subject: subject, baseline: rawPlugin, size: 100, window: window,
                                        count: settings.sweepCount, bytes: false, minRatio: nil,
                                        rounds: settings.sweepRounds, seconds: settings.sweepSeconds)
            guard let hc = Recorder.medianCPU(h), let wc = Recorder.medianCPU(w) else { continue }
            let ratio = hc.farEnd / wc.farEnd
            recorder.rows.append(ResultRow(
                scenario: scenario, metric: "far-end CPU per request", value: String(format: "\(label) %.2f µs", hc.farEnd),
                baseline: String(format: "no-decode plugin %.2f µs", wc.farEnd), ratio: ratio,
                target: target.map { String(format: "≤ %.2f×", $0) } ?? "reported",
                verdict: target.map { ratio <= $0 ? .pass : .fail } ?? .info, rawValue: hc.farEnd, rawBaseline: wc.farEnd, unit: "µs CPU",
                note: "user + system CPU of the far end (all threads, libzmq's I/O thread included) per answered request, median of the rounds: \(label) (the Swift SDK's \(target == nil ? "ordinary plain handler: receive, parse the parameters, run the handler, write its result" : "raw path: receive, decode, dispatch, reply")) against bench-worker --no-decode --plugin (HELLO, then echoes the frames as received with a constant kind and header), each behind its own host"))
        }
    }
}
