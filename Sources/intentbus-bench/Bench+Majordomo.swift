import Foundation
import IntentBus

extension Bench {
    /// Majordomo (docs/mdp.md) against the native protocol on one host, request by request
    /// alternating, one in flight, 100-byte bodies:
    /// - an MDP client → host → the echo plugin, against a native client → the same plugin;
    /// - a native client → host → an MDP echo worker (bench-worker --mdp), against the
    ///   same client → the echo plugin.
    func runMajordomo() throws {
        let dir = "\(work)/mdp"
        let mdpEndpoint = "ipc://\(dir)/mdp.sock"
        let (endpoint, host) = try startHost("mdp", plugins: echoPluginEntry() + """

          - id: mdpecho
            mdp_worker: true
            IntentsSupported: [MdpEchoIntent]
            timeout: 30s
            max_in_flight: 4096
        """, hostLines: ["mdp: \(mdpEndpoint)"])
        let native = try connect("native client → plugin", endpoint, intent: "EchoIntent", watching: [host])
        let mdp = try MajordomoLoadClient(context: context, endpoint: mdpEndpoint)
        guard try mdp.waitUntilAnswering(service: "EchoIntent", seconds: 20) else {
            throw BenchFailure("the MDP endpoint did not answer EchoIntent within 20 s; see the logs in \(work)")
        }
        let worker = try registry.spawn(bin("bench-worker"), ["--mdp", mdpEndpoint, "MdpEchoIntent"], label: "mdp-worker",
                                        logPath: "\(dir)/worker.log", dieWithUs: true)
        guard try native.client.waitUntilAnswering(intent: "MdpEchoIntent", seconds: 20) else {
            throw BenchFailure("the MDP worker did not answer within 20 s; see the logs in \(work)")
        }
        let body = LoadClient.payload(size: 100)
        log("mdp: MDP client vs native client, both to the echo plugin")
        try alternate("MDP client → host → plugin", ("MDP client", { try mdp.latencyRound(service: "EchoIntent", body: body, count: 1, seconds: 10) }),
                      against: ("native client", { try native.client.latencyRound(intent: "EchoIntent", body: body, count: 1, seconds: 10) }),
                      note: "the same host and echo plugin; the MDP path adds the reply's translation into one JSON frame (docs/mdp.md)")
        log("mdp: MDP worker vs echo plugin, both from a native client")
        try alternate("native client → host → MDP worker", ("MDP worker", {
            try native.client.latencyRound(intent: "MdpEchoIntent", body: body, count: 1, seconds: 10)
        }), against: ("echo plugin", { try native.client.latencyRound(intent: "EchoIntent", body: body, count: 1, seconds: 10) }),
            note: "bench-worker --mdp, an RFC 7 echo worker in Swift, against plugin-echo --raw, on the same host")
        worker.stop()
        host.stop()
    }

    /// One request at a time, alternating between the two paths (A B, B A, …) as
    /// `latency` does; p50 and p99 rows, for information (no target).
    private func alternate(_ scenario: String, _ a: (String, () throws -> ([UInt64], ReplyCounts)),
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
            result[name]!.p50 = percentile(all, 50)
            result[name]!.p99 = percentile(all, 99)
            result[name]!.samples = all.count
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
