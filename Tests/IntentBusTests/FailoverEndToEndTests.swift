import Foundation
import IntentBus
import Testing
import IntentBusTestSupport

/// A client that knows several hosts (docs/protocol.md, "Several hosts"): real hosts,
/// each with a plugin of its own, one of them SIGKILLed or SIGSTOPped (by pid) while it
/// holds a request.
@Suite("Clients that know several hosts", .serialized)
struct FailoverEndToEndTests {
    let intentbus = Products.path("intentbus")

    /// Two hosts, `alpha`'s and `beta`'s, each running a test plugin of that id for
    /// TestIntent (idempotent when asked).
    func twoHosts(idempotent: Bool, extraHost: [String] = []) throws -> (TestHost, TestHost) {
        func plugin(_ id: String) -> TestManifest.Plugin {
            let entry = TestManifest.Plugin.test(id, timeout: "30s")
            return idempotent ? entry.extra("idempotent: true") : entry
        }
        let a = try TestHost(TestManifest(plugin("alpha"), host: .init(extra: extraHost)), waitReady: ["alpha"])
        let b = try TestHost(TestManifest(plugin("beta")), waitReady: ["beta"])
        return (a, b)
    }

    /// Sends `signal` to `host`'s pid after `delay`, from another thread.
    func signal(_ signal: Int32, to host: TestHost, after delay: Double) {
        let pid = host.process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { _ = kill(pid, signal) }
    }

    /// The host and reason of the `host_lost` that `send` ended with; nil (and an issue)
    /// for any other outcome.
    func hostLost(_ send: () throws(ClientError) -> IntentReply) -> (endpoint: String, why: String)? {
        switch Result(catching: send) {
        case .success(let reply):
            Issue.record("expected host_lost, got a reply: \(reply.body)")
        case .failure(let error):
            switch error {
            case .hostLost(let endpoint, _, let why): return (endpoint, why)
            default: Issue.record("expected host_lost, got \(error)")
            }
        }
        return nil
    }

    /// What plugin `id` of `host` has served, from `ib.status`.
    func served(_ host: TestHost, _ id: String) throws -> Int64? {
        let status = try host.client().control("ib.status")
        return status["plugins"]?.arrayValue?.first { $0["id"]?.stringValue == id }?["served"]?.intValue
    }

    @Test("an idempotent request whose host is SIGKILLed is sent again, same id, to the other host, long before its timeout")
    func idempotentMovesOn() throws {
        let (a, b) = try twoHosts(idempotent: true)
        defer { a.stop(); b.stop() }
        let client = try IntentClient(endpoints: [a.frontend, b.frontend])
        signal(SIGKILL, to: a, after: 0.8)
        let started = Date()
        // 4 s: long enough that alpha still holds it when the kill comes, on a loaded machine too.
        let reply = try client.send("TestIntent", parameters: ["sleep_ms": 4_000]) { _ in nil }
        let took = Date().timeIntervalSince(started)
        #expect(reply.body["plugin"]?.stringValue == "beta", "\(reply.body)")
        #expect(reply.host == b.frontend)
        #expect(reply.resent == 1)
        // 0.8 s on alpha, then 4 s on beta: not the 30 s timeout.
        #expect(took > 4.5 && took < 15, "took \(took) s")
        #expect(try served(b, "beta") == 1)
    }

    @Test("a request that is not idempotent ends with one host_lost naming the host, and never runs on the other")
    func otherRequestsGetHostLost() throws {
        let (a, b) = try twoHosts(idempotent: false)
        defer { a.stop(); b.stop() }
        let client = try IntentClient(endpoints: [a.frontend, b.frontend])
        signal(SIGKILL, to: a, after: 0.8)
        let started = Date()
        let lost = hostLost { () throws(ClientError) in try client.send("TestIntent", parameters: ["sleep_ms": 5_000]) { _ in nil } }
        let took = Date().timeIntervalSince(started)
        #expect(lost?.endpoint == a.frontend)
        #expect(lost?.why == "its connection dropped", "\(lost?.why ?? "")")
        #expect(took < 4, "took \(took) s: the loss is seen at once, not after the 5 s handler or the timeout")
        #expect(ClientError.hostLost(endpoint: "x", requestId: "y", why: "z").code == "host_lost")
        #expect(try served(b, "beta") == 0)
        // The next request goes to the host that is left, without waiting.
        let next = try client.send("TestIntent") { _ in nil }
        #expect(next.body["plugin"]?.stringValue == "beta")
        #expect(next.resent == 0)
    }

    @Test("the client's own idempotent: true resends what the manifest does not mark")
    func requestSaysIdempotent() throws {
        let (a, b) = try twoHosts(idempotent: false)
        defer { a.stop(); b.stop() }
        let client = try IntentClient(endpoints: [a.frontend, b.frontend])
        var options = RequestOptions()
        options.idempotent = true
        signal(SIGKILL, to: a, after: 0.8)
        let reply = try client.send("TestIntent", parameters: ["sleep_ms": 4_000], options: options) { _ in nil }
        #expect(reply.body["plugin"]?.stringValue == "beta")
        #expect(reply.resent == 1)
    }

    @Test("a host that stops answering heartbeats (SIGSTOP) is lost within heartbeat × liveness")
    func silentHostIsLost() throws {
        let (a, b) = try twoHosts(idempotent: false)
        defer {
            kill(a.process.processIdentifier, SIGCONT)
            a.stop(); b.stop()
        }
        let client = try IntentClient(endpoints: [a.frontend, b.frontend])
        client.heartbeat = .milliseconds(200)
        signal(SIGSTOP, to: a, after: 0.5)
        let started = Date()
        let lost = hostLost { () throws(ClientError) in try client.send("TestIntent", parameters: ["sleep_ms": 10_000]) { _ in nil } }
        #expect(lost?.endpoint == a.frontend)
        #expect(lost?.why.hasPrefix("it sent nothing, heartbeats included, for") == true, "\(lost?.why ?? "no host_lost")")
        let took = Date().timeIntervalSince(started)
        // Stopped at 0.5 s, lost 3 × 200 ms later (plus a beat at most).
        #expect(took > 0.9 && took < 3, "took \(took) s")
    }

    @Test("a host that answers heartbeats is never found lost: a plain request 10 heartbeats long gets its reply")
    func healthyHostIsKept() throws {
        let (a, b) = try twoHosts(idempotent: false)
        defer { a.stop(); b.stop() }
        let client = try IntentClient(endpoints: [a.frontend, b.frontend])
        client.heartbeat = .milliseconds(100)
        let reply = try client.send("TestIntent", parameters: ["sleep_ms": 1_000]) { _ in nil }
        #expect(reply.body["plugin"]?.stringValue == "alpha")
        #expect(reply.resent == 0)
        #expect(try served(b, "beta") == 0)
    }

    @Test("a host that is not there is passed over: the request goes to the next, whatever it is")
    func unreachableFirstHost() throws {
        let b = try TestHost(TestManifest(.test("beta")), waitReady: ["beta"])
        defer { b.stop() }
        let nowhere = TempDir()
        defer { nowhere.remove() }
        let client = try IntentClient(endpoints: [nowhere.ipc("frontend.sock"), b.frontend])
        client.connectWait = .milliseconds(300)
        let reply = try client.send("TestIntent", parameters: ["n": 1]) { _ in nil }
        #expect(reply.body["plugin"]?.stringValue == "beta")
        #expect(reply.host == b.frontend)
        #expect(reply.resent == 0)
        // A host that binds the endpoint later never gets that request: nothing was queued.
        let late = try TestHost(TestManifest(.test("late")), dir: nowhere, waitReady: ["late"])
        defer { late.stop() }
        usleep(300_000)
        #expect(try served(late, "late") == 0)
    }

    @Test("the CLI: --endpoint twice, INTENTBUS_ENDPOINT=A,B, and host.peers with `intentbus status` naming who answered")
    func commandLine() throws {
        let b = try TestHost(TestManifest(.test("beta")), waitReady: ["beta"])
        defer { b.stop() }
        let a = try TestHost(TestManifest(.test("alpha"), host: .init(extra: ["peers: [\(b.frontend)]"])), waitReady: ["alpha"])
        defer { a.stop() }
        let nowhere = TempDir()
        defer { nowhere.remove() }
        let dead = nowhere.ipc("frontend.sock")

        let twice = runCommand(intentbus, ["send", "TestIntent", "--json", "--endpoint", dead, "--endpoint", b.frontend])
        #expect(twice.status == 0, "\(twice.stderr)")
        #expect(try JSON.parse(twice.stdout)["body"]?["plugin"]?.stringValue == "beta", "\(twice.stdout)")
        let listed = runCommand(intentbus, ["send", "TestIntent", "--json"], environment: ["INTENTBUS_ENDPOINT": "\(dead),\(b.frontend)"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(try JSON.parse(listed.stdout)["body"]?["plugin"]?.stringValue == "beta", "\(listed.stdout)")
        let repeated = runCommand(intentbus, ["send", "TestIntent", "--endpoint", b.frontend, "--endpoint", b.frontend])
        #expect(repeated.status == 2, "\(repeated.stderr)")
        #expect(repeated.stderr.contains("is given twice"), "\(repeated.stderr)")

        let status = runCommand(intentbus, ["status", "--config", a.manifestPath])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("answered by \(a.frontend) · peers \(b.frontend)"), "\(status.stdout)")
        let json = try JSON.parse(runCommand(intentbus, ["status", "--json", "--config", a.manifestPath]).stdout)
        #expect(json["host"]?["peers"] == .array([.string(b.frontend)]))

        // Host A gone: the manifest's peers still lead the CLI to B.
        kill(a.process.processIdentifier, SIGKILL)
        a.process.waitUntilExit()
        let viaPeers = runCommand(intentbus, ["status", "--config", a.manifestPath])
        #expect(viaPeers.status == 0, "\(viaPeers.stderr)")
        #expect(viaPeers.stdout.contains("answered by \(b.frontend)"), "\(viaPeers.stdout)")
        let send = runCommand(intentbus, ["send", "TestIntent", "--json", "--config", a.manifestPath])
        #expect(send.status == 0, "\(send.stderr)")
        #expect(try JSON.parse(send.stdout)["body"]?["plugin"]?.stringValue == "beta", "\(send.stdout)")
    }

    @Test("host.peers is checked: an endpoint, not the host's own frontend, not twice")
    func peersAreChecked() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let own = dir.write("own.yaml", "host:\n  frontend: ipc:///tmp/x.sock\n  peers: [ipc:///tmp/x.sock]\nplugins: []\n")
        let result = runCommand(intentbus, ["status", "--config", own])
        #expect(result.status == 6, "\(result.stderr)")
        #expect(result.stderr.contains("own.yaml:3:"), "\(result.stderr)")
        #expect(result.stderr.contains("this host's own frontend"), "\(result.stderr)")
        let bad = dir.write("bad.yaml", "host:\n  peers: [nowhere, ipc:///tmp/y.sock, ipc:///tmp/y.sock]\nplugins: []\n")
        let badResult = runCommand(intentbus, ["status", "--config", bad])
        #expect(badResult.status == 6)
        #expect(badResult.stderr.contains("invalid endpoint 'nowhere'"), "\(badResult.stderr)")
        #expect(badResult.stderr.contains("listed twice"), "\(badResult.stderr)")
    }
}
