import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// `intentbus status` and `intentbus metrics` against a real host under a known load.
@Suite("Status and metrics", .serialized)
struct StatusMetricsTests {
    let intentbus = Products.path("intentbus")

    /// 20 replies of about 30 ms and 2 failure replies from alpha, 3 timeouts, 4 unknown
    /// intents, and one busy answer from beta (max_in_flight 1, one slow request open).
    func applyKnownLoad(_ host: TestHost) throws {
        let client = try host.client()
        for _ in 0..<20 { _ = try client.send("AlphaIntent", parameters: ["sleep_ms": 30]) { _ in nil } }
        for _ in 0..<2 { #expect(try !client.send("AlphaIntent", parameters: ["fail": true]) { _ in nil }.succeeded) }
        for _ in 0..<3 {
            #expect(throws: ClientError.self) { try client.send("AlphaIntent", parameters: ["sleep_ms": 2_000]) { _ in nil } }
        }
        for i in 0..<4 { #expect(throws: ClientError.self) { try client.send("NoSuchIntent\(i)") { _ in nil } } }
        // One slow request holds beta's only slot; the next is refused with busy.
        let dealer = try host.rawDealer()
        try dealer.send(WireMessage(kind: .request, requestId: "slow", intent: "BetaIntent", header: nil,
                                    body: ["sleep_ms": 1_500]).frames)
        usleep(300_000)
        #expect(throws: ClientError.self) { try client.send("BetaIntent") { _ in nil } }
        let reply = try #require(try dealer.receive())
        #expect(try WireMessage.decode(reply[...]).kind == .reply)
    }

    static let manifest = TestManifest(.test("alpha", intents: ["AlphaIntent"], timeout: "300ms"),
                                       .test("beta", intents: ["BetaIntent"]).maxInFlight(1))

    @Test("status --json and metrics show the known load: served, errors by code, busy, latency, host errors")
    func knownLoad() throws {
        let host = try TestHost(Self.manifest, waitReady: ["alpha", "beta"])
        defer { host.stop() }
        try applyKnownLoad(host)
        let ep = ["--endpoint", host.frontend]
        let r = runCommand(intentbus, ["status", "--json"] + ep)
        #expect(r.status == 0, "\(r.stderr)")
        let status = try JSON.parse(r.stdout)
        let plugins = status["plugins"]?.arrayValue ?? []
        let alpha = try #require(plugins.first { $0["id"] == "alpha" })
        let beta = try #require(plugins.first { $0["id"] == "beta" })
        #expect(alpha["served"] == 22)
        #expect(alpha["errors"] == ["timeout": 3])
        #expect(alpha["state"] == "ready")
        #expect(alpha["pid"]?.intValue == (try host.plugin("alpha"))?["pid"]?.intValue)
        #expect((alpha["uptime_s"]?.doubleValue ?? -1) > 0)
        #expect(alpha["restarts"] == 0)
        #expect(alpha["latency"]?["window"] == 22)
        let p50 = try #require(alpha["latency"]?["p50_ms"]?.doubleValue)
        let p99 = try #require(alpha["latency"]?["p99_ms"]?.doubleValue)
        #expect(p50 >= 30 && p50 < 1_000, "p50 \(p50) ms")
        #expect(p99 >= p50)
        #expect(beta["busy"] == 1)
        #expect(beta["errors"] == ["busy": 1])
        #expect(beta["served"] == 1)
        #expect(status["host"]?["errors"] == ["unknown_intent": 4])
        let finals: Int64 = 22 + 3 + 4 + 1 + 1
        #expect(status["host"]?["finals"]?.intValue == finals)
        #expect(status["host"]?["open_exchanges"] == 0)
        #expect((status["host"]?["uptime_s"]?.doubleValue ?? 0) > 0)

        let text = runCommand(intentbus, ["status"] + ep)
        #expect(text.status == 0)
        #expect(text.stdout.contains("open requests"), "\(text.stdout)")
        #expect(text.stdout.contains("refused before routing: unknown_intent 4"))
        #expect(text.stdout.split(separator: "\n").contains { $0.hasPrefix("alpha") && $0.contains("timeout 3") })

        let metrics = runCommand(intentbus, ["metrics"] + ep)
        #expect(metrics.status == 0, "\(metrics.stderr)")
        let lines = metrics.stdout.split(separator: "\n").map(String.init)
        for expected in [
            "intentbus_plugin_requests_served_total{plugin=\"alpha\"} 22",
            "intentbus_plugin_errors_total{plugin=\"alpha\",code=\"timeout\"} 3",
            "intentbus_plugin_busy_total{plugin=\"beta\"} 1",
            "intentbus_host_errors_total{code=\"unknown_intent\"} 4",
            "intentbus_plugin_up{plugin=\"alpha\",state=\"ready\"} 1",
            "intentbus_plugin_latency_window{plugin=\"alpha\"} 22",
        ] {
            #expect(lines.contains(expected), "missing \(expected)")
        }
        Self.checkExposition(lines)
    }

    /// Every sample belongs to a metric whose HELP and TYPE came first, and looks like
    /// `name{label="value",…} number`.
    static func checkExposition(_ lines: [String]) {
        let sample = try! Regex(#"^([a-z_]+)(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? (-?[0-9.]+(e[+-]?[0-9]+)?|NaN|[+-]Inf)$"#)
        var typed = Set<String>(), helped = Set<String>()
        for line in lines {
            if line.hasPrefix("# HELP ") { helped.insert(String(line.split(separator: " ")[2])); continue }
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                #expect(["counter", "gauge"].contains(String(parts[3])))
                typed.insert(String(parts[2]))
                continue
            }
            let match = line.wholeMatch(of: sample)
            #expect(match != nil, "not a sample line: \(line)")
            if let name = match?.output[1].substring.map(String.init) {
                #expect(typed.contains(name) && helped.contains(name), "\(name) has no HELP/TYPE before it")
            }
        }
    }

    @Test("host.metrics_file is written atomically and kept current; status --watch repeats the report")
    func metricsFileAndWatch() throws {
        let dir = TempDir()
        let host = try TestHost(TestManifest(.test("alpha", intents: ["AlphaIntent"]),
                                             host: .init(extra: ["metrics_file: metrics.prom", "metrics_interval: 1s"])),
                                dir: dir, waitReady: ["alpha"])
        defer { host.stop() }
        let file = "\(dir.path)/metrics.prom"
        func served() -> String? {
            (try? String(contentsOfFile: file, encoding: .utf8))?.split(separator: "\n")
                .first { $0.hasPrefix("intentbus_plugin_requests_served_total{plugin=\"alpha\"}") }.map(String.init)
        }
        var deadline = Date().addingTimeInterval(10)
        while served() == nil, Date() < deadline { usleep(100_000) }
        #expect(served() == "intentbus_plugin_requests_served_total{plugin=\"alpha\"} 0")
        let client = try host.client()
        for _ in 0..<5 { _ = try client.send("AlphaIntent") { _ in nil } }
        deadline = Date().addingTimeInterval(10)
        while served() != "intentbus_plugin_requests_served_total{plugin=\"alpha\"} 5", Date() < deadline { usleep(100_000) }
        #expect(served() == "intentbus_plugin_requests_served_total{plugin=\"alpha\"} 5")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        Self.checkExposition((try String(contentsOfFile: file, encoding: .utf8)).split(separator: "\n").map(String.init))

        let watch = runCommand(intentbus, ["status", "--watch", "--interval", "0.2", "--count", "3", "--endpoint", host.frontend])
        #expect(watch.status == 0, "\(watch.stderr)")
        #expect(watch.stdout.components(separatedBy: "PLUGIN  STATE").count - 1 == 3, "\(watch.stdout)")
        #expect(!watch.stdout.contains("\u{1B}["), "not a terminal: no screen control")
        let bad = runCommand(intentbus, ["status", "--interval", "0.2", "--endpoint", host.frontend])
        #expect(bad.status == 2)
    }

    @Test("metrics_file must be a .prom file and metrics_interval within 1s…1h")
    func manifestChecks() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let manifest = TestManifest(.test("alpha"), host: .init(extra: ["metrics_file: metrics.txt", "metrics_interval: 0s"]))
        let path = dir.write("plugins.yaml", manifest.yaml)
        let r = runCommand(intentbus, ["host", "--config", path])
        #expect(r.status == 6)
        #expect(r.stderr.contains("metrics_file: must end in .prom"), "\(r.stderr)")
        #expect(r.stderr.contains("metrics_interval: must be within 1s…1h"), "\(r.stderr)")
    }
}
