import Foundation
import IntentBus
import Testing
import IntentBusTestSupport

/// Plugin lifecycle with the real host and real plugin processes (docs/lifecycle.md).
@Suite("Plugin lifecycle, end to end", .serialized)
struct LifecycleEndToEndTests {
    private func pid(_ host: TestHost, _ id: String) throws -> pid_t {
        pid_t(try #require(try host.plugin(id)?["pid"]?.intValue))
    }

    @Test("a SIGSTOPped plugin is found hung within two heartbeats; its request gets plugin_hung; it is restarted")
    func frozenPlugin() throws {
        let host = try TestHost(TestManifest(.test("alpha").heartbeat("300ms")), waitReady: ["alpha"])
        defer { host.stop() }
        let frozen = try pid(host, "alpha")
        let dealer = try host.rawDealer(receiveTimeoutMs: 5_000)
        try dealer.send(WireMessage(kind: .request, requestId: "f", intent: "TestIntent", header: nil,
                                    body: ["sleep_ms": 5_000]).frames)
        usleep(100_000)
        kill(frozen, SIGSTOP)
        let started = Date()
        let msg = try WireMessage.decode(try #require(try dealer.receive())[...])
        let waited = Date().timeIntervalSince(started)
        #expect(msg.kind == .error)
        #expect(BusError(json: try msg.bodyJSON()).code == .pluginHung)
        #expect(waited < 0.9, "found within two heartbeat intervals (0.6 s) plus scheduling: \(waited) s")
        let restarted = try host.waitForPlugin("alpha", state: "ready", notPid: Int64(frozen))
        #expect(restarted["pid"]?.intValue != Int64(frozen))
        let reply = try host.client().send("TestIntent", parameters: ["after": "hang"]) { _ in nil }
        #expect(reply.body["params"]?["after"] == "hang")
    }

    @Test("a busy plugin is not mistaken for a hung one: a 1.5 s handler with a 300 ms heartbeat succeeds")
    func busyIsNotHung() throws {
        let host = try TestHost(TestManifest(.test("alpha").heartbeat("300ms")), waitReady: ["alpha"])
        defer { host.stop() }
        let reply = try host.client().send("TestIntent", parameters: ["sleep_ms": 1_500]) { _ in nil }
        #expect(reply.succeeded)
        #expect(!host.log.contains("hung"))
    }

    @Test("on demand: stopped until the first request, which waits for the handshake; stopped again when idle")
    func onDemand() throws {
        let host = try TestHost(TestManifest(.test("lazy").extra("activation: on-demand", "idle_timeout: 500ms")))
        defer { host.stop() }
        #expect(try host.plugin("lazy")?["state"] == "stopped")
        let reply = try host.client().send("TestIntent", parameters: ["n": 1]) { _ in nil }
        #expect(reply.succeeded)
        #expect(host.logEventually(contains: "plugin lazy is started on demand"))
        _ = try host.waitForPlugin("lazy", state: "stopped", seconds: 10)
        #expect(host.log.contains("has been idle for 500 ms"))
        let again = try host.client().send("TestIntent", parameters: ["n": 2]) { _ in nil }
        #expect(again.body["params"]?["n"] == 2)
    }

    @Test("SIGTERM drains: an open request still gets its reply, then the host exits")
    func drainOnSigterm() throws {
        let host = try TestHost(TestManifest(.test("alpha"), host: .init(extra: ["drain_timeout: 5s"])), waitReady: ["alpha"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 5_000)
        try dealer.send(WireMessage(kind: .request, requestId: "d", intent: "TestIntent", header: nil,
                                    body: ["sleep_ms": 700]).frames)
        usleep(150_000)
        kill(host.process.processIdentifier, SIGTERM)
        let msg = try WireMessage.decode(try #require(try dealer.receive(), "\(host.log)")[...])
        #expect(msg.kind == .reply && msg.requestId == "d")
        host.process.waitUntilExit()
        #expect(host.log.contains("open requests may finish within 5 s"))
    }

    @Test("CANCEL reaches a Swift handler: its task is cancelled")
    func cancelReachesTheHandler() throws {
        let host = try TestHost(TestManifest(.test("alpha")), waitReady: ["alpha"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 5_000)
        try dealer.send(WireMessage(kind: .request, requestId: "c", intent: "TestIntent", header: nil,
                                    body: ["sleep_ms": 10_000]).frames)
        usleep(200_000)
        try dealer.send(WireMessage(kind: .cancel, requestId: "c", intent: "", header: nil, body: nil).frames)
        let msg = try WireMessage.decode(try #require(try dealer.receive())[...])
        #expect(BusError(json: try msg.bodyJSON()).code == .cancelled)
        #expect(host.logEventually(contains: "saw its task cancelled"))
    }
}
