import Foundation
import Testing
@testable import IntentBus
@testable import PluginHost

/// The counters and their exposition, without a process.
@Suite("Stats units")
struct StatsUnitTests {
    @Test("latency window: nearest-rank quantiles over the newest values only")
    func latencyWindow() {
        var w = LatencyWindow(capacity: 100)
        #expect(w.quantile(0.5) == nil)
        for v in 1...100 { w.record(microseconds: UInt64(v)) }
        #expect(w.quantile(0.5) == 50)
        #expect(w.quantile(0.99) == 99)
        #expect(w.quantile(1) == 100)
        // 100 newer values of 1000 push every old one out.
        for _ in 0..<100 { w.record(microseconds: 1_000) }
        #expect(w.count == 100)
        #expect(w.quantile(0.5) == 1_000)
        w.record(microseconds: UInt64.max)
        #expect(w.quantile(1) == UInt32.max, "saturates instead of trapping")
    }

    @Test("counters: replies per plugin with latency, errors by code, busy from details.plugin, host intents ignored")
    func counters() {
        let stats = HostStats(pluginIds: ["a", "b"])
        let started = MonotonicClock.now()
        stats.completed(plugin: 0, final: WireMessage(kind: .reply, header: nil, body: ["x": 1]), startedAt: started)
        stats.completed(plugin: 0, final: WireMessage(kind: .error, header: nil,
                                                      body: BusError(.timeout, "slow").json), startedAt: started)
        stats.completed(plugin: nil, final: WireMessage(kind: .error, header: nil,
                                                        body: BusError(.cancelled, "x").json), startedAt: started)
        stats.completed(plugin: 1, final: WireMessage(kind: .error, header: nil, body: ["not": "an error"]), startedAt: started)
        stats.rejected(BusError(.busy, "full", details: ["plugin": "b"]), intent: "I")
        stats.rejected(BusError(.unknownIntent, "no"), intent: "J")
        stats.rejected(BusError(.unknownPlugin, "no"), intent: "ib.logs")
        #expect(stats.plugins[0].served == 1)
        #expect(stats.plugins[0].latency.count == 1)
        #expect(stats.plugins[0].errors == ["timeout": 1])
        #expect(stats.plugins[1].errors == ["unknown": 1, "busy": 1])
        #expect(stats.hostErrors == ["cancelled": 1, "unknown_intent": 1])
        #expect(stats.finals == 6)
    }

    @Test("a plugin's own error codes are bounded: 16 plain ones kept, the rest and odd ones count as other")
    func boundedCodes() {
        let stats = HostStats(pluginIds: ["a"])
        let started = MonotonicClock.now()
        func fail(_ code: String) {
            stats.completed(plugin: 0, final: WireMessage(kind: .error, header: nil,
                                                          body: ["code": .string(code), "message": "m"]), startedAt: started)
        }
        for i in 0..<2_000 { fail("custom_\(i)") }
        fail("Has Spaces\n{}")
        fail(String(repeating: "x", count: 65))
        fail("timeout")
        fail("custom_3")
        let errors = stats.plugins[0].errors
        #expect(errors.count == HostStats.maxPluginCodes + 2, "16 own codes, timeout and other: \(errors.keys.sorted())")
        #expect(errors["other"] == 2_000 - HostStats.maxPluginCodes + 2)
        #expect(errors["custom_3"] == 2 && errors["timeout"] == 1)
    }

    @Test("exposition: HELP and TYPE per metric, escaped label values, whole and fractional numbers")
    func exposition() {
        let report: JSON = [
            "host": ["uptime_s": 1.5, "open_exchanges": 2, "clients_with_open_requests": 1, "finals": 7,
                     "errors": ["unknown_intent": 3]],
            "plugins": [["id": "we\"ird\\id\n", "state": "ready", "restarts": 0, "in_flight": 1, "served": 5,
                         "errors": [:], "busy": 0, "latency": ["window": 5, "p50_ms": 2.5, "p99_ms": 10]]],
        ]
        let text = PrometheusExposition.render(report)
        #expect(text.contains("# HELP intentbus_host_uptime_seconds Seconds since the host started.\n# TYPE intentbus_host_uptime_seconds gauge\nintentbus_host_uptime_seconds 1.5\n"))
        #expect(text.contains("intentbus_host_errors_total{code=\"unknown_intent\"} 3\n"))
        #expect(text.contains("intentbus_plugin_requests_served_total{plugin=\"we\\\"ird\\\\id\\n\"} 5\n"))
        #expect(text.contains("intentbus_plugin_latency_seconds{plugin=\"we\\\"ird\\\\id\\n\",quantile=\"0.5\"} 0.0025\n"))
        #expect(text.contains("intentbus_plugin_latency_seconds{plugin=\"we\\\"ird\\\\id\\n\",quantile=\"0.99\"} 0.01\n"))
        #expect(!text.contains("intentbus_plugin_uptime_seconds{"), "no sample without a pid")
        #expect(PrometheusExposition.number(.double(.infinity)) == "+Inf")
    }
}
