import Foundation
import IntentBus
import Testing
import IntentBusTestSupport

/// Hot reload with the real host and real plugin processes (docs/lifecycle.md, "Hot
/// reload"): a drop-in appearing, changing, going or broken; SIGHUP and `intentbus reload`.
@Suite("Hot reload, end to end", .serialized)
struct ReloadEndToEndTests {
    let intentbus = Products.path("intentbus")

    private func pid(_ host: TestHost, _ id: String) throws -> Int64 {
        try #require(try host.plugin(id)?["pid"]?.intValue, "\(id) has no pid:\n\(host.log)")
    }

    /// A drop-in with one test plugin claiming `intent`.
    private func dropIn(_ id: String, intent: String, env: [String: String] = [:]) -> String {
        TestManifest.Plugin.test(id, intents: [intent], env: env).dropIn
    }

    /// Sends a slow request on a raw socket; the reply is read later.
    private func openRequest(_ host: TestHost, id: String, intent: String, sleepMs: Int) throws -> ZMQSocket {
        let dealer = try host.rawDealer(receiveTimeoutMs: 10_000)
        try dealer.send(WireMessage(kind: .request, requestId: id, intent: intent, header: nil,
                                    body: ["sleep_ms": .int(Int64(sleepMs))]).frames)
        return dealer
    }

    private func final(_ dealer: ZMQSocket) throws -> WireMessage {
        try WireMessage.decode(try #require(try dealer.receive(), "no final answer")[...])
    }

    @Test("a drop-in that appears is started; another plugin keeps its pid and its open request gets its reply")
    func dropInAppears() throws {
        let host = try TestHost(TestManifest(.test("alpha")), waitReady: ["alpha"])
        defer { host.stop() }
        let alphaPid = try pid(host, "alpha")
        let open = try openRequest(host, id: "kept", intent: "TestIntent", sleepMs: 1_500)
        usleep(200_000)
        _ = host.dir.write("plugins.d/20-beta.yaml", dropIn("beta", intent: "BetaIntent"))
        try host.waitForPlugin("beta", state: "ready", seconds: 10)
        #expect(host.log.contains("plugins.d/20-beta.yaml): added beta (1 unchanged)"), "\(host.log)")
        let reply = try host.client().send("BetaIntent", parameters: ["n": 1]) { _ in nil }
        #expect(reply.plugin == "beta")
        let kept = try final(open)
        #expect(kept.kind == .reply && kept.requestId == "kept", "the open request to alpha is untouched")
        #expect(try pid(host, "alpha") == alphaPid)
        #expect(try host.plugin("alpha")?["restarts"] == 0)
        // The status report knows the added plugin (its counters start at zero).
        let status = try host.client().control("ib.status")
        #expect(status["plugins"]?.arrayValue?.contains { $0["id"] == "beta" } == true, "\(status.canonicalString)")
    }

    @Test("a legacy plugin added as a drop-in with its definitions is served after the reload, no host restart; a broken definition refuses it")
    func legacyDropInDefinitions() throws {
        let host = try TestHost(TestManifest(.test("alpha")), waitReady: ["alpha"])
        defer { host.stop() }
        let hostPid = host.process.processIdentifier
        // A definition file with an error: the reload is refused with file:line:col.
        let broken = host.dir.write("broken.yaml", "intents:\n  - name: ResolveIntent\n    parameters: 7\n")
        _ = host.dir.write("plugins.d/40-legacy.yaml", TestManifest.Plugin.legacy().with { $0.definitions = [broken] }.dropIn)
        #expect(host.logEventually(contains: "the running configuration stays"), "\(host.log)")
        #expect(host.log.contains("broken.yaml:3:"), "\(host.log)")
        #expect(try host.plugin("legacytest") == nil)

        // The drop-in with its real definitions: added, and its intents run the legacy flow.
        _ = host.dir.write("plugins.d/40-legacy.yaml", TestManifest.Plugin.legacy().dropIn)
        try host.waitForPlugin("legacytest", state: "ready", seconds: 10)
        #expect(host.log.contains("added legacytest"), "\(host.log)")
        var talk = Conversation(["filled"])
        let reply = try host.client().send("ResolveIntent", parameters: ["kind": "needsValue"], onEvent: talk.handle)
        #expect(talk.prompts.count == 1, "the definition's Primary dialog asks")
        #expect(reply.body["parameters"]?["target"] == "filled")
        let coded = try host.client().send("CodeIntent", parameters: ["code": "success"]) { _ in nil }
        #expect(coded.body["dialog"] == "Erledigt.", "the definition's format string: \(coded.body.canonicalString)")
        #expect(host.process.processIdentifier == hostPid && host.process.isRunning)
        #expect(!host.log.contains("needs a restart of the host") && !host.log.contains("takes effect only when the host restarts"),
                "\(host.log)")
    }

    @Test("an invalid drop-in is rejected with file:line:col, in the log and in reload's answer; the old configuration serves")
    func invalidDropInRejected() throws {
        let host = try TestHost(TestManifest(.test("alpha")), waitReady: ["alpha"])
        defer { host.stop() }
        let alphaPid = try pid(host, "alpha")
        _ = host.dir.write("plugins.d/30-bad.yaml", "id: bad\nexec: \(Products.path("plugin-testplugin"))\nIntentsSupported: 7\n")
        #expect(host.logEventually(contains: "the running configuration stays"), "\(host.log)")
        #expect(host.log.contains("plugins.d/30-bad.yaml:3:"), "\(host.log)")

        let reload = runCommand(intentbus, ["reload", "--config", host.manifestPath])
        #expect(reload.status == 6, "\(reload.stdout) \(reload.stderr)")
        #expect(reload.stdout.contains("nothing changed"), "\(reload.stdout)")
        #expect(reload.stdout.contains("plugins.d/30-bad.yaml:3:"), "\(reload.stdout)")
        let json = try host.client().control("ib.reload")
        #expect(json["applied"] == false)
        #expect(json["errors"]?.arrayValue?.first?.stringValue?.contains("IntentsSupported") == true, "\(json.canonicalString)")

        let reply = try host.client().send("TestIntent", parameters: ["still": true]) { _ in nil }
        #expect(reply.body["params"]?["still"] == true)
        #expect(try pid(host, "alpha") == alphaPid)
        #expect(try host.plugin("bad") == nil)
    }

    @Test("a removed drop-in's plugin is stopped; its open request ends with a clear plugin_unavailable")
    func dropInGoes() throws {
        let dir = TempDir()
        _ = dir.write("plugins.d/20-beta.yaml", dropIn("beta", intent: "BetaIntent"))
        let host = try TestHost(TestManifest(.test("alpha")), dir: dir, waitReady: ["alpha", "beta"])
        defer { host.stop() }
        let alphaPid = try pid(host, "alpha")
        let betaPid = pid_t(try pid(host, "beta"))
        let open = try openRequest(host, id: "doomed", intent: "BetaIntent", sleepMs: 5_000)
        usleep(200_000)
        let started = Date()
        unlink("\(dir.path)/plugins.d/20-beta.yaml")
        let msg = try final(open)
        #expect(msg.kind == .error)
        let error = BusError(json: try msg.bodyJSON())
        #expect(error.code == .pluginUnavailable)
        #expect(error.message.contains("plugin beta was removed from the manifest (reload)"), "\(error.message)")
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(host.logEventually(contains: "plugin beta (pid \(betaPid)) stopped (removed)"))
        #expect(try host.plugin("beta") == nil)
        #expect(throws: ClientError.self) { try host.client().send("BetaIntent") { _ in nil } }
        #expect(try pid(host, "alpha") == alphaPid)
    }

    @Test("SIGHUP: a changed entry restarts only that plugin; a changed host setting is reported as needing a restart")
    func changedEntryAndHostSetting() throws {
        let dir = TempDir()
        _ = dir.write("plugins.d/20-beta.yaml", dropIn("beta", intent: "BetaIntent"))
        let host = try TestHost(TestManifest(.test("alpha")), dir: dir, waitReady: ["alpha", "beta"])
        defer { host.stop() }
        let alphaPid = try pid(host, "alpha")
        let betaPid = try pid(host, "beta")
        // Change the drop-in and the main manifest's host section, then reload by hand
        // (the drop-in's own change reloads too; either way beta restarts once).
        _ = dir.write("plugins.d/20-beta.yaml", dropIn("beta", intent: "BetaIntent", env: ["COLOUR": "blue"]))
        try host.waitForPlugin("beta", state: "ready", notPid: betaPid, seconds: 10)
        try TestManifest(.test("alpha"), host: .init(conversationTimeout: "30s")).yaml
            .write(toFile: host.manifestPath, atomically: true, encoding: .utf8)
        kill(host.process.processIdentifier, SIGHUP)
        #expect(host.logEventually(contains: "reload (SIGHUP): needs a host restart: host.conversation_timeout (2 unchanged)"), "\(host.log)")
        #expect(host.log.contains("host.conversation_timeout changed, which takes effect only when the host restarts"))
        let report = try host.client().control("ib.reload")
        #expect(report["needs_restart"] == ["host.conversation_timeout"])
        #expect(report["unchanged"] == ["alpha", "beta"], "a list of ids, like the other keys")
        #expect(report["restarted"] == [])
        #expect(try pid(host, "alpha") == alphaPid)
        #expect(try host.plugin("beta")?["restarts"] == 1)
        let reply = try host.client().send("BetaIntent") { _ in nil }
        #expect(reply.plugin == "beta")
    }

    @Test("an mdp_worker entry added by a reload is reported as needing a host restart, and nothing is spawned for it")
    func majordomoEntryNeedsRestart() throws {
        let host = try TestHost(TestManifest(.test("alpha"), host: .init(extra: ["mdp: ipc://state/mdp.sock"])), waitReady: ["alpha"])
        defer { host.stop() }
        _ = host.dir.write("plugins.d/30-workers.yaml", """
        id: workers
        mdp_worker: true
        IntentsSupported: [WorkIntent]
        """)
        #expect(host.logEventually(contains: "needs a host restart: plugins[workers] (new, with mdp_worker)"), "\(host.log)")
        let report = try host.client().control("ib.reload")
        #expect(report["needs_restart"] == ["plugins[workers] (new, with mdp_worker)"], "\(report.canonicalString)")
        #expect(try host.plugin("workers") == nil)
        #expect(!host.log.contains("started plugin workers"))
    }
}
