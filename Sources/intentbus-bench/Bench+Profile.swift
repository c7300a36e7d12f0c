import Foundation
import IntentBus

extension Bench {
    /// Profiling mode (`--profile SECONDS`): starts one host with the echo plugin, keeps
    /// `window` 100-byte requests in flight for `seconds`, prints the rate and stops.
    /// `--host-prefix` runs the host under a profiler, e.g.
    /// `valgrind --tool=callgrind --callgrind-out-file=/tmp/host.cg`; without it, attach
    /// `perf record -g -p PID` to the pid it prints. `INTENTBUS_BENCH_PROFILE=curve`: the
    /// host behind a tcp+CURVE frontend instead (packed, or six frames with
    /// `INTENTBUS_BENCH_CURVE_FRAMES=6`), as in "What CURVE costs".
    func runProfile(seconds: Double, hostPrefix: [String]) throws {
        let endpoint: String, host: BenchChild, curve: BenchCurve?
        if ProcessInfo.processInfo.environment["INTENTBUS_BENCH_PROFILE"] == "curve" {
            (endpoint, host, curve) = try startCurveHost("profile", prefix: hostPrefix)
        } else {
            (endpoint, host) = try startHost("profile", plugins: echoPluginEntry(), prefix: hostPrefix)
            curve = nil
        }
        let subject = try connect("host", endpoint, intent: "EchoIntent", watching: [host], curve: curve)
        log("host pid \(host.pid) (log: \(work)/profile/host.log); \(settings.window) in flight, 100 B, for \(seconds) s")
        let body = LoadClient.payload(size: 100)
        let stopAt = MonotonicClock.now() + UInt64(seconds * 1e9)
        var total = ReplyCounts()
        var elapsed = 0.0
        while MonotonicClock.now() < stopAt {
            let (s, counts) = try subject.client.throughputRound(intent: subject.intent, body: body, window: settings.window,
                                                                  count: 1_000_000, seconds: min(1, seconds))
            elapsed += s
            total.add(counts)
        }
        print(String(format: "%.0f req/s: %d sent, %d replies, %d busy, %d other errors, %d missing",
                     Double(total.ok) / elapsed, total.sent, total.ok, total.busy, total.otherErrors, total.missing))
        // SIGTERM lets the host (and a profiler around it) finish and write its output.
        host.stop(grace: 60)
    }
}
