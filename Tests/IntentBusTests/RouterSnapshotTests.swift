import Foundation
import IntentBus
@testable import PluginHost
import Testing
@testable import IntentBusTestSupport

/// What status reports read of the router: a `RouterSnapshot` value, taken by the core,
/// and a report built from that value alone.
@Suite("Router snapshot for status reports")
struct RouterSnapshotTests {
    @Test("the report is built from the snapshot alone: host fields, each plugin's state and counts")
    func reportFromValue() throws {
        let snapshot = RouterSnapshot(
            plugins: [.init(index: 1, id: "b", state: "restarting", restarts: 3, inFlight: 0, open: 2, pid: nil)],
            slotCount: 2, openRequests: 5, clientsWithOpenRequests: 4,
            frontend: "ipc:///tmp/x.sock", peers: ["tcp://127.0.0.1:1"], majordomo: ["workers": 1])
        let report = HostStats(pluginIds: ["a", "b"]).report(snapshot)
        let host = try #require(report["host"])
        #expect(host["open_exchanges"] == 5 && host["clients_with_open_requests"] == 4)
        #expect(host["frontend"] == "ipc:///tmp/x.sock" && host["peers"] == ["tcp://127.0.0.1:1"])
        let plugins = try #require(report["plugins"]?.arrayValue)
        #expect(plugins.count == 1, "only the plugins in the snapshot")
        #expect(plugins[0]["id"] == "b" && plugins[0]["state"] == "restarting" && plugins[0]["restarts"] == 3)
        #expect(plugins[0]["open"] == 2 && plugins[0]["pid"] == nil)
        #expect(report["mdp"] == ["workers": 1])
    }

    @Test("the core's snapshot counts open requests per plugin and leaves retired plugins out")
    func coreSnapshot() throws {
        let h = try CoreHarness(.core([.core("a", intents: ["I"]), .core("b", intents: ["J"])]))
        h.hello("a", intents: ["I"])
        h.client("c", .request, "r1")
        h.client("d", .request, "r2")
        h.client("c", .request, "r3", "J")  // b has not said HELLO: it waits
        let snapshot = h.core.snapshot
        #expect(snapshot.openRequests == 3 && snapshot.clientsWithOpenRequests == 2)
        #expect(snapshot.plugins.map(\.id) == ["a", "b"] && snapshot.plugins.map(\.open) == [2, 1])
        #expect(snapshot.plugins[0].state == "ready" && snapshot.plugins[0].inFlight == 2 && snapshot.plugins[0].pid != nil)
        #expect(snapshot.plugins[1].state == "starting" && snapshot.plugins[1].inFlight == 0)
        _ = h.core.slots[1].life.retire()
        #expect(h.core.snapshot.plugins.map(\.id) == ["a"])
    }
}
