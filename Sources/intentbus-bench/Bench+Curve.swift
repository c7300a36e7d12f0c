import Foundation
import IntentBus
import IntentBusProcess

/// A CURVE client's keys for one path: the host's public key and the load's key pair.
struct BenchCurve {
    let server: String
    let client: CurveKeyPair
    /// The load speaks the packed form (docs/protocol.md §2.1); `INTENTBUS_BENCH_CURVE_FRAMES=6`
    /// measures the six-frame form instead.
    var packed = ProcessInfo.processInfo.environment["INTENTBUS_BENCH_CURVE_FRAMES"] != "6"

    /// As the load processes' round command carries it.
    var json: JSON {
        ["server": .string(server), "public": .string(client.publicKey), "secret": .string(client.secretKey),
         "packed": .bool(packed)]
    }
}

extension Bench {
    /// What CURVE costs (docs/security.md): the same host and echo plugin over
    /// tcp://127.0.0.1, once with CURVE (the default for tcp, the load listed in
    /// host.clients) and once with `insecure: true`, measured side by side.
    func runCurve() throws {
        let plainFrontend = "tcp://127.0.0.1:\(try Self.freeTCPPort())"
        let (_, plainHost) = try startHost("tcp-plain", plugins: echoPluginEntry(), frontend: plainFrontend,
                                           hostLines: ["insecure: true"])
        let (curveFrontend, curveHost, curve) = try startCurveHost("tcp-curve")
        var plain = try connect("host over tcp", plainFrontend, intent: "EchoIntent", watching: [plainHost])
        var secure = try connect("host over tcp+CURVE", curveFrontend, intent: "EchoIntent", watching: [curveHost],
                                 curve: curve)
        (plain.middle, plain.farEnd, plain.roles) = ([plainHost.pid], ProcessUsage.childPids(plainHost.pid), ("host", "plugin"))
        (secure.middle, secure.farEnd, secure.roles) = ([curveHost.pid], ProcessUsage.childPids(curveHost.pid), ("host", "plugin"))
        log("CURVE against plain tcp: one in flight, 100 B")
        _ = try recorder.latency("tcp+CURVE, one in flight, 100 B", subject: secure, baseline: plain, size: 100,
                        count: settings.latencyCount, p50Target: 1.15)  // issue 30's goals
        log("CURVE against plain tcp: \(settings.window) in flight, 100 B")
        _ = try recorder.throughput("tcp+CURVE, \(settings.window) in flight, 100 B", subject: secure, baseline: plain, size: 100,
                           window: settings.window, count: settings.throughputCount, bytes: false, minRatio: 0.6)
        log("CURVE against plain tcp: \(settings.largeWindow) in flight, 1 MB")
        _ = try recorder.throughput("tcp+CURVE, \(settings.largeWindow) in flight, 1 MB", subject: secure, baseline: plain,
                           size: 1_000_000, window: settings.largeWindow, count: settings.largeCount, bytes: true,
                           minRatio: nil)
        try recorder.fleet().closeConnections()
        for child in [plainHost, curveHost] { child.stop() }
    }

    /// A host with the echo plugin behind a CURVE frontend on tcp://127.0.0.1, its
    /// `host.clients` listing a fresh key pair for the load (`prefix`: a profiler).
    func startCurveHost(_ name: String, prefix: [String] = []) throws -> (String, BenchChild, BenchCurve) {
        let keys = try CurveKeyPair.generate()
        let frontend = "tcp://127.0.0.1:\(try Self.freeTCPPort())"
        let (_, host) = try startHost(name, plugins: echoPluginEntry(), prefix: prefix, frontend: frontend, hostLines: [
            "clients:", "  - name: bench", "    public_key: \"\(keys.publicKey)\"", "    intents: [EchoIntent]",
        ])
        let publicKeyFile = "\(work)/\(name)/state/host.pub"
        try waitForFile(publicKeyFile, seconds: prefix.isEmpty ? 20 : 120, watching: host)
        usleep(100_000)  // written, then renamed into place: give the write its moment
        guard let server = CurveKeyPair.readKey(path: publicKeyFile) else {
            throw BenchFailure("\(publicKeyFile) holds no public key")
        }
        return (frontend, host, BenchCurve(server: server, client: keys))
    }

    /// A tcp port on 127.0.0.1 that nothing listens on now (`LoopbackPort`).
    static func freeTCPPort() throws -> Int { try LoopbackPort.free() }
}
