import Foundation
import IntentBus

extension Bench {
    /// On-demand activation (docs/lifecycle.md): the first request to a stopped on-demand
    /// plugin against a warm request to the same plugin, on one running host. Between
    /// rounds the plugin stops itself (`idle_timeout`), so each first request starts it.
    func runActivation() throws {
        let entry = """
          - id: lazy
            exec: \(bin("plugin-echo")) --raw
            IntentsSupported: [EchoIntent]
            timeout: 30s
            activation: on-demand
            idle_timeout: 100ms
        """
        let (endpoint, host) = try startHost("activation", plugins: entry)
        defer { host.stop() }
        try waitForFile(String(endpoint.dropFirst("ipc://".count)), seconds: 10, watching: host)
        let control = try IntentClient(endpoint: endpoint)
        let client = try LoadClient(context: context, endpoint: endpoint)
        let body = LoadClient.payload(size: 100)
        var cold: [Double] = [], warm: [Double] = []
        for round in 0..<max(3, settings.coldStarts * 2) {
            try waitUntilStopped(control, round: round)
            let (first, counts) = try client.latencyRound(intent: "EchoIntent", body: body, count: 1, seconds: 10)
            guard let sample = first.first else {
                throw BenchFailure("activation: no reply to the first request (\(counts.firstError ?? "timed out"))")
            }
            cold.append(Double(sample))
            let (samples, _) = try client.latencyRound(intent: "EchoIntent", body: body, count: 20, seconds: 5)
            warm.append(median(samples.map { Double($0) }))
        }
        let c = median(cold), w = median(warm), extra = c - w
        recorder.details.append(ScenarioDetail(name: "on-demand activation", unit: "ns", measurements: [
            PathMeasurement(path: "first request", rounds: cold), PathMeasurement(path: "warm request", rounds: warm),
        ], note: "a stopped on-demand echo plugin: spawn, HELLO, then the held request"))
        recorder.rows.append(ResultRow(scenario: "cold start", metric: "on-demand first request",
                              value: Format.millis(c), baseline: "warm \(Format.millis(w))", ratio: c / w,
                              target: "≤ 50 ms extra", verdict: extra <= 50e6 ? .pass : .fail, rawValue: c, rawBaseline: w,
                              unit: "ns",
                              note: "median of \(cold.count) first requests to a stopped on-demand plugin (spawn + HELLO + the held request) against warm requests to it: \(Format.millis(extra)) extra"))
    }

    private func waitUntilStopped(_ control: IntentClient, round: Int) throws {
        let deadline = MonotonicClock.now() + 10_000_000_000
        while MonotonicClock.now() < deadline {
            if let plugins = try? control.control("ib.plugins")["plugins"]?.arrayValue,
               plugins.first?["state"]?.stringValue == "stopped" { return }
            usleep(20_000)
        }
        throw BenchFailure("activation: the on-demand plugin did not stop by itself before round \(round)")
    }
}
