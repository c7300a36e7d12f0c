import Foundation
import IntentBus
import Testing
import IntentBusTestSupport

/// The Swift SDK's default: handlers run on the socket loop's thread, and `LoopHandover`
/// moves the loop to another thread when a handler blocks it, with the real host and
/// plugin processes. `spin_ms` keeps the handler's thread busy without suspending.
@Suite("Handlers that block the socket thread, end to end", .serialized)
struct LoopHandoverEndToEndTests {
    /// Sends the requests, then collects one answer each, in the order they come.
    private func answers(_ dealer: ZMQSocket, _ requests: [(String, JSON)]) throws -> [(String, WireMessage)] {
        for (id, body) in requests {
            try dealer.send(WireMessage(kind: .request, requestId: id, intent: "TestIntent", header: nil, body: body).frames)
            if body["spin_ms"] != nil { usleep(100_000) }  // the handler is spinning before the next one arrives
        }
        var out: [(String, WireMessage)] = []
        while out.count < requests.count {
            let msg = try WireMessage.decode(try #require(try dealer.receive(), "no answer within the timeout")[...])
            out.append((msg.requestId, msg))
        }
        return out
    }

    @Test("a handler that blocks its thread for 1.5 s, with a 300 ms heartbeat: not hung, and a later quick request answers first")
    func blockingHandlerKeepsHeartbeats() throws {
        let host = try TestHost(TestManifest(.test("alpha").heartbeat("300ms")), waitReady: ["alpha"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 10_000)
        let got = try answers(dealer, [("slow", ["spin_ms": 1_500]), ("quick", ["n": 1])])
        #expect(got.map(\.0) == ["quick", "slow"])
        for (id, msg) in got { #expect(msg.kind == .reply, "\(id): \(msg.kind) \(msg.body.string)") }
        #expect(!host.log.contains("hung"), "\(host.log)")
    }

    @Test("two handlers blocking at once, then more requests: every one answered once, none hung")
    func twoBlockingHandlers() throws {
        let host = try TestHost(TestManifest(.test("alpha").heartbeat("300ms")), waitReady: ["alpha"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 10_000)
        let requests: [(String, JSON)] = [("a", ["spin_ms": 1_000]), ("b", ["spin_ms": 1_000])]
            + (1...20).map { ("q\($0)", ["n": .int(Int64($0))]) }
        let got = try answers(dealer, requests)
        #expect(Set(got.map(\.0)) == Set(requests.map(\.0)))
        #expect(got.count == requests.count)
        for (id, msg) in got { #expect(msg.kind == .reply, "\(id): \(msg.kind) \(msg.body.string)") }
        // The quick ones did not wait for the blocked handlers.
        #expect(Array(got.map(\.0).suffix(2)).sorted() == ["a", "b"])
        #expect(!host.log.contains("hung"), "\(host.log)")
        // And the plugin keeps serving afterwards, from whichever thread leads.
        let reply = try host.client().send("TestIntent", parameters: ["after": "block"]) { _ in nil }
        #expect(reply.body["params"]?["after"] == "block")
    }

    @Test("handovers one after another reuse parked threads: 60 requests, 6 of them blocking, each answered once")
    func repeatedHandovers() throws {
        let host = try TestHost(TestManifest(.test("alpha").heartbeat("300ms")), waitReady: ["alpha"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 10_000)
        let pid = try #require(try host.plugin("alpha")?["pid"]?.intValue)
        let threads = { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0 }
        let before = threads()
        var requests: [(String, JSON)] = []
        for round in 0..<6 {
            requests.append(("spin\(round)", ["spin_ms": 150]))
            requests += (0..<9).map { ("q\(round)-\($0)", ["n": .int(Int64($0))]) }
        }
        let got = try answers(dealer, requests)
        #expect(got.count == requests.count)
        #expect(Set(got.map(\.0)) == Set(requests.map(\.0)), "every request answered exactly once")
        // One blocked handler at a time: the thread it leaves parks and takes the next
        // handover, so at most two threads were added, not one per handover.
        #expect(threads() - before <= 2, "\(before) threads before, \(threads()) after")
        for (id, msg) in got { #expect(msg.kind == .reply, "\(id): \(msg.kind) \(msg.body.string)") }
        #expect(!host.log.contains("hung"), "\(host.log)")
    }

    // A handler running in the turn that received its request is not in the plugin's table
    // of live requests until it suspends; a handover moves it there first (the new leader's
    // `adoptInlineRequest`). These two would lose the answer or the CANCEL without that.
    @Test("a handler that blocks, then asks: the loop moved meanwhile, and the answer still reaches it")
    func promptAfterHandover() throws {
        let host = try TestHost(TestManifest(.test("alpha").heartbeat("300ms")), waitReady: ["alpha"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 10_000)
        try dealer.send(WireMessage(kind: .request, requestId: "asks", intent: "TestIntent", header: nil,
                                    body: ["spin_ms": 400, "ask": "colour"]).frames)
        let prompt = try WireMessage.decode(try #require(try dealer.receive(), "no PROMPT\n\(host.log)")[...])
        #expect(prompt.kind == .prompt && prompt.requestId == "asks", "\(prompt.kind) \(prompt.body.string)")
        try dealer.send(WireMessage(kind: .answer, requestId: "asks", intent: "TestIntent", header: nil,
                                    body: ["value": "teal"]).frames)
        let reply = try WireMessage.decode(try #require(try dealer.receive(), "no answer after the ANSWER\n\(host.log)")[...])
        #expect(reply.kind == .reply, "\(reply.kind) \(reply.body.string)")
        #expect(try reply.bodyJSON()["answer"] == "teal")
    }

    @Test("a CANCEL while the handler blocks the loop's first thread reaches its task")
    func cancelDuringHandover() throws {
        let host = try TestHost(TestManifest(.test("alpha").heartbeat("300ms")), waitReady: ["alpha"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 10_000)
        try dealer.send(WireMessage(kind: .request, requestId: "held", intent: "TestIntent", header: nil,
                                    body: ["spin_ms": 800, "sleep_ms": 5_000]).frames)
        usleep(300_000)  // spinning: the loop has moved to another thread
        try dealer.send(WireMessage(kind: .cancel, requestId: "held", intent: "", header: nil, body: nil).frames)
        let msg = try WireMessage.decode(try #require(try dealer.receive(), "\(host.log)")[...])
        #expect(BusError(json: try msg.bodyJSON()).code == .cancelled)
        // Its task was cancelled: the sleep after the spin ends at once (the plugin logs it
        // under the host's id for the request), not after 5 s.
        #expect(host.logEventually(contains: "saw its task cancelled", seconds: 4), "\(host.log)")
    }

    @Test("without the handover (runsHandlersOnSocketThread), the same blocking handler is found hung")
    func withoutHandoverItHangs() throws {
        let host = try TestHost(TestManifest(.test("alpha", env: ["TEST_SOCKET_THREAD": "1"]).heartbeat("300ms")),
                                waitReady: ["alpha"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 10_000)
        let got = try answers(dealer, [("slow", ["spin_ms": 1_500])])
        #expect(got.first?.1.kind == .error)
        #expect(BusError(json: try #require(got.first?.1).bodyJSON()).code == .pluginHung)
    }
}
