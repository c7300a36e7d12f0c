import Foundation
import IntentBus
import IntentBusProcess

extension Bench {
    /// Host against relay: latency at one in flight, throughput at ~200 in flight, and
    /// bytes per second with 1 MB bodies. Both paths stay up for the whole phase.
    func runHostAgainstRelay() throws {
        let (relayEndpoint, relayChildren) = try startRelay("relay")
        let (hostEndpoint, host) = try startHost("host", plugins: echoPluginEntry())
        // The same host in front of the SDK's raw handler (`plugin-echo --raw`), for its own rows.
        let (sdkRawEndpoint, sdkRawHost) = try startHost("host-sdk-raw", plugins: echoPluginEntry(raw: true))
        // The same host in front of the echo worker that decodes nothing: the SDK's baseline.
        let (rawEndpoint, rawHost) = try startHost("host-raw", plugins: """
          - id: echo
            exec: \(bin("bench-worker")) --no-decode --plugin
            IntentsSupported: [EchoIntent]
            timeout: 30s
            max_in_flight: 4096
        """)
        var relay = try connect("relay", relayEndpoint, intent: "EchoIntent", watching: relayChildren)
        var rawPlugin = try connect("host, no-decode plugin", rawEndpoint, intent: "EchoIntent", watching: [rawHost])
        var hostPath = try connect("host", hostEndpoint, intent: "EchoIntent", watching: [host])
        var sdkRaw = try connect("host, SDK raw handler", sdkRawEndpoint, intent: "EchoIntent", watching: [sdkRawHost])
        (sdkRaw.middle, sdkRaw.farEnd, sdkRaw.roles) = ([sdkRawHost.pid], ProcessUsage.childPids(sdkRawHost.pid), ("host", "plugin"))
        (relay.middle, relay.farEnd) = ([relayChildren[0].pid], [relayChildren[1].pid])
        (rawPlugin.middle, rawPlugin.farEnd, rawPlugin.roles) = ([rawHost.pid], ProcessUsage.childPids(rawHost.pid), ("host", "worker"))
        (hostPath.middle, hostPath.farEnd, hostPath.roles) = ([host.pid], ProcessUsage.childPids(host.pid), ("host", "plugin"))
        log("paths ready: relay \(relayEndpoint), host pid \(host.pid), host with the no-decode plugin pid \(rawHost.pid)")

        for (label, size) in [("100 B", 100), ("10 KB", 10_000), ("1 MB", 1_000_000)] {
            let count = size >= 1_000_000 ? settings.latencyCountLarge : settings.latencyCount
            log("one in flight, \(label)")
            _ = try recorder.latency("one in flight, \(label)", subject: hostPath, baseline: relay, size: size, count: count,
                            p50Target: size == 100 ? 1.10 : 1.25)
        }
        let sweep = ThroughputSweep(recorder: recorder)
        try sweep.generatorCheck(relay: relay)
        try sweep.run(host: hostPath, relay: relay, rawPlugin: rawPlugin, sdkRaw: sdkRaw)
        log("\(settings.window) in flight, 10 KB")
        _ = try recorder.throughput("\(settings.window) in flight, 10 KB", subject: hostPath, baseline: relay, size: 10_000,
                           window: settings.window, count: settings.throughputCount, bytes: false, minRatio: 0.6)
        log("\(settings.largeWindow) in flight, 1 MB")
        _ = try recorder.throughput("\(settings.largeWindow) in flight, 1 MB", subject: hostPath, baseline: relay, size: 1_000_000,
                           window: settings.largeWindow, count: settings.largeCount, bytes: true, minRatio: 0.6)
        let hostPeak = host.peakRSSKilobytes.map(Double.init)
        let relayPeak = relayChildren[0].peakRSSKilobytes.map(Double.init)
        if let hostPeak, let relayPeak {
            recorder.rows.append(ResultRow(scenario: "after the runs above", metric: "peak RSS", value: Format.megabytes(hostPeak),
                                  baseline: "relay \(Format.megabytes(relayPeak))", ratio: hostPeak / relayPeak, target: "–",
                                  verdict: .info, rawValue: hostPeak, rawBaseline: relayPeak, unit: "kB",
                                  note: "VmHWM of the host process alone (plugins excluded), after 1 MB bodies went through it"))
        }
        try recorder.fleet().closeConnections()
        for child in [host, rawHost, sdkRawHost] + relayChildren { child.stop() }
    }

    /// Routing cost with 1,000 declared intents and 100 declared plugins (10 running)
    /// against a host with one intent and one plugin, and the big host's peak RSS.
    func runScale() throws {
        let intentsPerPlugin = settings.scaleIntents / settings.scalePlugins
        func intents(of plugin: Int) -> [String] {
            (0..<intentsPerPlugin).map { String(format: "Intent%04d", plugin * intentsPerPlugin + $0) }
        }
        // The plugins beyond the running ten point at a binary that does not exist: the host
        // tolerates that (the plugin is reported unavailable), which is the closest thing to
        // "declared but not running" until lazy activation exists.
        let missing = "\(work)/not-built/bench-plugin"
        var entries: [String] = []
        for p in 0..<settings.scalePlugins {
            let names = intents(of: p)
            entries.append("""
              - id: p\(p)
                exec: \(p < settings.scaleRunningPlugins ? bin("bench-plugin") : missing)
                IntentsSupported: [\(names.joined(separator: ", "))]
                timeout: 30s
                env: {BENCH_INTENTS: "\(names.joined(separator: ","))", \(Self.packedLinkEnv)}
            """)
        }
        let target = intents(of: 0)[intentsPerPlugin / 2]
        let single = """
          - id: p0
            exec: \(bin("bench-plugin"))
            IntentsSupported: [\(target)]
            timeout: 30s
            env: {BENCH_INTENTS: "\(target)", \(Self.packedLinkEnv)}
        """
        let (smallEndpoint, small) = try startHost("scale-1", plugins: single)
        let (bigEndpoint, big) = try startHost("scale-1000", plugins: entries.joined(separator: "\n"))
        var one = try connect("1 intent", smallEndpoint, intent: target, watching: [small])
        var many = try connect("\(settings.scaleIntents) intents", bigEndpoint, intent: target, watching: [big])
        // Every running plugin must be up (and routable) before memory is read.
        for p in 0..<settings.scaleRunningPlugins {
            _ = try connect("plugin p\(p)", bigEndpoint, intent: intents(of: p)[0], watching: [big])
        }
        (one.middle, one.farEnd, one.roles) = ([small.pid], ProcessUsage.childPids(small.pid), ("host", "plugins"))
        (many.middle, many.farEnd, many.roles) = ([big.pid], ProcessUsage.childPids(big.pid), ("host", "plugins"))
        let bigIdle = big.rssKilobytes.map(Double.init) ?? .nan
        let smallIdle = small.rssKilobytes.map(Double.init) ?? .nan
        log("scale hosts ready: \(settings.scalePlugins) plugins (\(settings.scaleRunningPlugins) running), \(settings.scaleIntents) intents")

        let scenario = "\(settings.scaleIntents) intents, \(settings.scalePlugins) plugins"
        log("\(scenario): one in flight")
        _ = try recorder.latency(scenario + ", one in flight", subject: many, baseline: one, size: 100,
                        count: settings.latencyCount, p50Target: 1.10)
        log("\(scenario): \(settings.window) in flight")
        _ = try recorder.throughput(scenario + ", \(settings.window) in flight", subject: many, baseline: one, size: 100,
                           window: settings.window, count: settings.throughputCount, bytes: false, minRatio: nil,
                           middleCPUTarget: 1.10)
        let bigPeak = big.peakRSSKilobytes.map(Double.init) ?? .nan
        let smallPeak = small.peakRSSKilobytes.map(Double.init) ?? .nan
        recorder.rows.append(ResultRow(scenario: scenario, metric: "host peak RSS", value: Format.megabytes(bigPeak),
                              baseline: "1 plugin \(Format.megabytes(smallPeak))", ratio: bigPeak / smallPeak,
                              target: "≤ 30 MB", verdict: bigPeak <= 30 * 1024 ? .pass : .fail,
                              rawValue: bigPeak, rawBaseline: smallPeak, unit: "kB",
                              note: "VmHWM of the host process after the scale runs; 90 of the 100 plugins have no binary (declared, not running)"))
        recorder.rows.append(ResultRow(scenario: scenario, metric: "host RSS, idle", value: Format.megabytes(bigIdle),
                              baseline: "1 plugin \(Format.megabytes(smallIdle))", ratio: bigIdle / smallIdle,
                              target: "–", verdict: .info, rawValue: bigIdle, rawBaseline: smallIdle, unit: "kB",
                              note: "VmRSS once every plugin is up, before any load; most of it is the Swift runtime and Foundation libraries' pages, shared with other Swift processes"))
        recorder.details.append(ScenarioDetail(name: scenario + ", memory", unit: "kB", measurements: [
            PathMeasurement(path: "\(settings.scaleIntents) intents", rounds: [bigPeak, bigIdle]),
            PathMeasurement(path: "1 intent", rounds: [smallPeak, smallIdle]),
        ], note: "rounds: [peak VmHWM after load, VmRSS idle before load], kB"))
        try recorder.fleet().closeConnections()
        big.stop()
        small.stop()
    }

    /// Cold start, as far as it can be measured today: from starting a host process to
    /// the first REPLY from its (not yet running) echo plugin, against the same for the
    /// relay and its worker.
    func runColdStart() throws {
        var hostTimes: [Double] = [], relayTimes: [Double] = []
        for i in 0..<settings.coldStarts {
            for path in (i % 2 == 0 ? ["host", "relay"] : ["relay", "host"]) {
                let start = MonotonicClock.now()
                let endpoint: String, children: [BenchChild]
                if path == "host" {
                    let (e, h) = try startHost("cold-host-\(i)", plugins: echoPluginEntry(), dieWithUs: false)
                    (endpoint, children) = (e, [h])
                } else {
                    (endpoint, children) = try startRelay("cold-relay-\(i)", dieWithUs: false)
                }
                defer { for child in children { child.stop() } }
                // Connect once the socket file exists: a connect before the bind would wait
                // for libzmq's 100 ms reconnect interval and measure that instead.
                try waitForFile(String(endpoint.dropFirst("ipc://".count)), seconds: 10, watching: children[0])
                let client = try LoadClient(context: context, endpoint: endpoint)
                let (samples, counts) = try client.latencyRound(intent: "EchoIntent", body: LoadClient.payload(size: 100),
                                                                 count: 1, seconds: 10)
                guard samples.count == 1 else {
                    throw BenchFailure("cold start: \(path) gave no reply (\(counts.firstError ?? "timed out"))")
                }
                let elapsed = Double(MonotonicClock.now() - start)
                if path == "host" { hostTimes.append(elapsed) } else { relayTimes.append(elapsed) }
            }
        }
        let h = median(hostTimes), r = median(relayTimes)
        recorder.details.append(ScenarioDetail(name: "cold start (proxy)", unit: "ns", measurements: [
            PathMeasurement(path: "host", rounds: hostTimes), PathMeasurement(path: "relay", rounds: relayTimes),
        ], note: "process start to the first reply (the on-demand figure is runActivation's)"))
        recorder.rows.append(ResultRow(scenario: "cold start (proxy)", metric: "host start → first reply",
                              value: Format.millis(h), baseline: "relay \(Format.millis(r))", ratio: h / r,
                              target: "≤ 50 ms", verdict: h <= 50e6 ? .pass : .fail, rawValue: h, rawBaseline: r, unit: "ns",
                              note: "median of \(hostTimes.count) starts: host process + manifest + spawn of the echo plugin + HELLO + one request"))
    }

    /// `--only generator`: the capacity check on a relay of its own.
    func runGeneratorCheckAlone() throws {
        let (endpoint, children) = try startRelay("relay")
        var relay = try connect("relay", endpoint, intent: "EchoIntent", watching: children)
        (relay.middle, relay.farEnd) = ([children[0].pid], [children[1].pid])
        try ThroughputSweep(recorder: recorder).generatorCheck(relay: relay)
        try recorder.fleet().closeConnections()
        for child in children { child.stop() }
    }

    func log(_ message: String) { Recorder.log(message) }
}
