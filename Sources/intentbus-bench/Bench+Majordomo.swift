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
        try recorder.alternate("MDP client → host → plugin", ("MDP client", { try mdp.latencyRound(service: "EchoIntent", body: body, count: 1, seconds: 10) }),
                      against: ("native client", { try native.client.latencyRound(intent: "EchoIntent", body: body, count: 1, seconds: 10) }),
                      note: "the same host and echo plugin; the MDP path adds the reply's translation into one JSON frame (docs/mdp.md)")
        log("mdp: MDP worker vs echo plugin, both from a native client")
        try recorder.alternate("native client → host → MDP worker", ("MDP worker", {
            try native.client.latencyRound(intent: "MdpEchoIntent", body: body, count: 1, seconds: 10)
        }), against: ("echo plugin", { try native.client.latencyRound(intent: "EchoIntent", body: body, count: 1, seconds: 10) }),
            note: "bench-worker --mdp, an RFC 7 echo worker in Swift, against plugin-echo --raw, on the same host")
        worker.stop()
        host.stop()
    }
}
