import Foundation
import IntentBus
import Testing
import IntentBusTestSupport

/// The Swift SDK's synchronous plain handler (`runtime.on(intent) { request, context in … }`
/// with no `await`, `PluginSyncHandler`), which the SDK runs in the turn that received the
/// request, in the request's own frames, with the real host and plugin processes
/// (Tests/Plugins/TestPlugin with TEST_SYNC=1).
@Suite("Synchronous plain handlers, end to end", .serialized)
struct SyncHandlerEndToEndTests {
    private func syncPlugin(heartbeat: String = "1s") -> TestManifest {
        TestManifest(.test("alpha", env: ["TEST_SYNC": "1"]).heartbeat(heartbeat))
    }

    @Test("a closure without await is a synchronous handler: HELLO says plain, the reply carries status, plugin and the parameters")
    func answersLikeAnAsyncHandler() throws {
        let host = try TestHost(syncPlugin(), waitReady: ["alpha"])
        defer { host.stop() }
        let info = try #require(try host.plugin("alpha"))
        #expect(info["styles"]?["TestIntent"] == "plain", "\(info.canonicalString)")
        let reply = try host.client().send("TestIntent", parameters: ["n": 7, "text": "grüße \"quoted\"\n"]) { _ in nil }
        #expect(reply.succeeded)
        #expect(reply.plugin == "alpha")
        #expect(reply.header["status"] == "success")
        #expect(reply.body["params"]?["n"] == 7)
        #expect(reply.body["params"]?["text"] == "grüße \"quoted\"\n")
        #expect(reply.body["plugin"] == "alpha")
    }

    @Test("failure status, extra header fields, and a thrown BusError keeps its code")
    func statusHeaderAndThrow() throws {
        let host = try TestHost(syncPlugin(), waitReady: ["alpha"])
        defer { host.stop() }
        let client = try host.client()
        let failed = try client.send("TestIntent", parameters: ["fail": true]) { _ in nil }
        #expect(failed.status == "failure")
        #expect(failed.plugin == "alpha")
        let withHeader = try client.send("TestIntent", parameters: ["reply_header": ["note": "extra"]]) { _ in nil }
        #expect(withHeader.header["note"] == "extra")
        #expect(withHeader.header["plugin"] == "alpha")
        #expect(withHeader.header["status"] == "success")
        #expect {
            _ = try client.send("TestIntent", parameters: ["throw": "invalid_parameters"]) { _ in nil }
        } throws: { error in
            guard case .bus(let bus) = error as? ClientError else { return false }
            return bus.code == .invalidParameters && bus.message.contains("the handler threw")
        }
        // The plugin goes on serving after a throw.
        #expect(try client.send("TestIntent", parameters: ["after": 1]) { _ in nil }.succeeded)
    }

    @Test("progress reported by a synchronous handler arrives, in order, before its reply")
    func progressBeforeReply() throws {
        let host = try TestHost(syncPlugin(), waitReady: ["alpha"])
        defer { host.stop() }
        var seen: [String] = []
        let reply = try host.client().send("TestIntent", parameters: ["progress": 3]) { event in
            if case .progress(let body) = event { seen.append(body["message"]?.stringValue ?? "?") }
            return nil
        }
        #expect(reply.succeeded)
        #expect(seen == ["step 1 of 3", "step 2 of 3", "step 3 of 3"])
    }

    @Test("a body that is not a JSON object is refused before the handler runs; the plugin keeps serving")
    func badBodies() throws {
        let host = try TestHost(syncPlugin(), waitReady: ["alpha"])
        defer { host.stop() }
        try expectNonObjectBodiesRefused(host)
    }

    @Test("a synchronous handler that blocks its thread for 1 s, with a 300 ms heartbeat: not hung, quick requests answered meanwhile, each once")
    func blockingSynchronousHandler() throws {
        let host = try TestHost(syncPlugin(heartbeat: "300ms"), waitReady: ["alpha"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 10_000)
        let requests: [(String, JSON)] = [("slow", ["spin_ms": 1_000])] + (1...20).map { ("q\($0)", ["n": .int(Int64($0))]) }
        for (id, body) in requests {
            try dealer.send(WireMessage(kind: .request, requestId: id, intent: "TestIntent", header: nil, body: body).frames)
            if body["spin_ms"] != nil { usleep(100_000) }  // the handler is spinning before the others arrive
        }
        var got: [String] = []
        while got.count < requests.count {
            let msg = try WireMessage.decode(try #require(try dealer.receive(), "no answer within the timeout")[...])
            #expect(msg.kind == .reply, "\(msg.requestId): \(msg.kind) \(msg.body.string)")
            got.append(msg.requestId)
        }
        #expect(Set(got) == Set(requests.map(\.0)), "every request answered exactly once")
        #expect(got.count == requests.count)
        #expect(got.last == "slow", "the quick ones did not wait for the blocked handler: \(got)")
        #expect(!host.log.contains("hung"), "\(host.log)")
        // The loop moved to another thread and the plugin keeps serving from it.
        #expect(try host.client().send("TestIntent", parameters: ["after": "block"]) { _ in nil }.succeeded)
    }

    @Test("with handlerThreads = .globalExecutor a synchronous handler runs as a task there, and answers the same")
    func onTheGlobalExecutor() throws {
        let host = try TestHost(TestManifest(.test("alpha", env: ["TEST_SYNC": "1", "TEST_GLOBAL_EXECUTOR": "1"])),
                                waitReady: ["alpha"])
        defer { host.stop() }
        var progress = 0
        let reply = try host.client().send("TestIntent", parameters: ["progress": 2, "n": 3]) { event in
            if case .progress = event { progress += 1 }
            return nil
        }
        #expect(reply.succeeded)
        #expect(reply.body["params"]?["n"] == 3)
        #expect(progress == 2)
    }

    @Test("250 pipelined requests (the default max_in_flight is 256) to a synchronous handler: every one answered once, with its own parameters")
    func pipelined() throws {
        let host = try TestHost(syncPlugin(), waitReady: ["alpha"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 10_000)
        let count = 250
        for n in 0..<count {
            try dealer.send(WireMessage(kind: .request, requestId: "r\(n)", intent: "TestIntent", header: nil,
                                        body: ["n": .int(Int64(n))]).frames)
        }
        var seen = Set<String>()
        for _ in 0..<count {
            let msg = try WireMessage.decode(try #require(try dealer.receive(), "no answer within the timeout")[...])
            #expect(msg.kind == .reply)
            #expect(try msg.bodyJSON()["params"]?["n"]?.intValue.map { "r\($0)" } == msg.requestId)
            #expect(seen.insert(msg.requestId).inserted, "answered twice: \(msg.requestId)")
        }
        #expect(seen.count == count)
    }

    /// The SDK sends the answers of one read batch together (`PluginLoopState.heldFrames`):
    /// with progress in the middle of a burst, each request's PROGRESS still comes before
    /// its REPLY, and the last answers of a burst are sent before the loop waits again.
    @Test("a pipelined burst with progress among plain requests, sync and async handlers: progress before each reply, every request answered once", arguments: [true, false])
    func pipelinedWithProgress(sync: Bool) throws {
        // A long heartbeat: an answer held past the burst would wait for the host's next
        // message (its heartbeat, 30 s away), far beyond the receive timeout.
        let manifest = sync ? syncPlugin(heartbeat: "30s") : TestManifest(.test("alpha").heartbeat("30s"))
        let host = try TestHost(manifest, waitReady: ["alpha"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 8_000)
        let count = 101  // three full batches of 32 and a part
        for n in 0..<count {
            let body: JSON = n % 10 == 3 ? ["n": .int(Int64(n)), "progress": 2] : ["n": .int(Int64(n))]
            try dealer.send(WireMessage(kind: .request, requestId: "r\(n)", intent: "TestIntent", header: nil, body: body).frames)
        }
        var progress: [String: Int] = [:], replied = Set<String>()
        while replied.count < count {
            let msg = try WireMessage.decode(try #require(try dealer.receive(), "no answer within the timeout")[...])
            switch msg.kind {
            case .progress:
                #expect(!replied.contains(msg.requestId), "progress after the reply: \(msg.requestId)")
                progress[msg.requestId, default: 0] += 1
            case .reply:
                #expect(replied.insert(msg.requestId).inserted, "answered twice: \(msg.requestId)")
                #expect(try msg.bodyJSON()["params"]?["n"]?.intValue.map { "r\($0)" } == msg.requestId)
            default:
                Issue.record("unexpected \(msg.kind) for \(msg.requestId)")
            }
        }
        let asked = (0..<count).filter { $0 % 10 == 3 }.map { "r\($0)" }
        #expect(progress == Dictionary(uniqueKeysWithValues: asked.map { ($0, 2) }))
        // Nothing held back after the burst: one more request is answered at once.
        let reply = try host.client().send("TestIntent", parameters: ["after": "burst"]) { _ in nil }
        #expect(reply.body["params"]?["after"] == "burst")
    }
}
