import Foundation
import Testing
import IntentBus
@testable import PluginHost
@testable import IntentBusTestSupport

/// A plain REQUEST sent in the instant after its plugin died, before the host processed
/// the exit: libzmq says EHOSTUNREACH, the plugin never saw it, so it waits for the restart
/// (or another instance) instead of failing with plugin_unavailable.
@Suite("Undelivered requests wait for the restart")
struct UndeliveredRequeueTests {
    private func finals(_ h: CoreHarness) -> [WireMessage] {
        h.take().filter { $0.to == "c" && $0.msg.kind.isFinal }.map(\.msg)
    }

    @Test("unreachable plugin: no plugin_unavailable; delivered after the restart, one REPLY")
    func waitsForRestart() throws {
        let h = try CoreHarness(.core([.core("a", intents: ["I"], timeout: "5s")]))
        h.hello("a", intents: ["I"])
        _ = h.take()
        h.unreachablePlugins.insert("a")
        h.client("c", .request, "r", body: ["n": 7])
        #expect(finals(h).isEmpty, "not failed: it never reached the plugin")
        #expect(h.core.slots[0].inFlight == 0 && h.core.slots[0].waiting.count == 1)
        h.core.handle(.pluginExited(index: 0, pid: h.spawned[0].pid, status: .signalled(SIGKILL)))
        #expect(finals(h).isEmpty, "not in flight, so not plugin_crashed either")
        h.unreachablePlugins.remove("a")
        h.advance(milliseconds: 1_000)
        #expect(h.spawned.count == 2, "restarted")
        h.hello("a", intents: ["I"])
        guard let request = h.lastRequest(to: "a") else { Issue.record("not delivered after HELLO"); return }
        #expect(try request.bodyJSON() == ["n": 7], "the body survived the failed send")
        h.plugin("a", .reply, request.requestId, body: ["ok": true])
        let out = finals(h)
        #expect(out.count == 1 && out.first?.kind == .reply && out.first?.requestId == "r")
    }

    @Test("and if the plugin does not come back in time, the request's own deadline ends it")
    func deadline() throws {
        let h = try CoreHarness(.core([.core("a", intents: ["I"], timeout: "1s")]))
        h.hello("a", intents: ["I"])
        _ = h.take()
        h.unreachablePlugins.insert("a")
        h.client("c", .request, "r")
        h.advance(milliseconds: 1_100)
        let out = finals(h)
        #expect(out.count == 1 && out.first?.kind == .error)
        #expect(try out.first.map { BusError(json: try $0.bodyJSON()).code } == .timeout)
    }
}
