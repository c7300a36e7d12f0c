import Foundation
import IntentBus
import IntentBusProcess

/// A CURVE client's keys for one path: the host's public key and the load's key pair.
struct BenchCurve {
    let server: String
    let client: CurveKeyPair

    /// As the load processes' round command carries it.
    var json: JSON {
        ["server": .string(server), "public": .string(client.publicKey), "secret": .string(client.secretKey)]
    }
}

extension Bench {
    /// What CURVE costs (docs/security.md): the same host and echo plugin over
    /// tcp://127.0.0.1, once with CURVE (the default for tcp, the load listed in
    /// host.clients) and once with `insecure: true`, measured side by side.
    func runCurve() throws {
        let keys = try CurveKeyPair.generate()
        let plainFrontend = "tcp://127.0.0.1:\(try Self.freeTCPPort())"
        let curveFrontend = "tcp://127.0.0.1:\(try Self.freeTCPPort())"
        let (_, plainHost) = try startHost("tcp-plain", plugins: echoPluginEntry(), frontend: plainFrontend,
                                           hostLines: ["insecure: true"])
        let (_, curveHost) = try startHost("tcp-curve", plugins: echoPluginEntry(), frontend: curveFrontend, hostLines: [
            "clients:", "  - name: bench", "    public_key: \"\(keys.publicKey)\"", "    intents: [EchoIntent]",
        ])
        let publicKeyFile = "\(work)/tcp-curve/state/host.pub"
        try waitForFile(publicKeyFile, seconds: 20, watching: curveHost)
        usleep(100_000)  // written, then renamed into place: give the write its moment
        guard let server = CurveKeyPair.readKey(path: publicKeyFile) else {
            throw BenchFailure("\(publicKeyFile) holds no public key")
        }
        let curve = BenchCurve(server: server, client: keys)
        var plain = try connect("host over tcp", plainFrontend, intent: "EchoIntent", watching: [plainHost])
        var secure = try connect("host over tcp+CURVE", curveFrontend, intent: "EchoIntent", watching: [curveHost],
                                 curve: curve)
        (plain.middle, plain.farEnd, plain.roles) = ([plainHost.pid], ProcessUsage.childPids(plainHost.pid), ("host", "plugin"))
        (secure.middle, secure.farEnd, secure.roles) = ([curveHost.pid], ProcessUsage.childPids(curveHost.pid), ("host", "plugin"))
        log("CURVE against plain tcp: one in flight, 100 B")
        _ = try latency("tcp+CURVE, one in flight, 100 B", subject: secure, baseline: plain, size: 100,
                        count: settings.latencyCount, p50Target: nil)
        log("CURVE against plain tcp: \(settings.window) in flight, 100 B")
        _ = try throughput("tcp+CURVE, \(settings.window) in flight, 100 B", subject: secure, baseline: plain, size: 100,
                           window: settings.window, count: settings.throughputCount, bytes: false, minRatio: nil)
        log("CURVE against plain tcp: \(settings.largeWindow) in flight, 1 MB")
        _ = try throughput("tcp+CURVE, \(settings.largeWindow) in flight, 1 MB", subject: secure, baseline: plain,
                           size: 1_000_000, window: settings.largeWindow, count: settings.largeCount, bytes: true,
                           minRatio: nil)
        try fleet().closeConnections()
        for child in [plainHost, curveHost] { child.stop() }
    }

    /// A tcp port on 127.0.0.1 that nothing listens on now (`LoopbackPort`).
    static func freeTCPPort() throws -> Int { try LoopbackPort.free() }
}
