import Foundation
import IntentBus
@testable import PluginHost
import Testing
@testable import IntentBusTestSupport

/// The router core on its own: events in, effects out, a clock the test moves. No
/// process is spawned and no socket is opened (CoreHarness records both).
@Suite("Router core")
struct RouterCoreTests {
    private func ready(_ plugins: [(id: String, intents: [String])], host: [String] = []) throws -> CoreHarness {
        let h = try CoreHarness(.core(plugins.map { .core($0.id, intents: $0.intents) }, host: host))
        for p in plugins { h.hello(p.id, intents: p.intents) }
        _ = h.take()
        return h
    }

    private func finals(_ sent: [CoreHarness.Sent], to client: String = "c") -> [WireMessage] {
        sent.filter { $0.to == client && $0.msg.kind.isFinal }.map(\.msg)
    }

    @Test("start spawns each enabled plugin with a token; HELLO with it gets WELCOME, with another gets REJECT")
    func handshake() throws {
        let h = try CoreHarness(.core([.core("a", intents: ["I"]), .core("b", intents: ["J"])]))
        #expect(h.spawned.map(\.id) == ["a", "b"])
        h.hello("a", intents: ["I"])
        #expect(h.take().map(\.msg.kind) == [.welcome])
        h.core.pluginFrames([Frame("b")] + WireMessage(kind: .hello, header: nil,
            body: ["protocol": 1, "plugin": "b", "token": "wrong", "intents": ["J"]]).frames)
        let reject = try #require(h.take().first?.msg)
        #expect(reject.kind == .reject)
        #expect(try reject.bodyJSON()["code"] == "bad_token")
    }

    @Test("a request goes to its plugin under a host id, and the reply back under the client's id: one final")
    func routesAndReplies() throws {
        let h = try ready([("a", ["I"])])
        h.client("c", .request, "r1", body: ["x": 1])
        let delivered = try #require(h.lastRequest(to: "a"))
        #expect(delivered.requestId != "r1")
        #expect(try delivered.bodyJSON()["x"] == 1)
        h.plugin("a", .reply, delivered.requestId, header: ["plugin": "a", "status": "success"], body: ["ok": true])
        let out = finals(h.take())
        #expect(out.count == 1 && out[0].kind == .reply && out[0].requestId == "r1")
        // A second reply for the same request is dropped.
        h.plugin("a", .reply, delivered.requestId, header: ["plugin": "a", "status": "success"], body: [:])
        #expect(h.take().isEmpty)
    }

    @Test("a request for a plugin still starting waits for its HELLO, within its own deadline")
    func heldUntilReady() throws {
        let h = try CoreHarness(.core([.core("a", intents: ["I"])]))
        h.client("c", .request, "early")
        #expect(h.take().isEmpty)
        h.hello("a", intents: ["I"])
        #expect(h.take().map(\.msg.kind) == [.welcome, .request])
        h.client("c", .request, "late")
        h.core.handle(.pluginExited(index: 0, pid: h.spawned[0].pid, status: .exited(1)))
        let crashed = finals(h.take())
        #expect(crashed.map(\.requestId).sorted() == ["early", "late"])
        #expect(crashed.allSatisfy { BusError(json: (try? $0.bodyJSON()) ?? [:]).code == .pluginCrashed })
    }

    @Test("admission: unknown intent, duplicate id (REFUSED), bad header, per-client cap, a client that is not reading")
    func admission() throws {
        let h = try ready([("a", ["I"])], host: ["limits:\n  max_open_per_client: 2"])
        h.client("c", .request, "u", "Nope")
        #expect(BusError(json: try finals(h.take())[0].bodyJSON()).code == .unknownIntent)
        h.client("c", .request, "r1")
        h.client("c", .request, "r1")
        let dup = h.take().filter { $0.to == "c" }
        #expect(dup.map(\.msg.kind) == [.refused])
        h.client("c", .request, "t", header: ["timeout_ms": 1e13])
        #expect(BusError(json: try finals(h.take())[0].bodyJSON()).message.contains("timeout_ms"))
        h.client("c", .request, "r2")
        h.client("c", .request, "r3")
        let capped = finals(h.take())
        #expect(capped.map(\.requestId) == ["r3"])
        #expect(BusError(json: try capped[0].bodyJSON()).code == .busy)
        h.backlog["d"] = 5
        h.client("d", .request, "x")
        #expect(BusError(json: try finals(h.take(), to: "d")[0].bodyJSON()).code == .busy)
    }

    @Test("the choice policy: ask, then route the answer; fail gives choice_required; a preset default routes")
    func choicePolicy() throws {
        let h = try ready([("a", ["I"]), ("b", ["I"])])
        h.client("c", .request, "q")
        let prompt = try #require(h.take().first { $0.msg.kind == .prompt }?.msg)
        #expect((try prompt.bodyJSON()["kind"]) == "plugin_choice")
        h.client("c", .answer, "q", body: ["value": "b"])
        #expect(h.lastRequest(to: "b") != nil && h.lastRequest(to: "a") == nil)
        _ = h.take()
        h.client("c", .request, "f", header: ["choice": "fail"])
        #expect(BusError(json: try finals(h.take())[0].bodyJSON()).code == .choiceRequired)

        let p = try ready([("a", ["I"]), ("b", ["I"])], host: ["defaults:\n  I: b"])
        p.client("c", .request, "d")
        #expect(p.lastRequest(to: "b") != nil)
    }

    @Test("a deadline: timeout to the client, CANCEL to the plugin, and the late reply is dropped")
    func timeout() throws {
        let h = try ready([("a", ["I"])])
        h.client("c", .request, "slow")
        let hostId = try #require(h.lastRequest(to: "a")).requestId
        h.advance(milliseconds: 1_999)
        #expect(finals(h.take()).isEmpty)
        h.advance(milliseconds: 2)
        let sent = h.take()
        #expect(sent.contains { $0.to == "a" && $0.msg.kind == .cancel })
        #expect(BusError(json: try finals(sent)[0].bodyJSON()).code == .timeout)
        h.plugin("a", .reply, hostId, header: ["plugin": "a", "status": "success"], body: [:])
        #expect(h.take().isEmpty)
    }

    @Test("an unusable CANCEL is REFUSED conversation_expired, never final; a client HEARTBEAT gets one back")
    func unusableCancelAndHeartbeat() throws {
        let h = try ready([("a", ["I"])])
        h.client("c", .cancel, "never-open")
        h.client("c", .request, "r")
        _ = h.take()
        h.client("c", .cancel, "r")  // ends it: ERROR cancelled
        h.client("c", .cancel, "r")  // a second CANCEL: nothing to cancel any more
        let sent = h.take().filter { $0.to == "c" }
        #expect(sent.map { "\($0.msg.kind.rawValue) \($0.msg.requestId)" } == ["ERROR r", "REFUSED r"])
        #expect(try sent[1].msg.headerJSON() == ["refused": "CANCEL"])
        #expect(BusError(json: try sent[1].msg.bodyJSON()).code == .conversationExpired)
        h.client("c", .cancel, "x")
        let first = try #require(h.take().first { $0.to == "c" }?.msg)
        let code = BusError(json: try first.bodyJSON()).code
        #expect(first.kind == .refused && first.requestId == "x" && code == .conversationExpired)
        h.client("c", .heartbeat, "")
        let beat = h.take().filter { $0.to == "c" }
        #expect(beat.map(\.msg.kind) == [.heartbeat] && beat[0].msg.requestId.isEmpty)
    }

    @Test("a plugin disabled at run time is no candidate: not offered, not explained as the one, and the last one says so")
    func disabledAtRunTimeIsNoCandidate() throws {
        let h = try ready([("a", ["I"]), ("b", ["I"])])
        h.client("c", .request, "d", "ib.plugins.disable", body: ["plugin": "a"])
        _ = h.take()
        h.client("c", .request, "r")  // no plugin_choice prompt: b is the only candidate
        #expect(h.lastRequest(to: "b") != nil)
        #expect(!h.take().contains { $0.to == "c" && $0.msg.kind == .prompt })
        let explain = ControlRequest(intent: "ib.explain", options: [:], body: ["intent": "I"])
        let explained = try ChoiceIntents(core: h.core).explainIntent(explain).get()
        #expect(explained["decision"]?["plugin"] == "b")
        #expect(explained["candidates"]?.arrayValue?.first { $0["id"] == "a" }?["reason"] == "disabled at run time (ib.plugins.disable)")
        h.client("c", .request, "d2", "ib.plugins.disable", body: ["plugin": "b"])
        _ = h.take()
        h.client("c", .request, "r2")
        let error = BusError(json: try #require(finals(h.take()).last).bodyJSON())
        #expect(error.code == .pluginUnavailable && error.message.contains("ib.plugins.disable"), "\(error)")
        #expect(try ChoiceIntents(core: h.core).explainIntent(explain).get()["decision"]?["rule"] == "disabled")
    }

    @Test("a plugin can't answer another plugin's request, nor say HELLO as another plugin")
    func pluginsStayInTheirLane() throws {
        let h = try ready([("a", ["I"]), ("b", ["J"])])
        h.client("c", .request, "r", "I")
        let forA = try #require(h.lastRequest(to: "a"))
        h.plugin("b", .reply, forA.requestId, header: ["plugin": "b", "status": "success"], body: ["forged": true])
        #expect(finals(h.take()).isEmpty, "b's answer for a's request is dropped")
        h.plugin("a", .reply, forA.requestId, header: ["plugin": "b", "status": "success"], body: [:])
        let final = try #require(finals(h.take()).first)
        #expect(BusError(json: try final.bodyJSON()).message.contains("not its own id a"), "a may not sign as b")
        // A process that knows only its own token can't connect as the other plugin.
        let tokenOfB = h.spawned.last { $0.id == "b" }!.token
        h.core.pluginFrames([Frame("x")] + WireMessage(kind: .hello, header: nil,
            body: ["protocol": 1, "plugin": "a", "token": .string(tokenOfB), "intents": ["I"]]).frames)
        let reject = try #require(h.take().first?.msg)
        #expect(reject.kind == .reject)
    }

    @Test("busy from max_in_flight names its limit and setting; ib.status has p50/p99 as null for an empty window")
    func busyLimitAndEmptyWindow() throws {
        let h = try CoreHarness(.core([TestManifest.Plugin.core("a", intents: ["I"]).maxInFlight(1)]))
        h.hello("a", intents: ["I"])
        _ = h.take()
        h.client("c", .request, "r1")
        h.client("c", .request, "r2")
        let error = BusError(json: try #require(finals(h.take()).first).bodyJSON())
        #expect(error.code == .busy && error.details == ["plugin": "a", "limit": 1, "setting": "max_in_flight"], "\(error)")
        let report = HostStats(pluginIds: h.core.slots.map(\.spec.id)).report(h.core)
        #expect(report["plugins"]?.arrayValue?.first?["latency"] == ["window": 0, "p50_ms": .null, "p99_ms": .null])
    }

    @Test("a plugin whose pipe is full: busy at once, nothing lost")
    func pluginPipeFull() throws {
        let h = try ready([("a", ["I"])])
        h.fullPlugins.insert("a")
        h.client("c", .request, "r")
        #expect(BusError(json: try finals(h.take())[0].bodyJSON()).code == .busy)
        #expect(h.core.slots[0].inFlight == 0)
    }

    @Test("a crash fails what the plugin held, backs off, and starts it again")
    func crashAndRestart() throws {
        let h = try ready([("a", ["I"])])
        h.client("c", .request, "r")
        h.core.handle(.pluginExited(index: 0, pid: h.spawned[0].pid, status: .exited(3)))
        #expect(BusError(json: try finals(h.take())[0].bodyJSON()).code == .pluginCrashed)
        #expect(h.core.slots[0].stateName == "restarting")
        h.advance(milliseconds: 150)
        #expect(h.spawned.count == 2)
    }

    @Test("every request gets exactly one final answer, whatever happens in between (random event sequences)")
    func exactlyOneFinal() throws {
        var rng = SeededGenerator(seed: 0x1B_2026)
        for round in 0..<40 {
            let h = try ready([("a", ["I"]), ("b", ["I", "J"])], host: ["conversation_timeout: 1s"])
            // Each REQUEST under an id that is not open must get exactly one final answer;
            // one under an open id is REFUSED and gets none of its own.
            var expected: [String: Int] = [:]
            var finalsById: [String: Int] = [:]
            func collect() {
                for s in h.take() where s.to.hasPrefix("c") && s.msg.kind.isFinal {
                    finalsById["\(s.to)/\(s.msg.requestId)", default: 0] += 1
                }
            }
            for step in 0..<150 {
                let client = "c\(Int.random(in: 0..<3, using: &rng))"
                let id = "r\(Int.random(in: 0..<12, using: &rng))"
                switch Int.random(in: 0..<9, using: &rng) {
                case 0, 1:
                    let fresh = !(h.core.book.clients.existing(Data(client.utf8))?.open[id] != nil)
                    h.client(client, .request, id, ["I", "J", "K"].randomElement(using: &rng)!,
                             header: Bool.random(using: &rng) ? ["plugin": "a"] : nil)
                    if fresh { expected["\(client)/\(id)", default: 0] += 1 }
                case 2: h.client(client, .answer, id, body: ["value": .string(["a", "b", "zz"].randomElement(using: &rng)!)])
                case 3: h.client(client, .cancel, id)
                case 4, 5:
                    // A plugin answers one of its open requests (or a stale one).
                    let plugin = Bool.random(using: &rng) ? "a" : "b"
                    let req = h.sent.last { $0.to == plugin && $0.msg.kind == .request }?.msg.requestId ?? "zz"
                    let kind: MessageKind = [.reply, .error, .prompt, .progress].randomElement(using: &rng)!
                    let body: JSON = kind == .error ? ["code": "plugin_error", "message": "no"] : (kind == .prompt ? ["kind": "value"] : [:])
                    h.plugin(plugin, kind, req, header: kind == .reply ? ["plugin": .string(plugin), "status": "success"] : nil, body: body)
                case 6: h.advance(milliseconds: UInt64.random(in: 1...1_500, using: &rng))
                case 7:
                    let index = Int.random(in: 0..<2, using: &rng)
                    if let pid = h.core.slots[index].pid {
                        h.core.handle(.pluginExited(index: index, pid: pid, status: .exited(1)))
                    } else if case .backoff = h.core.slots[index].state {
                        h.advance(milliseconds: 6_000)
                        let id = h.core.slots[index].spec.id
                        h.hello(id, intents: h.core.slots[index].spec.intentsSupported)
                    }
                default: h.plugin("a", .progress, "nothing")
                }
                collect()
                _ = step
            }
            h.core.handle(.shutdown)  // a drain …
            h.core.handle(.shutdown)  // … cut short by a second signal: everything still open ends now
            collect()
            #expect(finalsById == expected, "round \(round): final answers per request id")
            #expect(h.core.book.count == 0, "round \(round): every exchange ended")
        }
    }
}

/// A small deterministic generator (SplitMix64), so that a failing sequence repeats.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
