import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// End to end: the host's relay lane (Routing/Relay/RelayLane.swift) takes plain requests,
/// and hands each one to the core when anything but its plugin's REPLY concerns it. The
/// host's `ib.status` counts both (`host.relay.relayed`, `host.relay.promoted`), so each
/// test can say which path a request took, as well as what the client got.
@Suite("Relay lane end to end", .serialized)
struct RelayLaneEndToEndTests {
    private func relay(_ host: TestHost) throws -> (relayed: Int64, promoted: Int64) {
        let status = try host.client().control("ib.status")
        let relay = status["host"]?["relay"]
        return (relay?["relayed"]?.intValue ?? -1, relay?["promoted"]?.intValue ?? -1)
    }

    private func next(_ dealer: ZMQSocket) throws -> WireMessage {
        guard let frames = try dealer.receive() else { throw TestFailure("no answer within the receive timeout") }
        return try WireMessage.decode(frames[...])
    }

    private func request(_ id: String, intent: String = "TestIntent", body: JSON = [:]) -> [Frame] {
        WireMessage(kind: .request, requestId: id, intent: intent, header: nil, body: body).frames
    }

    /// The first REPLY of a plugin, whose header the core has not checked yet, goes
    /// through the core; from then on the lane forwards that header without a look.
    private func warmUp(_ host: TestHost) throws {
        _ = try host.client().send("TestIntent") { _ in nil }
        let (relayed, promoted) = try relay(host)
        #expect(relayed == 0 && promoted == 1, "the first REPLY's header is the core's to check")
    }

    @Test("pipelined plain requests take the lane: one REPLY each, with its own id and body; status counts them")
    func pipelined() throws {
        let host = try TestHost(TestManifest(.test("echo")), waitReady: ["echo"])
        defer { host.stop() }
        try warmUp(host)
        let dealer = try host.rawDealer()
        let count = 250  // within the plugin's max_in_flight (256)
        for i in 0..<count { try dealer.send(request("r\(i)", body: ["n": .int(Int64(i))])) }
        var seen: [String: Int] = [:]
        for _ in 0..<count {
            let msg = try next(dealer)
            #expect(msg.kind == .reply && msg.intent == "TestIntent")
            let n = try msg.bodyJSON()["params"]?["n"]?.intValue
            #expect(msg.requestId == "r\(n ?? -1)", "the body belongs to the request it answers")
            seen[msg.requestId, default: 0] += 1
        }
        #expect(seen.count == count && seen.values.allSatisfy { $0 == 1 })
        let (relayed, promoted) = try relay(host)
        #expect(relayed == Int64(count), "every plain request went through the lane")
        #expect(promoted == 1)
        let status = try host.client().control("ib.status")
        let served = status["plugins"]?.arrayValue?.first { $0["id"] == "echo" }?["served"]?.intValue
        #expect(served == Int64(count + 1), "the plugin's counters include the lane's requests")
        let text = runCommand(Products.path("intentbus"), ["status", "--endpoint", host.frontend])
        #expect(text.stdout.contains("\(count + 1) final answers (\(count) through the relay lane)"), "\(text.stdout)")
    }

    @Test("a REQ client's plain request takes the lane, and its delimiter is echoed")
    func requestReplyClient() throws {
        let host = try TestHost(TestManifest(.test("echo")), waitReady: ["echo"])
        defer { host.stop() }
        try warmUp(host)
        let req = try ZMQSocket(ZMQContext(), .req)
        try req.connect(host.frontend)
        try req.setReceiveTimeout(milliseconds: 10_000)
        for i in 0..<3 {
            try req.send(request("q\(i)"))
            let msg = try next(req)
            #expect(msg.kind == .reply && msg.requestId == "q\(i)")
        }
        #expect(try relay(host).relayed == 3)
    }

    @Test("a plugin's PROGRESS and PROMPT hand the request to the core: one final each, in order")
    func promotedByPluginMessages() throws {
        let host = try TestHost(TestManifest(.test("echo")), waitReady: ["echo"])
        defer { host.stop() }
        let dealer = try host.rawDealer()
        try dealer.send(request("p", body: ["progress": 2]))
        var kinds: [MessageKind] = []
        while true {
            let msg = try next(dealer)
            #expect(msg.requestId == "p")
            kinds.append(msg.kind)
            if msg.kind == .reply || msg.kind == .error { break }
        }
        #expect(kinds == [.progress, .progress, .reply])
        try dealer.send(request("f", body: ["ask": "x"]))
        let prompt = try next(dealer)
        #expect(prompt.kind == .prompt && prompt.requestId == "f")
        try dealer.send(WireMessage(kind: .answer, requestId: "f", intent: "TestIntent", header: nil, body: ["value": "y"]).frames)
        let answered = try next(dealer)
        #expect(answered.kind == .reply && answered.requestId == "f")
        #expect(try answered.bodyJSON()["answer"] == "y")
        let (relayed, promoted) = try relay(host)
        #expect(promoted == 2 && relayed == 0, "both requests were handed to the core (promoted \(promoted), relayed \(relayed))")
    }

    @Test("a CANCEL, a reused id and a deadline reach lane requests: exactly one final each")
    func promotedByClientAndTimer() throws {
        let host = try TestHost(TestManifest(.test("slow", timeout: "400ms")), waitReady: ["slow"])
        defer { host.stop() }
        let dealer = try host.rawDealer()
        try dealer.send(request("c", body: ["sleep_ms": 5_000]))
        try dealer.send(request("d", body: ["sleep_ms": 200]))
        try dealer.send(request("d", body: ["n": 2]))  // reused while open: REFUSED, not final
        try dealer.send(request("t", body: ["sleep_ms": 5_000]))
        try dealer.send(WireMessage(kind: .cancel, requestId: "c", intent: "TestIntent", header: nil, body: nil).frames)
        var finals: [String: [String]] = [:]
        var refused: [String] = []
        while finals.count < 3 {
            let msg = try next(dealer)
            switch msg.kind {
            case .refused: refused.append(msg.requestId)
            case .reply: finals[msg.requestId, default: []].append("reply")
            case .error: finals[msg.requestId, default: []].append(BusError(json: try msg.bodyJSON()).code.rawValue)
            default: Issue.record("unexpected \(msg.kind)")
            }
        }
        #expect(refused == ["d"])
        #expect(finals == ["c": ["cancelled"], "d": ["reply"], "t": ["timeout"]])
        // Nothing more arrives for them.
        try dealer.setReceiveTimeout(milliseconds: 800)
        #expect(try dealer.receive() == nil, "no second final")
        #expect(try relay(host).promoted == 3, "the REPLY to d came through the core after its promotion")
    }

    @Test("a crash with lane requests in flight: each gets exactly one plugin_crashed")
    func crash() throws {
        let host = try TestHost(TestManifest(.test("crashy")), waitReady: ["crashy"])
        defer { host.stop() }
        let dealer = try host.rawDealer()
        for i in 0..<5 { try dealer.send(request("s\(i)", body: ["sleep_ms": 3_000])) }
        Thread.sleep(forTimeInterval: 0.3)
        try dealer.send(request("boom", body: ["crash": 3]))
        var codes: [String: String] = [:]
        for _ in 0..<6 {
            let msg = try next(dealer)
            #expect(msg.kind == .error)
            #expect(codes[msg.requestId] == nil, "one final per request")
            codes[msg.requestId] = BusError(json: try msg.bodyJSON()).code.rawValue
        }
        #expect(Set(codes.values) == ["plugin_crashed"] && codes.count == 6)
        #expect(try relay(host).promoted >= 6)
    }

    @Test("with INTENTBUS_RELAY_LANE=0 everything goes through the core, with the same answers")
    func laneOff() throws {
        let host = try TestHost(TestManifest(.test("echo")), waitReady: ["echo"], environment: ["INTENTBUS_RELAY_LANE": "0"])
        defer { host.stop() }
        let dealer = try host.rawDealer()
        for i in 0..<20 { try dealer.send(request("r\(i)", body: ["n": .int(Int64(i))])) }
        for _ in 0..<20 {
            let msg = try next(dealer)
            let n = try msg.bodyJSON()["params"]?["n"]?.intValue ?? -1
            #expect(msg.kind == .reply && msg.requestId == "r\(n)")
        }
        let (relayed, promoted) = try relay(host)
        #expect(relayed == 0 && promoted == 0)
    }

    @Test("under fire: pipelined requests, CANCELs, reused ids and SIGKILLs of the plugin; exactly one final each")
    func underFire() throws {
        let host = try TestHost(TestManifest(.test("target").maxInFlight(1000).extra("crash_limit: 100")),
                                waitReady: ["target"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 200)
        var generator = SystemRandomNumberGenerator()
        let total = 600
        var sent = 0, kills = 0
        var finals: [String: Int] = [:]
        var codes: [String: [String]] = [:]
        var refused = Set<String>()
        var open = Set<String>()
        let deadline = Date().addingTimeInterval(60)
        while (sent < total || !open.isEmpty) && Date() < deadline {
            while sent < total && open.count < 100 {
                let id = "u\(sent)"
                // A request whose id is sent again must still be open then: it sleeps longer.
                let sleep = sent % 70 == 3 ? 300 : Int64.random(in: 0...30, using: &generator)
                try dealer.send(request(id, body: ["sleep_ms": .int(sleep)]))
                open.insert(id)
                if sent % 50 == 7 {
                    try dealer.send(WireMessage(kind: .cancel, requestId: id, intent: "TestIntent", header: nil, body: nil).frames)
                }
                if sent % 70 == 3 { try dealer.send(request(id)) }  // reused while open: REFUSED
                sent += 1
                if sent % 200 == 150 {
                    // Killed while serving: ready again first, so that the lane has routes.
                    _ = try host.waitForPlugin("target", state: "ready")
                    if let pid = try childPid(host) {
                        kill(pid, SIGKILL)
                        kills += 1
                    }
                }
            }
            guard let frames = try dealer.receive() else { continue }
            let msg = try WireMessage.decode(frames[...])
            guard msg.kind == .reply || msg.kind == .error else {
                #expect(msg.kind == .refused)
                refused.insert(msg.requestId)
                continue
            }
            finals[msg.requestId, default: 0] += 1
            if msg.kind == .error { codes[msg.requestId, default: []].append(BusError(json: try msg.bodyJSON()).code.rawValue) }
            open.remove(msg.requestId)
        }
        // A last look for late second finals.
        let quiet = Date().addingTimeInterval(0.6)
        while Date() < quiet, let frames = try dealer.receive() {
            let msg = try WireMessage.decode(frames[...])
            if msg.kind == .reply || msg.kind == .error {
                finals[msg.requestId, default: 0] += 1
                if msg.kind == .error { codes[msg.requestId, default: []].append(BusError(json: try msg.bodyJSON()).code.rawValue) }
            }
        }
        #expect(sent == total && open.isEmpty, "every request answered within the minute (\(open.count) open)")
        #expect(finals.count == total, "a final for every request")
        // A reused id is refused while its request is open. If the request ended at once (its
        // plugin just died: plugin_unavailable) before the host read the copy, the copy is a
        // new request with a final of its own: two finals, the first an ERROR, no REFUSED.
        let doubled = finals.filter { id, n in
            n != 1 && !(n == 2 && !refused.contains(id) && !(codes[id] ?? []).isEmpty)
        }
        #expect(doubled.isEmpty, "exactly one final per request: \(doubled.keys.map { "\($0): \(codes[$0] ?? [])" })")
        #expect(!refused.isEmpty, "some reused ids were refused")
        #expect(kills >= 2)
        let (relayed, promoted) = try relay(host)
        #expect(relayed > 0 && promoted > 0, "both paths were taken (relayed \(relayed), promoted \(promoted))")
        _ = try host.client().send("TestIntent") { _ in nil }  // and the host still serves
    }

    /// The pid of the plugin process, when it is a child of this test's host.
    private func childPid(_ host: TestHost) throws -> pid_t? {
        let status = try host.client().control("ib.status")
        guard let pid = status["plugins"]?.arrayValue?.first?["pid"]?.intValue,
              let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 1, Int32(fields[1]) == host.process.processIdentifier else { return nil }
        return pid_t(pid)
    }
}
