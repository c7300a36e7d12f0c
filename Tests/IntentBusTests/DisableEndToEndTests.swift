import Foundation
import Testing
import IntentBus
@testable import PluginHost
import IntentBusTestSupport

/// End-to-end: `enabled: false` in the manifest, over the real host, real plugins, a
/// real SQLite choice store and the real CLI.
@Suite("Disabled plugins, end to end", .serialized)
struct DisableEndToEndTests {
    /// Sends `intent` with `policy` and answers every prompt with `answer`; returns the
    /// reply or the error, and the prompts asked.
    private func send(_ client: IntentClient, _ intent: String, policy: String? = nil,
                      answer: (Prompt) -> JSON? = { _ in nil }) -> (Result<IntentReply, BusError>, [Prompt]) {
        var prompts: [Prompt] = []
        var options = RequestOptions()
        options.choicePolicy = policy
        do {
            let reply = try client.send(intent, parameters: ["n": 1], options: options) { event in
                guard case .prompt(let p) = event else { return nil }
                prompts.append(p)
                return answer(p)
            }
            return (.success(reply), prompts)
        } catch ClientError.bus(let e) {
            return (.failure(e), prompts)
        } catch {
            return (.failure(BusError(.internalError, "client failed: \(error)")), prompts)
        }
    }

    @Test("a disabled plugin is not started, shows as disabled, and its sole intent fails with plugin_unavailable saying why")
    func disabledIsNotStarted() throws {
        let host = try TestHost(TestManifest(.test("alpha", intents: ["AlphaIntent", "SharedIntent"]),
                                             .test("beta", intents: ["BetaIntent", "SharedIntent"]).enabled(false)),
                                waitReady: ["alpha"])
        defer { host.stop() }
        let beta = try host.plugin("beta")
        let state = beta?["state"]?.stringValue
        let hasPid = beta?["pid"] != nil
        #expect(state == "disabled")
        #expect(!hasPid)
        #expect(host.logEventually(contains: "plugin beta is disabled in the manifest (enabled: false); not starting it"))
        #expect(!host.log.contains("started plugin beta"))
        let conflicts = try host.client().control("ib.plugins")["conflicts"]?.objectValue
        let conflictCount = conflicts?.count
        #expect(conflictCount == 0, "a disabled plugin is no claimant")

        let client = try host.client()
        let (sole, _) = send(client, "BetaIntent")
        let soleError: BusError? = if case .failure(let e) = sole { e } else { nil }
        #expect(soleError?.code == .pluginUnavailable)
        #expect(soleError?.message == "plugin beta, the only one claiming BetaIntent, is disabled in the manifest (enabled: false)")

        // The shared intent goes to the enabled claimant without a prompt.
        let (shared, prompts) = send(client, "SharedIntent")
        #expect(prompts.isEmpty)
        #expect((try? shared.get())?.plugin == "alpha")

        // Naming the disabled plugin says it is disabled, not that it doesn't claim the intent.
        var named = RequestOptions()
        named.plugin = "beta"
        var namedError: BusError?
        do {
            _ = try client.send("SharedIntent", parameters: [:], options: named) { _ in nil }
        } catch ClientError.bus(let e) {
            namedError = e
        } catch {
            Issue.record("the client failed: \(error)")
        }
        #expect(namedError?.code == .pluginUnavailable)
        #expect(namedError?.message.contains("disabled in the manifest") == true)

        // explain lists it as disabled.
        let explain = try client.control("ib.explain", ["intent": "BetaIntent"])
        let explainedState = explain["candidates"]?.arrayValue?.first?["state"]?.stringValue
        let explainedRule = explain["decision"]?["rule"]?.stringValue
        #expect(explainedState == "disabled")
        #expect(explainedRule == "disabled")
        let cli = runCommand(Products.path("intentbus"), ["explain", "SharedIntent", "--endpoint", host.frontend])
        #expect(cli.stdout.contains("beta: disabled in the manifest (enabled: false)"), "\(cli.stdout)\(cli.stderr)")
        #expect(cli.stdout.contains("only alpha claims SharedIntent"), "\(cli.stdout)")
    }

    @Test("a remembered default whose plugin is now disabled: the host asks again and says why, never routing elsewhere")
    func disabledDefaultAsksAgain() throws {
        let first = try TestHost(TestManifest(.test("alpha", intents: ["SharedIntent"]),
                                              .test("beta", intents: ["SharedIntent"])), waitReady: ["alpha", "beta"])
        defer { first.stop() }
        let (remembered, _) = send(try first.client(), "SharedIntent") { _ in ["value": "beta", "remember": "always"] }
        #expect((try? remembered.get())?.plugin == "beta")
        kill(first.process.processIdentifier, SIGTERM)
        first.process.waitUntilExit()

        // Same state directory; the manifest now says beta is disabled.
        let second = try TestHost(TestManifest(.test("alpha", intents: ["SharedIntent"]),
                                               .test("beta", intents: ["SharedIntent"]).enabled(false)),
                                  dir: first.dir, waitReady: ["alpha"])
        defer { second.stop() }
        let client = try second.client()
        let stale = "Your default for SharedIntent, beta, is no longer available (disabled in the manifest)"

        for policy in ["fail", "default"] {
            let (result, _) = send(client, "SharedIntent", policy: policy)
            guard case .failure(let error) = result else {
                Issue.record("choice: \(policy) routed to \((try? result.get())?.plugin ?? "?") instead of failing"); continue
            }
            #expect(error.code == .choiceRequired)
            #expect(error.message.contains(stale))
        }

        let (result, prompts) = send(client, "SharedIntent") { _ in ["value": "alpha"] }
        let prompt = try #require(prompts.first)
        #expect(prompt.dialog == "\(stale); choose again.")
        #expect(prompt.raw["reason"]?.stringValue == stale)
        #expect(prompt.options.compactMap { $0["id"]?.stringValue } == ["alpha"])
        #expect((try? result.get())?.plugin == "alpha")

        let listed = try client.control("ib.choices.list")["choices"]?.arrayValue?.first
        #expect(listed?["plugin"] == "beta")
        #expect(listed?["unavailable"] == "disabled in the manifest")
    }
}
