import Foundation
import IntentBus
import PluginHost
import Testing
import IntentBusTestSupport

/// `instances: N` and the idempotent retry, with the real host and real plugin
/// processes (docs/lifecycle.md, "Instances").
@Suite("Instances and idempotent retries, end to end", .serialized)
struct InstancesEndToEndTests {
    /// The pids of every instance of `id`, once all are ready.
    private func readyInstances(_ host: TestHost, _ id: String, count: Int) throws -> [Int64] {
        let deadline = Date().addingTimeInterval(20)
        var last: JSON?
        while Date() < deadline {
            last = try host.plugin(id)
            let instances = last?["instances"]?.arrayValue ?? []
            if instances.count == count, instances.allSatisfy({ $0["state"] == "ready" }) {
                return instances.compactMap { $0["pid"]?.intValue }
            }
            usleep(50_000)
        }
        throw TestFailure("\(id) did not get \(count) ready instances: \(last?.canonicalString ?? "none")\n\(host.log)")
    }

    private func send(_ dealer: ZMQSocket, _ id: String, _ intent: String, _ body: JSON) throws {
        try dealer.send(WireMessage(kind: .request, requestId: id, intent: intent, header: nil, body: body).frames)
    }

    private func receive(_ dealer: ZMQSocket) throws -> WireMessage {
        try WireMessage.decode(try #require(try dealer.receive(), "no final answer")[...])
    }

    @Test("three instances: six slow requests at once go two to each process (least loaded first)")
    func spreading() throws {
        let host = try TestHost(TestManifest(.test("multi").instances(3)))
        defer { host.stop() }
        let pids = try readyInstances(host, "multi", count: 3)
        #expect(Set(pids).count == 3)
        let dealer = try host.rawDealer()
        for i in 0..<6 { try send(dealer, "s\(i)", "TestIntent", ["sleep_ms": 600, "whoami": true]) }
        var served: [Int64: Int] = [:]
        var instances: Set<Int64> = []
        for _ in 0..<6 {
            let msg = try receive(dealer)
            #expect(msg.kind == .reply, "\(String(decoding: msg.body.data, as: UTF8.self))")
            let body = try msg.bodyJSON()
            served[try #require(body["pid"]?.intValue), default: 0] += 1
            instances.insert(try #require(body["instance"]?.intValue))
        }
        #expect(served.count == 3 && served.values.allSatisfy { $0 == 2 }, "\(served)")
        #expect(Set(served.keys) == Set(pids))
        #expect(instances == [0, 1, 2])
        let listed = try host.client().control("ib.plugins")["plugins"]?.arrayValue?.filter { $0["id"] == "multi" }
        #expect(listed?.count == 1, "one entry per plugin, with its instances inside")
    }

    @Test("an idempotent request whose instance is killed is retried once on the other; a non-idempotent one gets plugin_crashed")
    func idempotentRetry() throws {
        let pair = TestManifest.Plugin.test("pair", intents: ["TestIntent", "OtherIntent"]).instances(2)
            .extra("idempotent: [TestIntent]")
        let host = try TestHost(TestManifest(pair))
        defer { host.stop() }
        let pids = try readyInstances(host, "pair", count: 2)
        let dealer = try host.rawDealer()
        // Least loaded: the first goes to one instance, the second to the other.
        try send(dealer, "idem", "TestIntent", ["sleep_ms": 1_000, "whoami": true])
        try send(dealer, "plain", "OtherIntent", ["sleep_ms": 1_000, "whoami": true])
        usleep(300_000)
        let holders = try #require(try host.plugin("pair")?["instances"]?.arrayValue)
        #expect(holders.allSatisfy { $0["in_flight"] == 1 }, "\(holders)")
        // Kill the instance holding the idempotent request: instance 0 got it first.
        let victim = try #require(holders.first?["pid"]?.intValue)
        kill(pid_t(victim), SIGKILL)
        var answers: [String: WireMessage] = [:]
        for _ in 0..<2 {
            let msg = try receive(dealer)
            answers[msg.requestId] = msg
        }
        let retried = try #require(answers["idem"])
        #expect(retried.kind == .reply, "\(String(decoding: retried.body.data, as: UTF8.self))")
        let survivor = try retried.bodyJSON()["pid"]?.intValue
        #expect(survivor != victim && pids.contains(survivor ?? -1))
        #expect(host.log.contains("retrying it once on pid \(survivor ?? -1)"), "\(host.log)")
        // The other request was on the survivor, so it is fine too.
        #expect(answers["plain"]?.kind == .reply)

        // Now the non-idempotent intent's instance dies: plugin_crashed, no retry.
        _ = try readyInstances(host, "pair", count: 2)
        try send(dealer, "doomed", "OtherIntent", ["sleep_ms": 2_000, "whoami": true])
        usleep(300_000)
        let holder = try #require(try host.plugin("pair")?["instances"]?.arrayValue?.first { $0["in_flight"] == 1 }?["pid"]?.intValue)
        kill(pid_t(holder), SIGKILL)
        let crashed = try receive(dealer)
        let crashCode = BusError(json: try crashed.bodyJSON()).code
        #expect(crashed.kind == .error && crashCode == .pluginCrashed)
    }

    @Test("one instance: an idempotent request is retried after the restart; twice killed, it fails")
    func retryAfterRestart() throws {
        let host = try TestHost(TestManifest(.test("solo").extra("idempotent: true")), waitReady: ["solo"])
        defer { host.stop() }
        let first = try #require(try host.plugin("solo")?["pid"]?.intValue)
        let dealer = try host.rawDealer()
        try send(dealer, "r", "TestIntent", ["sleep_ms": 800, "whoami": true])
        usleep(300_000)
        kill(pid_t(first), SIGKILL)
        let msg = try receive(dealer)
        #expect(msg.kind == .reply, "\(String(decoding: msg.body.data, as: UTF8.self))\n\(host.log)")
        #expect(try msg.bodyJSON()["pid"]?.intValue != first)
        #expect(host.log.contains("retrying it once after its restart"))

        let second = try host.waitForPlugin("solo", state: "ready")["pid"]?.intValue ?? 0
        try send(dealer, "twice", "TestIntent", ["sleep_ms": 3_000])
        usleep(300_000)
        kill(pid_t(second), SIGKILL)
        let third = try host.waitForPlugin("solo", state: "ready", notPid: second)["pid"]?.intValue ?? 0
        usleep(300_000)
        kill(pid_t(third), SIGKILL)
        let failed = try receive(dealer)
        let failCode = BusError(json: try failed.bodyJSON()).code
        #expect(failed.kind == .error && failCode == .pluginCrashed, "retried once only")
    }

    @Test("instances and idempotent are checked: a range, and intents the plugin supports")
    func manifestChecks() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let path = dir.write("plugins.yaml", """
        plugins:
          - id: a
            exec: /bin/true
            IntentsSupported: [A]
            instances: 0
            idempotent: [B]
        """)
        #expect(throws: ConfigError.self) { _ = try ManifestLoader.load(path: path) }
        do { _ = try ManifestLoader.load(path: path) } catch {
            #expect(error.description.contains("plugins.yaml:5:16: error: plugins[0].instances: must be within 1…64, got 0"), "\(error)")
            #expect(error.description.contains("plugins.yaml:6:18: error: plugins[0].idempotent: B is not in this plugin's IntentsSupported"), "\(error)")
        }
    }
}
