import Foundation
import IntentBus
import IntentBusProcess

extension Bench {
    /// The definition of bench-plugin's legacy intent: one String parameter and one
    /// response code, so that a request runs exactly resolve → confirm → handle.
    static let legacyDefinition = """
    intents:
      - name: BenchLegacyIntent
        title: Benchmark a legacy request
        parameters:
          - name: text
            displayName: Text
            type: String
        response:
          parameters:
            - {name: text, displayName: Text, type: String}
          codes:
            - name: success
              success: true
              formatString: ${text}
    """

    /// Legacy cost: one legacy request (resolve, confirm, handle, which the SDK answers in
    /// one plugin round trip when nothing needs asking, docs/protocol.md §8.9) against one new-style
    /// perform, and the perform against the SDK's ordinary plain handler (issue 30's
    /// "plain": what a plugin author writes, `runtime.on(intent) { request, _ in … }`), and
    /// that plain handler against the raw echo (`onRaw`, the cheapest far end, an info
    /// row), all on one host and one plugin process, alternating request by request.
    ///
    /// Twice: with the SDK's default (handlers on the socket loop's thread, the loop handed
    /// to another thread when a handler holds it), and with `runsHandlersOnSocketThread`
    /// (the same without the watcher that hands it over).
    func runLegacyCost() throws {
        let definition = "\(work)/bench-definitions.yaml"
        try Self.legacyDefinition.write(toFile: definition, atomically: true, encoding: .utf8)
        try runLegacyCost(definition: definition, socketThread: false)
        try runLegacyCost(definition: definition, socketThread: true)
    }

    private func runLegacyCost(definition: String, socketThread: Bool) throws {
        let suffix = socketThread ? ", handlers on the socket thread" : ""
        let (endpoint, host) = try startHost(socketThread ? "styles-socket-thread" : "styles", plugins: """
          - id: bench
            exec: \(bin("bench-plugin"))
            IntentsSupported: [EchoIntent, PlainEchoIntent, BenchLegacyIntent, BenchPerformIntent]
            definitions: [\(definition)]
            timeout: 30s
            max_in_flight: 4096
            env: {BENCH_STYLES: "1", BENCH_INTENTS: "EchoIntent", BENCH_SOCKET_THREAD: "\(socketThread ? 1 : 0)", \(Self.packedLinkEnv)}
        """)
        var plain = try connect("plain handler", endpoint, intent: "PlainEchoIntent", watching: [host])
        plain.parameter = "text"
        var raw = Subject(name: "raw echo", client: plain.client, intent: "EchoIntent")
        raw.parameter = "text"
        var legacy = Subject(name: "legacy", client: plain.client, intent: "BenchLegacyIntent")
        var perform = Subject(name: "new-style perform", client: plain.client, intent: "BenchPerformIntent")
        for index in [0, 1] {
            var s = index == 0 ? legacy : perform
            (s.parameter, s.echoes) = ("text", false)
            let (samples, counts) = try s.client.latencyRound(intent: s.intent, body: LoadClient.payload(size: 100, key: "text"),
                                                               count: 1, seconds: 10, echo: false)
            guard samples.count == 1 else {
                throw BenchFailure("\(s.intent) did not answer with a successful REPLY: \(counts.firstError ?? "timed out")")
            }
            if index == 0 { legacy = s } else { perform = s }
        }
        log("legacy cost\(suffix): legacy vs perform")
        let (l, _) = try recorder.latency("legacy: resolve + confirm + handle\(suffix)", subject: legacy, baseline: perform, size: 100,
                                 count: settings.styleCount, p50Target: nil)
        log("legacy cost\(suffix): perform vs plain handler")
        let (p, plainEcho) = try recorder.latency("new-style perform\(suffix)", subject: perform, baseline: plain, size: 100,
                                         count: settings.styleCount, p50Target: 1.15)
        // What the plain handler costs over the raw echo, in the same run (info): the
        // baseline the goals above used before issue 30 named the SDK's plain handler.
        log("legacy cost\(suffix): plain handler vs raw echo")
        _ = try recorder.latency("SDK plain handler\(suffix)", subject: plain, baseline: raw, size: 100,
                                 count: settings.styleCount, p50Target: nil)
        // Against the plain handler, measured in the same run (the perform scenario right
        // above): with nothing to ask, the request is one plugin round trip, as a plain one is.
        if let lp50 = l.p50, let plainP50 = plainEcho.p50, let pp50 = p.p50 {
            recorder.rows.append(ResultRow(scenario: "legacy: resolve + confirm + handle\(suffix)", metric: "p50 against plain",
                                  value: Format.micros(lp50), baseline: "plain handler \(Format.micros(plainP50))",
                                  ratio: lp50 / plainP50, target: "≤ 1.20×", verdict: lp50 <= 1.2 * plainP50 ? .pass : .fail,
                                  rawValue: lp50, rawBaseline: plainP50, unit: "ns",
                                  note: "one plugin round trip (`run`, protocol §8.9), against the plain handler's p50 from the perform scenario of the same run (new-style perform p50 there: \(Format.micros(pp50)))"))
        }
        if !socketThread {
            // Issue 30's other perform goal is throughput at 200 in flight; the plain handler
            // here is the same host and plugin process, so the ratio is the flow's cost.
            let roles = ([host.pid], ProcessUsage.childPids(host.pid), ("host", "plugin"))
            var performLoad = perform, plainLoad = plain
            (performLoad.middle, performLoad.farEnd, performLoad.roles) = roles
            (plainLoad.middle, plainLoad.farEnd, plainLoad.roles) = roles
            log("legacy cost: perform vs plain handler, \(settings.window) in flight")
            _ = try recorder.throughput("new-style perform, \(settings.window) in flight, 100 B", subject: performLoad, baseline: plainLoad,
                               size: 100, window: settings.window, count: settings.throughputCount, bytes: false, minRatio: nil)
            try styleThroughput(host: host, perform: perform, legacy: legacy)
        }
        host.stop()
    }

    /// perform() and legacy at `window` in flight against the same-shape relay, in the same
    /// run (issue 30's goals: perform >= 0.7x, legacy with nothing asked >= 0.5x).
    private func styleThroughput(host: BenchChild, perform: Subject, legacy: Subject) throws {
        let (relayEndpoint, relayChildren) = try startRelay("styles-relay")
        var relay = try connect("relay", relayEndpoint, intent: "EchoIntent", watching: relayChildren)
        (relay.middle, relay.farEnd) = ([relayChildren[0].pid], [relayChildren[1].pid])
        for (subject, minRatio) in [(perform, 0.7), (legacy, 0.5)] {
            var s = subject
            (s.middle, s.farEnd, s.roles) = ([host.pid], ProcessUsage.childPids(host.pid), ("host", "plugin"))
            log("\(s.name), \(settings.window) in flight, against the relay")
            _ = try recorder.throughput("\(s.name) against the relay, \(settings.window) in flight, 100 B", subject: s, baseline: relay, size: 100,
                               window: settings.window, count: settings.throughputCount, bytes: false, minRatio: minRatio)
        }
        try recorder.fleet().closeConnections()
        for child in relayChildren { child.stop() }
    }
}
