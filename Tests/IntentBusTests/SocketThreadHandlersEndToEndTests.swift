import Foundation
import IntentBus
import Testing
import IntentBusTestSupport

/// A Swift plugin whose handlers run on its socket thread
/// (`PluginRuntime.runsHandlersOnSocketThread`), with the real host and plugin processes:
/// everything a handler does on the global executor still works, and handlers interleave
/// at their `await`s.
@Suite("Handlers on the plugin's socket thread, end to end", .serialized)
struct SocketThreadHandlersEndToEndTests {
    private let socketThread = ["TEST_SOCKET_THREAD": "1"]

    @Test("prompts and progress are relayed, and the answer reaches the handler")
    func promptAndProgress() throws {
        let host = try TestHost(TestManifest(.test("asker", env: socketThread)))
        defer { host.stop() }
        var progress: [String] = []
        let reply = try host.client().send("TestIntent", parameters: ["ask": "color", "progress": 2]) { event in
            switch event {
            case .progress(let body): progress.append(body["message"]?.stringValue ?? ""); return nil
            case .prompt: return ["value": "blue"]
            }
        }
        #expect(progress == ["step 1 of 2", "step 2 of 2"])
        #expect(reply.body["answer"] == "blue")
    }

    @Test("a sleeping handler does not hold up the next request: the later, quicker one answers first")
    func handlersInterleave() throws {
        let host = try TestHost(TestManifest(.test("alpha", env: socketThread)), waitReady: ["alpha"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 10_000)
        try dealer.send(WireMessage(kind: .request, requestId: "slow", intent: "TestIntent", header: nil,
                                    body: ["sleep_ms": 1_500]).frames)
        try dealer.send(WireMessage(kind: .request, requestId: "quick", intent: "TestIntent", header: nil,
                                    body: ["n": 1]).frames)
        var order: [String] = []
        while order.count < 2 {
            let msg = try WireMessage.decode(try #require(try dealer.receive(), "\(host.log)")[...])
            #expect(msg.kind == .reply, "\(msg.kind): \(msg.body.string)")
            order.append(msg.requestId)
        }
        #expect(order == ["quick", "slow"])
    }

    @Test("CANCEL reaches the handler's task")
    func cancelReachesTheHandler() throws {
        let host = try TestHost(TestManifest(.test("alpha", env: socketThread)), waitReady: ["alpha"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 5_000)
        try dealer.send(WireMessage(kind: .request, requestId: "c", intent: "TestIntent", header: nil,
                                    body: ["sleep_ms": 10_000]).frames)
        usleep(200_000)
        try dealer.send(WireMessage(kind: .cancel, requestId: "c", intent: "", header: nil, body: nil).frames)
        let msg = try WireMessage.decode(try #require(try dealer.receive())[...])
        #expect(msg.kind == .error)
        #expect(BusError(json: try msg.bodyJSON()).code == .cancelled)
        #expect(host.logEventually(contains: "saw its task cancelled"))
    }

    @Test("a handler that awaits keeps the plugin answering heartbeats: not hung")
    func awaitingIsNotHung() throws {
        let host = try TestHost(TestManifest(.test("alpha", env: socketThread).heartbeat("300ms")),
                                waitReady: ["alpha"])
        defer { host.stop() }
        let reply = try host.client().send("TestIntent", parameters: ["sleep_ms": 1_500]) { _ in nil }
        #expect(reply.succeeded)
        #expect(!host.log.contains("hung"))
    }
}
