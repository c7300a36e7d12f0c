import Foundation
import IntentBus
import IntentBusProcess

extension Bench {
    /// `--only compare --base-bin DIR`: this build's host against another build's (the
    /// commit before a change, built with `swift build -c release` in its own checkout),
    /// both in front of their own `plugin-echo`, loaded in the same run with the rounds
    /// interleaved (A B, B A, …) so that a shared machine's noise hits both alike: the
    /// plain path's throughput at the standard depth and the host's CPU per request, each
    /// judged against "within 5 %".
    func runCompare(baseBin: String) throws {
        let plugin = { (dir: String) in
            """
              - id: echo
                exec: \(dir)/plugin-echo
                IntentsSupported: [EchoIntent]
                timeout: 30s
                max_in_flight: 4096
            """
        }
        let (newEndpoint, newHost) = try startHost("compare-this", plugins: plugin(options.binDirectory))
        let (baseEndpoint, baseHost) = try startHost("compare-base", plugins: plugin(baseBin),
                                                     executable: "\(baseBin)/intentbus")
        var this = try connect("this build", newEndpoint, intent: "EchoIntent", watching: [newHost])
        var base = try connect("base build", baseEndpoint, intent: "EchoIntent", watching: [baseHost])
        (this.middle, this.farEnd, this.roles) = ([newHost.pid], ProcessUsage.childPids(newHost.pid), ("host", "plugin"))
        (base.middle, base.farEnd, base.roles) = ([baseHost.pid], ProcessUsage.childPids(baseHost.pid), ("host", "plugin"))
        let connections = min(recorder.loadProcesses, settings.window)
        let scenario = "this build vs \(baseBin), \(settings.window) in flight, 100 B, \(connections) connections"
        log(scenario)
        _ = try recorder.throughput(scenario, subject: this, baseline: base, size: 100, window: settings.window,
                           count: settings.throughputCount, bytes: false, minRatio: 0.95, middleCPUTarget: 1.05,
                           connections: connections)
        log("this build vs \(baseBin), one in flight, 100 B")
        _ = try recorder.latency("this build vs base, one in flight, 100 B", subject: this, baseline: base, size: 100,
                        count: settings.latencyCount, p50Target: 1.05)
        try recorder.fleet().closeConnections()
        for child in [newHost, baseHost] { child.stop() }
    }
}
