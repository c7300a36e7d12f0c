import Foundation
import Testing
import IntentBus
@testable import PluginHost
import IntentBusTestSupport

/// End-to-end: choosing among plugins that claim one intent, over the real host, real
/// plugins, a real SQLite file and the real CLI.
@Suite("Choosing among plugins, end to end", .serialized)
struct ChoiceEndToEndTests {
    @Test("the prompt lists every candidate; \"once\" routes this request only, and the next one asks again")
    func promptOnce() throws {
        let host = try TestHost(TestManifest(claimants(["beta", "alpha"])), waitReady: ["alpha", "beta"])
        defer { host.stop() }
        let client = try host.client()
        let (first, prompts) = try send(client) { _ in ["value": "beta", "remember": "once"] }
        #expect(first.plugin == "beta")
        #expect(first.body["plugin"] == "beta")
        #expect(first.body["params"]?["n"] == 1, "the parameters reach the chosen plugin")
        let prompt = try #require(prompts.first)
        #expect(prompts.count == 1)
        #expect(prompt.kind == "plugin_choice")
        #expect(prompt.dialog.contains("SharedIntent"))
        #expect(prompt.options.compactMap { $0["id"]?.stringValue } == ["alpha", "beta"])
        #expect(prompt.options.compactMap { $0["name"]?.stringValue } == ["Test alpha", "Test beta"])
        #expect(prompt.options.allSatisfy { $0["style"] == "plain" })
        #expect(prompt.raw["remember"] == ["once", "always"])

        let (second, again) = try send(client) { _ in ["value": "alpha"] }
        #expect(again.count == 1, "\"once\" is not remembered")
        #expect(second.plugin == "alpha")
        #expect(try client.control("ib.choices.list")["choices"] == [])
    }

    @Test("the demo's two messengers (legacy messenger, new-style chat) both claim INSendMessageIntent, and the client picks one")
    func demoMessengers() throws {
        let host = try TestHost(TestManifest(["messenger", "chat"].map { id in
            TestManifest.Plugin(id: id, name: id.capitalized, exec: Products.path("plugin-\(id)"), intents: ["INSendMessageIntent"])
        }), waitReady: ["messenger", "chat"])
        defer { host.stop() }
        var seen: [Prompt] = []
        let reply = try host.client().send("INSendMessageIntent", parameters: ["recipient": "Alex", "content": "Hallo"]) { event in
            guard case .prompt(let p) = event else { return nil }
            seen.append(p)
            return ["value": "chat", "remember": "once"]
        }
        #expect(seen.count == 1, "chat has both parameters: only the plugin choice is asked")
        #expect(seen.first?.options.compactMap { $0["name"]?.stringValue } == ["Chat", "Messenger"])
        // Both handler generations side by side in one prompt.
        #expect(seen.first?.options.map { "\($0["id"]?.displayText ?? ""):\($0["style"]?.displayText ?? "")" }
                == ["chat:new", "messenger:legacy"])
        #expect(reply.plugin == "chat")
        #expect(reply.body["dialog"] == "Chat: sent “Hallo” to Alex.")
        #expect(reply.body["value"]?.stringValue?.hasPrefix("chat-") == true)
        #expect(host.logEventually(contains: "conflict: INSendMessageIntent is claimed by 2 plugins (chat, messenger)"))
    }

    @Test("\"always\" is remembered: no prompt afterwards, across a restart and across kill -9 of the host")
    func alwaysSurvivesRestartAndKill() throws {
        let plugins = TestManifest(claimants(["alpha", "beta"]))
        let first = try TestHost(plugins, waitReady: ["alpha", "beta"])
        defer { first.stop() }
        let (chosen, asked) = try send(try first.client()) { _ in ["value": "beta", "remember": "always"] }
        #expect(asked.count == 1)
        #expect(chosen.plugin == "beta")
        let (next, askedAgain) = try send(try first.client())
        #expect(askedAgain.isEmpty)
        #expect(next.plugin == "beta")

        // A graceful restart on the same state directory.
        end(first, with: SIGTERM)
        let second = try TestHost(plugins, dir: first.dir, waitReady: ["alpha", "beta"])
        defer { second.stop() }
        let (afterRestart, promptsAfterRestart) = try send(try second.client())
        #expect(promptsAfterRestart.isEmpty)
        #expect(afterRestart.plugin == "beta")
        #expect(second.logEventually(contains: "choice store: 1 remembered choices"))

        // A choice made just before kill -9 is on disk too.
        // (everyone's default, beta, applies to kim, so kim names a plugin and asks to remember it).
        let (named, _) = try send(try second.client(), options: options(client: "kim", plugin: "alpha", remember: true))
        #expect(named.plugin == "alpha")
        end(second, with: SIGKILL)
        let third = try TestHost(plugins, dir: first.dir, waitReady: ["alpha", "beta"])
        defer { third.stop() }
        let (afterKill, promptsAfterKill) = try send(try third.client())
        #expect(promptsAfterKill.isEmpty)
        #expect(afterKill.plugin == "beta")
        let (kims, kimsPrompts) = try send(try third.client(), options: options(client: "kim"))
        #expect(kimsPrompts.isEmpty)
        #expect(kims.plugin == "alpha")
    }

    @Test("a client's own default applies to that client only; the others are still asked")
    func perClientDefault() throws {
        let host = try TestHost(TestManifest(claimants(["alpha", "beta"])), waitReady: ["alpha", "beta"])
        defer { host.stop() }
        let client = try host.client()
        _ = try send(client, options: options(client: "ann")) { _ in ["value": "alpha", "remember": "always"] }
        let (ann, annAsked) = try send(client, options: options(client: "ann"))
        #expect(annAsked.isEmpty)
        #expect(ann.plugin == "alpha")
        let (bob, bobAsked) = try send(client, options: options(client: "bob")) { _ in ["value": "beta"] }
        #expect(bobAsked.count == 1)
        #expect(bob.plugin == "beta")
        let (_, anonymousAsked) = try send(client) { _ in ["value": "beta"] }
        #expect(anonymousAsked.count == 1)
        let list = try client.control("ib.choices.list")["choices"]?.arrayValue ?? []
        #expect(list.count == 1)
        #expect(list.first?["client"] == "ann")
        #expect(list.first?["source"] == "always")
    }

    @Test("a remembered plugin removed from the manifest: the host asks again and says why, never routing elsewhere")
    func removedDefaultAsksAgain() throws {
        let first = try TestHost(TestManifest(claimants(["alpha", "beta"])), waitReady: ["alpha", "beta"])
        defer { first.stop() }
        _ = try send(try first.client()) { _ in ["value": "beta", "remember": "always"] }
        end(first, with: SIGTERM)

        // beta is gone; alpha and gamma remain.
        let second = try TestHost(TestManifest(claimants(["alpha", "gamma"])), dir: first.dir, waitReady: ["alpha", "gamma"])
        defer { second.stop() }
        let client = try second.client()
        let failure = try sendExpectingError(client, options: options(choice: "fail"))
        #expect(failure.code == .choiceRequired)
        #expect(failure.message.contains("beta, is no longer available (removed from the manifest)"))
        let defaulted = try sendExpectingError(client, options: options(choice: "default"))
        #expect(defaulted.code == .choiceRequired, "choice: default must not fall back to priority silently")

        let (reply, prompts) = try send(client) { _ in ["value": "gamma"] }
        let prompt = try #require(prompts.first)
        #expect(prompt.dialog == "Your default for SharedIntent, beta, is no longer available (removed from the manifest); choose again.")
        #expect(prompt.raw["reason"]?.stringValue?.contains("removed from the manifest") == true)
        #expect(prompt.options.compactMap { $0["id"]?.stringValue } == ["alpha", "gamma"])
        #expect(reply.plugin == "gamma")

        let listed = try client.control("ib.choices.list")["choices"]?.arrayValue?.first
        #expect(listed?["plugin"] == "beta")
        #expect(listed?["available"] == false)
        #expect(listed?["unavailable"] == "removed from the manifest")
    }

    @Test("a remembered plugin that is failing: the host asks again and says why")
    func failingDefaultAsksAgain() throws {
        let ghost = TestManifest.Plugin(id: "ghost", exec: "/nonexistent/plugin-ghost", intents: ["SharedIntent"])
        let host = try TestHost(TestManifest([ghost] + claimants(["alpha"])), waitReady: ["alpha"])
        defer { host.stop() }
        let client = try host.client()
        _ = try client.control("ib.choices.set", ["intent": "SharedIntent", "plugin": "ghost"])
        let (reply, prompts) = try send(client) { _ in ["value": "alpha"] }
        let prompt = try #require(prompts.first)
        #expect(prompt.dialog.hasPrefix("Your default for SharedIntent, ghost, is no longer available (it is failing:"))
        #expect(prompt.dialog.contains("/nonexistent/plugin-ghost"))
        #expect(prompt.options.first { $0["id"] == "ghost" }?["state"] == "failed")
        #expect(reply.plugin == "alpha")
    }

    @Test("an answer that names no candidate is asked again with the reason; three bad answers end the request")
    func badAnswers() throws {
        let host = try TestHost(TestManifest(claimants(["alpha", "beta"])), waitReady: ["alpha", "beta"])
        defer { host.stop() }
        let client = try host.client()
        var answers: [JSON] = [["value": "nosuch"], ["value": "alpha", "remember": "sometimes"], ["value": "alpha"]]
        let (reply, prompts) = try send(client) { _ in answers.removeFirst() }
        #expect(reply.plugin == "alpha")
        #expect(prompts.count == 3)
        #expect(prompts[1].raw["error"]?.stringValue?.contains("\"nosuch\" is not one of the choices (alpha, beta)") == true)
        #expect(prompts[2].raw["error"]?.stringValue?.contains("\"remember\" is \"once\" or \"always\"") == true)
        #expect(try client.control("ib.choices.list")["choices"] == [], "a rejected answer remembers nothing")

        let error = try sendExpectingError(client) { _ in ["value": 42] }
        #expect(error.code == .choiceRequired)
        #expect(error.message.contains("no usable plugin choice after 3 answers"))
    }

    @Test("an abandoned plugin-choice prompt expires with conversation_expired")
    func abandonedPromptExpires() throws {
        let host = try TestHost(TestManifest(claimants(["alpha", "beta"]), host: .init(conversationTimeout: "500ms")),
                                waitReady: ["alpha", "beta"])
        defer { host.stop() }
        let dealer = try host.rawDealer()
        try dealer.send(WireMessage(kind: .request, requestId: "left", intent: "SharedIntent", header: nil, body: [:]).frames)
        let prompt = try WireMessage.decode(try #require(try dealer.receive())[...])
        #expect(prompt.kind == .prompt)
        #expect(try prompt.bodyJSON()["kind"] == "plugin_choice")
        let final = try WireMessage.decode(try #require(try dealer.receive())[...])
        #expect(final.kind == .error)
        #expect(final.requestId == "left")
        #expect(BusError(json: try final.bodyJSON()).code == .conversationExpired)
        // A late answer finds nothing.
        try dealer.send(WireMessage(kind: .answer, requestId: "left", intent: "SharedIntent", header: nil,
                                    body: ["value": "alpha"]).frames)
        let late = try WireMessage.decode(try #require(try dealer.receive())[...])
        #expect(late.kind == .refused)
        #expect(BusError(json: try late.bodyJSON()).code == .conversationExpired)
    }

    @Test("--plugin bypasses the prompt, from the CLI; --remember stores it; an unknown plugin is refused")
    func explicitPluginFromTheCLI() throws {
        let host = try TestHost(TestManifest(claimants(["alpha", "beta"])), waitReady: ["alpha", "beta"])
        defer { host.stop() }
        let named = cli(host, ["send", "SharedIntent", "x=1", "--plugin", "beta", "--json"])
        #expect(named.status == 0, "\(named.stderr)")
        let reply = try JSON.parse(named.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(reply["plugin"] == "beta")
        #expect(reply["body"]?["params"]?["x"] == 1)
        #expect(try host.client().control("ib.choices.list")["choices"] == [], "without --remember nothing is stored")

        let unknown = cli(host, ["send", "SharedIntent", "--plugin", "nosuch"])
        #expect(unknown.status == 3)
        #expect(unknown.stderr.contains("unknown_plugin: there is no plugin \"nosuch\""))

        // Not a terminal and nothing to answer with: the prompt can't be answered.
        let unanswered = cli(host, ["send", "SharedIntent"])
        #expect(unanswered.status != 0)
        #expect(unanswered.stderr.contains("--answer plugin="))

        let remembered = cli(host, ["send", "SharedIntent", "--plugin", "alpha", "--remember"])
        #expect(remembered.status == 0, "\(remembered.stderr)")
        let (after, prompts) = try send(try host.client())
        #expect(prompts.isEmpty)
        #expect(after.plugin == "alpha")

        let scripted = cli(host, ["send", "SharedIntent", "--choice", "ask", "--client", "sam", "--answer", "plugin=beta:always", "--json"])
        #expect(scripted.status == 0, "\(scripted.stderr)")
        #expect(try JSON.parse(scripted.stdout.trimmingCharacters(in: .whitespacesAndNewlines))["plugin"] == "alpha",
                "sam has no own default, so everyone's (alpha) applies and nothing is asked")
    }

    @Test("choice: fail gives choice_required with the candidates; choice: default uses priority, and refuses a tie")
    func policies() throws {
        let host = try TestHost(TestManifest(claimants(["alpha", "beta", "gamma"], priority: ["beta": 5, "gamma": 5])),
                                waitReady: ["alpha", "beta", "gamma"])
        defer { host.stop() }
        let client = try host.client()
        let failed = try sendExpectingError(client, options: options(choice: "fail"))
        #expect(failed.code == .choiceRequired)
        #expect(failed.details["candidates"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["alpha", "beta", "gamma"])
        #expect(failed.details["candidates"]?.arrayValue?.allSatisfy { $0["style"] == "plain" && $0["state"] == "ready" } == true)

        let tie = try sendExpectingError(client, options: options(choice: "default"))
        #expect(tie.code == .choiceRequired)
        let bogus = try sendExpectingError(client, options: options(choice: "whatever"))
        #expect(bogus.code == .badFrame)

        // A remembered default applies under every policy.
        _ = try client.control("ib.choices.set", ["intent": "SharedIntent", "plugin": "alpha"])
        for policy in ["fail", "default", "ask"] {
            let (reply, prompts) = try send(client, options: options(choice: policy))
            #expect(reply.plugin == "alpha", "policy \(policy)")
            #expect(prompts.isEmpty)
        }
    }

    @Test("choice: default with one highest priority routes there without asking")
    func priorityDefault() throws {
        let host = try TestHost(TestManifest(claimants(["alpha", "beta"], priority: ["beta": 3])), waitReady: ["alpha", "beta"])
        defer { host.stop() }
        let (reply, prompts) = try send(try host.client(), options: options(choice: "default"))
        #expect(prompts.isEmpty)
        #expect(reply.plugin == "beta")
        // Priority is not a default for clients that ask.
        let (_, asked) = try send(try host.client()) { _ in ["value": "alpha"] }
        #expect(asked.count == 1)
    }

    @Test("the manifest's preset default applies until someone remembers another choice")
    func presetDefault() throws {
        let host = try TestHost(TestManifest(claimants(["alpha", "beta"]), host: .init(defaults: ["SharedIntent": "beta"])),
                                waitReady: ["alpha", "beta"])
        defer { host.stop() }
        let client = try host.client()
        let (preset, presetPrompts) = try send(client)
        #expect(presetPrompts.isEmpty)
        #expect(preset.plugin == "beta")
        let explained = try client.control("ib.explain", ["intent": "SharedIntent"])
        #expect(explained["preset"] == "beta")
        #expect(explained["decision"]?["rule"] == "preset")

        _ = try send(client, options: options(plugin: "alpha", remember: true))
        let (remembered, rememberedPrompts) = try send(client)
        #expect(rememberedPrompts.isEmpty)
        #expect(remembered.plugin == "alpha")
        #expect(try client.control("ib.explain", ["intent": "SharedIntent"])["decision"]?["rule"] == "remembered")
    }
}
