import Foundation
import IntentBus
import Testing
import IntentBusTestSupport

/// The Swift SDK's async handlers started in the loop turn that received their request
/// (`PluginRuntime.serveImmediately`, `Task.immediate`): a handler that finishes without
/// suspending is answered in the request's own frames, one that suspends goes on as a
/// task. Real host and plugin processes (Tests/Plugins/TestPlugin's async handler, the
/// SDK default).
@Suite("Async handlers started in the receiving turn, end to end", .serialized)
struct ImmediateHandlerEndToEndTests {
    private func plugin(_ env: [String: String] = [:]) -> TestManifest {
        TestManifest(.test("alpha", env: env).heartbeat("1s"))
    }

    @Test("answered at once: status, plugin, extra header fields and progress, as the handler said")
    func answeredAtOnce() throws {
        let host = try TestHost(plugin(), waitReady: ["alpha"])
        defer { host.stop() }
        let client = try host.client()
        let plain = try client.send("TestIntent", parameters: ["n": 7, "text": "grüße \"quoted\"\n"]) { _ in nil }
        #expect(plain.succeeded)
        #expect(plain.header["status"] == "success")
        #expect(plain.plugin == "alpha")
        #expect(plain.body["params"]?["text"] == "grüße \"quoted\"\n")
        let failed = try client.send("TestIntent", parameters: ["fail": true]) { _ in nil }
        #expect(failed.status == "failure")
        #expect(failed.plugin == "alpha")
        let withHeader = try client.send("TestIntent", parameters: ["reply_header": ["note": "extra"]]) { _ in nil }
        #expect(withHeader.header["note"] == "extra")
        #expect(withHeader.header["status"] == "success")
        #expect(withHeader.header["plugin"] == "alpha")
        var seen: [String] = []
        let progressed = try client.send("TestIntent", parameters: ["progress": 3]) { event in
            if case .progress(let body) = event { seen.append(body["message"]?.stringValue ?? "?") }
            return nil
        }
        #expect(progressed.succeeded)
        #expect(seen == ["step 1 of 3", "step 2 of 3", "step 3 of 3"])
    }

    @Test("a body that is not a JSON object is refused before the handler runs; the plugin keeps serving")
    func badBodies() throws {
        let host = try TestHost(plugin(), waitReady: ["alpha"])
        defer { host.stop() }
        try expectNonObjectBodiesRefused(host)
    }

    @Test("a burst of quick requests around ones that suspend (sleep, prompt): each answered exactly once",
          arguments: [false, true])
    func burstAroundSuspendingHandlers(socketThreadOnly: Bool) throws {
        let host = try TestHost(plugin(socketThreadOnly ? ["TEST_SOCKET_THREAD": "1"] : [:]), waitReady: ["alpha"])
        defer { host.stop() }
        let dealer = try host.rawDealer(receiveTimeoutMs: 10_000)
        var expected: Set<String> = []
        for i in 0..<40 {
            let id = "q\(i)"
            let body: JSON = i % 10 == 5 ? ["sleep_ms": 300, "i": .int(Int64(i))]
                : i % 10 == 7 ? ["ask": "color", "i": .int(Int64(i))] : ["i": .int(Int64(i)), "progress": 1]
            try dealer.send(WireMessage(kind: .request, requestId: id, intent: "TestIntent", header: nil, body: body).frames)
            expected.insert(id)
        }
        var answered: [String: Int] = [:], progress: Set<String> = []
        while answered.values.reduce(0, +) < expected.count {
            let msg = try WireMessage.decode(try #require(try dealer.receive(), "\(answered.keys.sorted()): \(host.log)")[...])
            switch msg.kind {
            case .prompt:
                try dealer.send(WireMessage(kind: .answer, requestId: msg.requestId, intent: "TestIntent", header: nil,
                                            body: ["value": "blue"]).frames)
            case .progress:
                #expect(answered[msg.requestId] == nil, "progress of \(msg.requestId) after its reply")
                progress.insert(msg.requestId)
            default:
                #expect(msg.kind == .reply, "\(msg.requestId): \(msg.kind) \(msg.body.string)")
                answered[msg.requestId, default: 0] += 1
                let body = try msg.bodyJSON()
                if msg.requestId.hasSuffix("7") { #expect(body["answer"] == "blue", "\(body.canonicalString)") }
            }
        }
        #expect(Set(answered.keys) == expected)
        #expect(answered.values.allSatisfy { $0 == 1 })
        #expect(progress.count == 32)  // every quick one reported its step before answering
        // Nothing more comes: no second answer to any of them.
        try dealer.setReceiveTimeout(milliseconds: 300)
        #expect(try dealer.receive() == nil)
    }
}
