import Foundation
import IntentBus
@testable import PluginHost
import Testing
@testable import IntentBusTestSupport

/// Plugin lifecycle in the router core (docs/lifecycle.md), with recorded effects and a
/// test clock: hang detection, on-demand start and idle stop, the breaker, drain, and
/// run-time restart/disable/enable.
@Suite("Router core: plugin lifecycle")
struct RouterLifecycleTests {
    /// One plugin `a` claiming `I`, changed by `change`.
    private func manifest(host: [String] = [], _ change: (inout TestManifest.Plugin) -> Void = { _ in }) -> TestManifest {
        .core([TestManifest.Plugin.core("a", intents: ["I"], timeout: "10s").with(change)], host: host)
    }

    private func code(_ msg: WireMessage) -> ErrorCode? {
        msg.kind == .error ? BusError(json: (try? msg.bodyJSON()) ?? [:]).code : nil
    }

    private func finals(_ h: CoreHarness) -> [WireMessage] { h.take().filter { $0.to == "c" && $0.msg.kind.isFinal }.map(\.msg) }

    @Test("a frozen plugin is found within two heartbeat intervals: plugin_hung, SIGTERM, SIGKILL, and a restart")
    func hangDetection() throws {
        let h = try CoreHarness(manifest { $0.heartbeat = "1s" })
        h.hello("a", intents: ["I"])
        h.client("c", .request, "r")
        _ = h.take()
        h.advance(milliseconds: 5_000)  // alive: it answers every heartbeat
        #expect(finals(h).isEmpty && h.core.slots[0].stateName == "ready")
        h.frozen.insert("a")
        let pid = h.spawned[0].pid
        h.advance(milliseconds: 1_900)
        #expect(finals(h).isEmpty, "not yet")
        h.advance(milliseconds: 100)
        let out = finals(h)
        #expect(out.count == 1 && code(out[0]) == .pluginHung, "found within 2 s of freezing")
        #expect(h.signalled.map(\.signal) == [SIGTERM])
        h.advance(milliseconds: 1_000)
        #expect(h.signalled.map(\.signal) == [SIGTERM, SIGKILL], "a stopped process ignores SIGTERM")
        h.core.handle(.pluginExited(index: 0, pid: pid, status: .signalled(SIGKILL)))
        h.frozen.remove("a")
        h.advance(milliseconds: 200)
        #expect(h.spawned.count == 2, "started again after its backoff")
    }

    @Test("on demand: not started with the host; the first request starts it and is delivered after HELLO; idle stops it")
    func onDemand() throws {
        let h = try CoreHarness(manifest { $0.extra = ["activation: on-demand", "idle_timeout: 2s"] })
        #expect(h.spawned.isEmpty)
        h.client("c", .request, "first")
        #expect(h.spawned.map(\.id) == ["a"])
        h.hello("a", intents: ["I"])
        let req = try #require(h.lastRequest(to: "a"))
        h.plugin("a", .reply, req.requestId, header: ["plugin": "a", "status": "success"], body: [:])
        #expect(finals(h).count == 1)
        h.advance(milliseconds: 2_100)
        #expect(h.take().contains { $0.to == "a" && $0.msg.kind == .disconnect }, "idle: told to leave")
        h.core.handle(.pluginExited(index: 0, pid: h.spawned[0].pid, status: .exited(0)))
        #expect(h.core.slots[0].stateName == "stopped" && h.core.slots[0].restarts == 0, "not a crash")
        h.client("c", .request, "second")
        #expect(h.spawned.count == 2, "started again by the next request")
    }

    @Test("the breaker opens after crash_limit crashes, fails requests fast, and closes after a successful half-open start")
    func breaker() throws {
        let h = try CoreHarness(manifest { $0.extra = ["crash_limit: 2", "breaker_cooldown: 5s"] })
        for _ in 0..<2 {
            h.core.handle(.pluginExited(index: 0, pid: h.spawned.last!.pid, status: .exited(1)))
            h.advance(milliseconds: 300)
        }
        #expect(h.core.slots[0].breakerOpen && h.spawned.count == 2)
        h.client("c", .request, "fast")
        let out = finals(h)
        #expect(code(out[0]) == .pluginUnavailable)
        #expect(BusError(json: try out[0].bodyJSON()).message.contains("circuit open"))
        h.advance(milliseconds: 5_000)
        #expect(h.spawned.count == 3, "half-open: one start")
        h.hello("a", intents: ["I"])
        #expect(!h.core.slots[0].breakerOpen && h.core.slots[0].crashTimes.isEmpty, "closed")
    }

    @Test("SIGTERM drains: new requests get shutting_down, open ones finish, then DISCONNECT; a second signal cuts it short")
    func drain() throws {
        let h = try CoreHarness(manifest(host: ["drain_timeout: 5s"]))
        h.hello("a", intents: ["I"])
        h.client("c", .request, "open")
        let req = try #require(h.lastRequest(to: "a"))
        _ = h.take()
        h.core.handle(.shutdown)
        h.client("c", .request, "late")
        #expect(finals(h).map { code($0) } == [.shuttingDown])
        h.plugin("a", .reply, req.requestId, header: ["plugin": "a", "status": "success"], body: [:])
        let after = h.take()
        #expect(after.contains { $0.to == "c" && $0.msg.kind == .reply }, "the open request finished")
        #expect(after.contains { $0.to == "a" && $0.msg.kind == .disconnect }, "then the plugins were stopped")

        let g = try CoreHarness(manifest(host: ["drain_timeout: 5s"]))
        g.hello("a", intents: ["I"])
        g.client("c", .request, "open")
        _ = g.take()
        g.core.handle(.shutdown)
        g.core.handle(.shutdown)
        #expect(finals(g).map { code($0) } == [.shuttingDown], "the second signal ends what is open")
    }

    @Test("restart, disable and enable at run time")
    func runTimeControl() throws {
        let h = try CoreHarness(manifest())
        h.hello("a", intents: ["I"])
        _ = h.take()
        h.client("c", .request, "d", "ib.plugins.disable", body: ["plugin": "a"])
        #expect(h.take().contains { $0.to == "a" && $0.msg.kind == .disconnect })
        h.core.handle(.pluginExited(index: 0, pid: h.spawned[0].pid, status: .exited(0)))
        h.client("c", .request, "r")
        #expect(code(finals(h)[0]) == .pluginUnavailable)
        h.client("c", .request, "e", "ib.plugins.enable", body: ["plugin": "a"])
        #expect(h.spawned.count == 2)
        h.hello("a", intents: ["I"])
        h.client("c", .request, "re", "ib.plugins.restart", body: ["plugin": "a"])
        h.core.handle(.pluginExited(index: 0, pid: h.spawned[1].pid, status: .exited(0)))
        #expect(h.spawned.count == 3 && h.core.slots[0].restarts == 1)
    }
}
