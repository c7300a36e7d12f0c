import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// End-to-end: the real `intentbus host`, real plugin processes, real ipc sockets.
@Suite("Routing end to end", .serialized)
struct RoutingEndToEndTests {
    @Test("a request reaches the plugin that claims the intent")
    func routesToTheRightPlugin() throws {
        let host = try TestHost(TestManifest(
            .test("alpha", intents: ["AlphaIntent"]),
            .test("beta", intents: ["BetaIntent"])))
        defer { host.stop() }
        let client = try host.client()
        let a = try client.send("AlphaIntent", parameters: ["x": 1]) { _ in nil }
        let b = try client.send("BetaIntent", parameters: ["y": "z"]) { _ in nil }
        #expect(a.status == "success")
        #expect(a.body["plugin"] == "alpha")
        #expect(a.body["params"]?["x"] == 1)
        #expect(a.plugin == "alpha")
        #expect(b.body["plugin"] == "beta")
        #expect(b.body["params"]?["y"] == "z")
    }

    @Test("an unknown intent gets unknown_intent, naming the intent")
    func unknownIntent() throws {
        let host = try TestHost(TestManifest(.test("alpha", intents: ["AlphaIntent"])))
        defer { host.stop() }
        let error = #expect(throws: ClientError.self) {
            _ = try host.client().send("NoSuchIntent") { _ in nil }
        }
        guard case .bus(let e)? = error else { Issue.record("expected a bus error, got \(String(describing: error))"); return }
        #expect(e.code == .unknownIntent)
        #expect(e.message.contains("NoSuchIntent"))
    }

    @Test("several claimants: choice_required lists every candidate, in id order, whatever the manifest order")
    func choiceRequired() throws {
        let host = try TestHost(TestManifest(
            .test("zulu", intents: ["SharedIntent"]),
            .test("alpha", intents: ["SharedIntent"])), waitReady: ["zulu", "alpha"])
        defer { host.stop() }
        let client = try host.client()
        var options = RequestOptions()
        options.choicePolicy = "fail"
        let error = #expect(throws: ClientError.self) {
            _ = try client.send("SharedIntent", options: options) { _ in nil }
        }
        guard case .bus(let e)? = error else { Issue.record("expected a bus error"); return }
        #expect(e.code == .choiceRequired)
        let ids = e.details["candidates"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
        #expect(ids == ["alpha", "zulu"])
        #expect(e.details["candidates"]?.arrayValue?.first?["name"] == "Test alpha")

        // Naming a plugin bypasses the choice.
        options.plugin = "zulu"
        let reply = try client.send("SharedIntent", options: options) { _ in nil }
        #expect(reply.body["plugin"] == "zulu")
    }

    @Test("a plugin that does not answer in time: the client gets timeout, and the host carries on")
    func timeout() throws {
        let host = try TestHost(TestManifest(.test("slow", timeout: "300ms")))
        defer { host.stop() }
        let client = try host.client()
        let error = #expect(throws: ClientError.self) {
            _ = try client.send("TestIntent", parameters: ["sleep_ms": 5000]) { _ in nil }
        }
        guard case .bus(let e)? = error else { Issue.record("expected a bus error"); return }
        #expect(e.code == .timeout)
        #expect(e.message.contains("slow"))
        let ok = try client.send("TestIntent", parameters: ["n": 2]) { _ in nil }
        #expect(ok.body["params"]?["n"] == 2)
    }

    @Test("a crash with requests in flight: each gets exactly one plugin_crashed, then the plugin is restarted")
    func crashInFlight() throws {
        let host = try TestHost(TestManifest(.test("crashy")), waitReady: ["crashy"])
        defer { host.stop() }
        let firstPid = try #require(try host.plugin("crashy")?["pid"]?.intValue)

        // Three slow requests in flight, on one raw DEALER socket so that every message
        // that comes back is counted.
        let dealer = try host.rawDealer()
        for i in 1...3 {
            try dealer.send(WireMessage(kind: .request, requestId: "slow-\(i)", intent: "TestIntent",
                                        header: nil, body: ["sleep_ms": 20000]).frames)
        }
        usleep(300_000)  // let them reach the plugin
        try dealer.send(WireMessage(kind: .request, requestId: "boom", intent: "TestIntent",
                                    header: nil, body: ["crash": 3]).frames)
        var finals: [String: [BusError]] = [:]
        try dealer.setReceiveTimeout(milliseconds: 10_000)
        while finals.count < 4, let frames = try dealer.receive() {
            let msg = try WireMessage.decode(frames[...])
            #expect(msg.kind == .error)
            finals[msg.requestId, default: []].append(BusError(json: try msg.bodyJSON()))
        }
        #expect(finals.keys.sorted() == ["boom", "slow-1", "slow-2", "slow-3"])
        for (id, errors) in finals {
            #expect(errors.count == 1, "request \(id) got \(errors.count) final answers")
            #expect(errors.first?.code == .pluginCrashed)
            #expect(errors.first?.message.contains("crashy") == true)
            #expect(errors.first?.message.contains("exited with status 3") == true)
        }
        // Nothing more arrives for them.
        try dealer.setReceiveTimeout(milliseconds: 500)
        #expect(try dealer.receive() == nil)

        let restarted = try host.waitForPlugin("crashy", state: "ready", notPid: firstPid)
        #expect(restarted["restarts"] == 1)
        let reply = try host.client().send("TestIntent", parameters: ["after": "restart"]) { _ in nil }
        #expect(reply.body["params"]?["after"] == "restart")
    }

    @Test("a plugin presenting the wrong token is rejected, and its intents say why")
    func badTokenRejected() throws {
        let host = try TestHost(TestManifest(.test("impostor", env: ["TEST_BAD_TOKEN": "1"])))
        defer { host.stop() }
        // It never becomes ready; the host logs the rejection.
        #expect(host.logEventually(contains: "rejected HELLO from plugin impostor: the token is wrong"))
        let p = try #require(try host.plugin("impostor"))
        #expect(p["state"] != "ready")
        #expect(p["last_error"]?.stringValue?.contains("token is wrong") == true)
    }

    @Test("malformed frames get bad_frame errors and the host keeps serving")
    func malformedFrames() throws {
        let host = try TestHost(TestManifest(.test("alpha")))
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 5000)

        // A REQUEST under a readable id that is not open gets its final ERROR; anything
        // else is REFUSED, which is never final (docs/protocol.md §3).
        func expectError(_ frames: [Frame], _ code: ErrorCode, _ text: String, kind: MessageKind = .refused,
                         id: String = "") throws {
            try dealer.send(frames)
            let reply = try #require(try dealer.receive())
            let msg = try WireMessage.decode(reply[...])
            #expect(msg.kind == kind, "\(text)")
            #expect(msg.requestId == id)
            let e = BusError(json: try msg.bodyJSON())
            #expect(e.code == code)
            #expect(e.message.contains(text), "\(e.message) should mention \(text)")
        }
        try expectError([Frame("hello")], .badFrame, "frame 0")
        try expectError([Frame("IB1"), Frame("REQUEST")], .badFrame, "expected 6 frames")
        try expectError([Frame("IB9"), Frame("REQUEST"), Frame("r"), Frame("TestIntent"), Frame(), Frame()],
                        .unsupportedVersion, "IB9", kind: .error, id: "r")
        try expectError([Frame("IB1"), Frame("EXPLODE"), Frame("r"), Frame("TestIntent"), Frame(), Frame()],
                        .badFrame, "kind", id: "r")
        try expectError([Frame("IB1"), Frame("REQUEST"), Frame(bytes: [0xff, 0xfe]), Frame("TestIntent"), Frame(), Frame()],
                        .badFrame, "request id")
        // An id of 256 bytes is never echoed back (the protocol allows 255).
        try expectError([Frame("IB1"), Frame("REQUEST"), Frame(String(repeating: "x", count: 256)), Frame("TestIntent"),
                         Frame(), Frame()], .badFrame, "request id")
        try expectError([Frame("IB1"), Frame("REQUEST"), Frame(""), Frame("TestIntent"), Frame(), Frame()],
                        .badFrame, "must not be empty", kind: .error)
        try expectError([Frame("IB1"), Frame("REQUEST"), Frame("r2"), Frame("TestIntent"), Frame("{not json"), Frame()],
                        .badFrame, "header", kind: .error, id: "r2")
        try expectError([Frame("IB1"), Frame("REQUEST"), Frame("r4"), Frame("TestIntent"), Frame("[1]"), Frame()],
                        .badFrame, "must be a JSON object", kind: .error, id: "r4")
        try expectError([Frame("IB1"), Frame("REPLY"), Frame("r3"), Frame("TestIntent"), Frame(), Frame()],
                        .badFrame, "REQUEST, ANSWER, CANCEL or HEARTBEAT", id: "r3")
        // A message of 100 frames costs the host no more than a short one.
        try expectError((0..<100).map { _ in Frame("IB1") }, .badFrame, "frames", id: "IB1")
        // Still serving.
        let ok = try host.client().send("TestIntent", parameters: ["still": true]) { _ in nil }
        #expect(ok.body["params"]?["still"] == true)
    }

    @Test("a missing plugin binary: the host starts anyway, and the intent's requests say why")
    func missingBinary() throws {
        let ghost = TestManifest.Plugin(id: "ghost", exec: "/nonexistent/plugin-ghost", intents: ["GhostIntent"])
        let host = try TestHost(TestManifest(ghost, .test("alpha")))
        defer { host.stop() }
        let error = #expect(throws: ClientError.self) {
            _ = try host.client().send("GhostIntent") { _ in nil }
        }
        guard case .bus(let e)? = error else { Issue.record("expected a bus error"); return }
        #expect(e.code == .pluginUnavailable)
        #expect(e.message.contains("executable not found: /nonexistent/plugin-ghost"))
        let ok = try host.client().send("TestIntent") { _ in nil }
        #expect(ok.status == "success")
    }

    @Test("prompts from a plugin are relayed and answered; progress arrives before the reply")
    func promptAndProgress() throws {
        let host = try TestHost(TestManifest(.test("asker")))
        defer { host.stop() }
        var progress: [String] = []
        var prompts: [Prompt] = []
        let reply = try host.client().send("TestIntent", parameters: ["ask": "color", "progress": 2]) { event in
            switch event {
            case .progress(let body): progress.append(body["message"]?.stringValue ?? ""); return nil
            case .prompt(let p): prompts.append(p); return ["value": "blue"]
            }
        }
        #expect(progress == ["step 1 of 2", "step 2 of 2"])
        #expect(prompts.map(\.parameter) == ["color"])
        #expect(reply.body["answer"] == "blue")
    }

    @Test("an ANSWER with no open conversation is refused with conversation_expired, never a final ERROR")
    func answerWithoutQuestion() throws {
        let host = try TestHost(TestManifest(.test("alpha")))
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 5000)
        try dealer.send(WireMessage(kind: .answer, requestId: "nope", intent: "", header: nil, body: ["value": 1]).frames)
        let msg = try WireMessage.decode(try #require(try dealer.receive())[...])
        #expect(msg.kind == .refused)
        #expect(try msg.headerJSON()["refused"] == "ANSWER")
        #expect(BusError(json: try msg.bodyJSON()).code == .conversationExpired)
    }

    @Test("a REQ client works too: the host echoes its delimiter")
    func reqClient() throws {
        let host = try TestHost(TestManifest(.test("alpha")))
        defer { host.stop() }
        let ctx = ZMQContext()
        let req = try ZMQSocket(ctx, .req)
        try req.connect(host.frontend)
        try req.setReceiveTimeout(milliseconds: 5000)
        try req.send(WireMessage(kind: .request, requestId: "q1", intent: "TestIntent", header: nil, body: ["k": "v"]).frames)
        let msg = try WireMessage.decode(try #require(try req.receive())[...])
        #expect(msg.kind == .reply)
        #expect(msg.requestId == "q1")
        #expect(try msg.bodyJSON()["params"]?["k"] == "v")
    }
}

@Suite("Clients that misbehave", .serialized)
struct ClientMisbehaviourTests {
    @Test("a client that vanishes with a request in flight: the reply is dropped, the host keeps serving")
    func vanishingClient() throws {
        let host = try TestHost(TestManifest(.test("alpha")), waitReady: ["alpha"])
        defer { host.stop() }
        do {
            let dealer = try host.rawDealer()
            try dealer.send(WireMessage(kind: .request, requestId: "gone", intent: "TestIntent",
                                        header: nil, body: ["sleep_ms": 300]).frames)
            usleep(100_000)
            dealer.close()
        }
        // The plugin's late reply reaches the host and is dropped.
        #expect(host.logEventually(contains: "the client has gone away; its REPLY was dropped"))
        let reply = try host.client().send("TestIntent", parameters: ["after": 1]) { _ in nil }
        #expect(reply.body["params"]?["after"] == 1)
    }

    @Test("a request id reused while open is REFUSED (duplicate_request); the first still gets its one answer")
    func duplicateRequestId() throws {
        let host = try TestHost(TestManifest(.test("alpha")), waitReady: ["alpha"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 10_000)
        for _ in 0..<2 {
            try dealer.send(WireMessage(kind: .request, requestId: "same", intent: "TestIntent",
                                        header: nil, body: ["sleep_ms": 200]).frames)
        }
        let first = try WireMessage.decode(try #require(try dealer.receive())[...])
        #expect(first.kind == .refused && !first.kind.isFinal)
        #expect(first.requestId == "same")
        #expect(try first.headerJSON()["refused"] == "REQUEST")
        #expect(BusError(json: try first.bodyJSON()).code == .duplicateRequest)
        let second = try WireMessage.decode(try #require(try dealer.receive())[...])
        #expect(second.kind == .reply)
        #expect(second.requestId == "same")
        try dealer.setReceiveTimeout(milliseconds: 500)
        #expect(try dealer.receive() == nil, "exactly one final answer for the id")
    }

    @Test("an ANSWER before any prompt is REFUSED (unexpected_answer); the request's one final is its REPLY")
    func strayAnswer() throws {
        let host = try TestHost(TestManifest(.test("alpha")), waitReady: ["alpha"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 10_000)
        try dealer.send(WireMessage(kind: .request, requestId: "s1", intent: "TestIntent",
                                    header: nil, body: ["sleep_ms": 300]).frames)
        usleep(50_000)
        try dealer.send(WireMessage(kind: .answer, requestId: "s1", intent: "", header: nil, body: ["value": 1]).frames)
        let first = try WireMessage.decode(try #require(try dealer.receive())[...])
        #expect(first.kind == .refused)
        #expect(BusError(json: try first.bodyJSON()).code == .unexpectedAnswer)
        let final = try WireMessage.decode(try #require(try dealer.receive())[...])
        #expect(final.kind == .reply && final.requestId == "s1")
        try dealer.setReceiveTimeout(milliseconds: 500)
        #expect(try dealer.receive() == nil, "exactly one final answer for the id")
    }

    @Test("CANCEL ends a request with exactly one cancelled error")
    func cancel() throws {
        let host = try TestHost(TestManifest(.test("alpha")), waitReady: ["alpha"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 10_000)
        try dealer.send(WireMessage(kind: .request, requestId: "c1", intent: "TestIntent",
                                    header: nil, body: ["sleep_ms": 1000]).frames)
        usleep(100_000)
        try dealer.send(WireMessage(kind: .cancel, requestId: "c1", intent: "", header: nil, body: nil).frames)
        let msg = try WireMessage.decode(try #require(try dealer.receive())[...])
        #expect(msg.kind == .error)
        #expect(BusError(json: try msg.bodyJSON()).code == .cancelled)
        try dealer.setReceiveTimeout(milliseconds: 1500)
        #expect(try dealer.receive() == nil, "the plugin's late answer must not reach the client")
    }
}
