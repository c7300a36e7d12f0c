import Foundation
import IntentBus
import Testing
import IntentBusTestSupport

/// Plugins supervised through pidfds polled in the router's loop (docs/lifecycle.md,
/// "Supervision"): no waiter or log-reader threads, exits and output still seen.
@Suite("Supervision with pidfds, end to end", .serialized)
struct SupervisionEndToEndTests {
    private func threadNames(_ pid: pid_t) -> [String] {
        let dir = "/proc/\(pid)/task"
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "\(dir)/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    @Test("three plugins, no thread per child; a SIGKILL is seen and restarted; plugin output reaches the log")
    func noThreadPerChild() throws {
        let host = try TestHost(TestManifest(.test("a"), .test("b", intents: ["BIntent"]),
                                          .test("c", intents: ["CIntent"])),
                                waitReady: ["a", "b", "c"])
        defer { host.stop() }
        let names = threadNames(host.process.processIdentifier)
        #expect(!names.isEmpty)
        #expect(!names.contains { $0.hasPrefix("wait-") || $0.hasPrefix("log-") }, "\(names)")
        let victim = try #require(try host.plugin("b")?["pid"]?.intValue)
        kill(pid_t(victim), SIGKILL)
        let back = try host.waitForPlugin("b", state: "ready", notPid: victim)
        #expect(back["last_error"]?.stringValue?.contains("was killed by signal 9 (SIGKILL)") == true)
        #expect(host.log.contains("plugin b (pid \(victim)) was killed by signal 9"))
        // Output travels through the polled pipe: the handler's line on stderr.
        let dealer = try host.rawDealer(receiveTimeoutMs: 5_000)
        try dealer.send(WireMessage(kind: .request, requestId: "x", intent: "CIntent", header: nil,
                                    body: ["sleep_ms": 5_000]).frames)
        usleep(200_000)
        try dealer.send(WireMessage(kind: .cancel, requestId: "x", intent: "", header: nil, body: nil).frames)
        _ = try dealer.receive()
        #expect(host.logEventually(contains: "saw its task cancelled"))
        #expect(!threadNames(host.process.processIdentifier).contains { $0.hasPrefix("wait-") || $0.hasPrefix("log-") })
    }
}
