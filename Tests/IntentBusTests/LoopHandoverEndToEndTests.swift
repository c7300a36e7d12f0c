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
