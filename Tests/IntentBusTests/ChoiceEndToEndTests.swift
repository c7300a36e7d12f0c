import Foundation
import Testing
import IntentBus
@testable import PluginHost

/// Test plugins that all claim `intent`, as manifest list items.
private func claimants(_ ids: [String], intent: String = "SharedIntent", extra: [String: [String]] = [:]) -> String {
    ids.map { testPlugin($0, intents: [intent], extra: extra[$0] ?? []) }.joined(separator: "\n")
}

/// Sends `intent` and answers every prompt with `answer`; returns the reply and the
/// prompts that were asked.
private func send(_ client: IntentClient, _ intent: String = "SharedIntent", options: RequestOptions = RequestOptions(),
                  answer: (Prompt) -> JSON? = { _ in nil }) throws -> (IntentReply, [Prompt]) {
    var prompts: [Prompt] = []
    let reply = try client.send(intent, parameters: ["n": 1], options: options) { event in
        guard case .prompt(let p) = event else { return nil }
        prompts.append(p)
        return answer(p)
    }
    return (reply, prompts)
}

/// Sends and expects an ERROR; returns it.
private func sendExpectingError(_ client: IntentClient, _ intent: String = "SharedIntent",
                                options: RequestOptions = RequestOptions(),
                                answer: (Prompt) -> JSON? = { _ in nil }) throws -> BusError {
    do {
        let (reply, _) = try send(client, intent, options: options, answer: answer)
        throw TestFailure("expected an error, got a reply from \(reply.plugin ?? "?"): \(reply.body.canonicalString)")
    } catch ClientError.bus(let e) {
        return e
    }
}

private func options(client: String? = nil, plugin: String? = nil, remember: Bool = false, choice: String? = nil) -> RequestOptions {
    var o = RequestOptions()
    o.clientIdentity = client
    o.plugin = plugin
    o.remember = remember
    o.choicePolicy = choice
    return o
}

/// Ends the host process with `sig` and reaps it, keeping its directory (state and
/// manifest) for the next host.
private func end(_ host: TestHost, with sig: Int32) {
    kill(host.process.processIdentifier, sig)
    host.process.waitUntilExit()
}

/// Runs the built CLI against `host`.
private func cli(_ host: TestHost, _ args: [String]) -> CommandResult {
    runCommand(Products.path("intentbus"), args + ["--endpoint", host.frontend])
}

/// End-to-end: choosing among plugins that claim one intent, over the real host, real
/// plugins, a real SQLite file and the real CLI.
@Suite("Choosing among plugins, end to end", .serialized)
struct ChoiceEndToEndTests {
    @Test("the prompt lists every candidate; \"once\" routes this request only, and the next one asks again")
    func promptOnce() throws {
        let host = try TestHost(plugins: claimants(["beta", "alpha"]), waitReady: ["alpha", "beta"])
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
        let host = try TestHost(plugins: ["messenger", "chat"].map { id in
            "  - id: \(id)\n    name: \(id.capitalized)\n    exec: \(Products.path("plugin-\(id)"))\n    IntentsSupported: [INSendMessageIntent]"
        }.joined(separator: "\n"), waitReady: ["messenger", "chat"])
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
        let plugins = claimants(["alpha", "beta"])
        let first = try TestHost(plugins: plugins, waitReady: ["alpha", "beta"])
        defer { first.stop() }
        let (chosen, asked) = try send(try first.client()) { _ in ["value": "beta", "remember": "always"] }
        #expect(asked.count == 1)
        #expect(chosen.plugin == "beta")
        let (next, askedAgain) = try send(try first.client())
        #expect(askedAgain.isEmpty)
        #expect(next.plugin == "beta")

        // A graceful restart on the same state directory.
        end(first, with: SIGTERM)
        let second = try TestHost(plugins: plugins, dir: first.dir, waitReady: ["alpha", "beta"])
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
        let third = try TestHost(plugins: plugins, dir: first.dir, waitReady: ["alpha", "beta"])
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
        let host = try TestHost(plugins: claimants(["alpha", "beta"]), waitReady: ["alpha", "beta"])
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
        let first = try TestHost(plugins: claimants(["alpha", "beta"]), waitReady: ["alpha", "beta"])
        defer { first.stop() }
        _ = try send(try first.client()) { _ in ["value": "beta", "remember": "always"] }
        end(first, with: SIGTERM)

        // beta is gone; alpha and gamma remain.
        let second = try TestHost(plugins: claimants(["alpha", "gamma"]), dir: first.dir, waitReady: ["alpha", "gamma"])
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
        let host = try TestHost(plugins: """
          - id: ghost
            exec: /nonexistent/plugin-ghost
            IntentsSupported: [SharedIntent]
        \(claimants(["alpha"]))
        """, waitReady: ["alpha"])
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
        let host = try TestHost(plugins: claimants(["alpha", "beta"]), waitReady: ["alpha", "beta"])
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
        let host = try TestHost(plugins: claimants(["alpha", "beta"]), hostExtra: "  conversation_timeout: 500ms",
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
        let host = try TestHost(plugins: claimants(["alpha", "beta"]), waitReady: ["alpha", "beta"])
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
        let host = try TestHost(plugins: claimants(["alpha", "beta", "gamma"], extra: ["beta": ["priority: 5"], "gamma": ["priority: 5"]]),
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
        let host = try TestHost(plugins: claimants(["alpha", "beta"], extra: ["beta": ["priority: 3"]]), waitReady: ["alpha", "beta"])
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
        let host = try TestHost(plugins: claimants(["alpha", "beta"]), hostExtra: "  defaults:\n    SharedIntent: beta",
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

    @Test("explain says who would handle an intent and why, over the bus and in the CLI")
    func explain() throws {
        let host = try TestHost(plugins: [claimants(["alpha", "beta"], extra: ["beta": ["priority: 2"]]),
                                          testPlugin("solo", intents: ["SoloIntent"])].joined(separator: "\n"),
                                waitReady: ["alpha", "beta", "solo"])
        defer { host.stop() }
        let text = cli(host, ["explain", "SharedIntent"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("SharedIntent is claimed by 2 plugins:"))
        #expect(text.stdout.contains("alpha"))
        #expect(text.stdout.contains("Test beta"))
        #expect(text.stdout.contains("remembered default: none"))
        #expect(text.stdout.contains("decision: no remembered or preset default: the client is asked to choose"))
        #expect(text.stdout.contains("--choice default  → beta (priority)"))

        _ = try host.client().control("ib.choices.set", ["intent": "SharedIntent", "plugin": "alpha", "client": "ann"])
        let forAnn = cli(host, ["explain", "SharedIntent", "--client", "ann", "--json"])
        #expect(forAnn.status == 0, "\(forAnn.stderr)")
        let body = try JSON.parse(forAnn.stdout)
        #expect(body["candidates"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["alpha", "beta"])
        #expect(body["candidates"]?.arrayValue?.first?["state"] == "ready")
        #expect(body["candidates"]?.arrayValue?.last?["priority"] == 2)
        #expect(body["remembered"]?["plugin"] == "alpha")
        #expect(body["remembered"]?["client"] == "ann")
        #expect(body["decision"]?["rule"] == "remembered")
        #expect(body["decision"]?["plugin"] == "alpha")
        #expect(body["policies"]?["fail"]?["plugin"] == "alpha")
        let forBob = try JSON.parse(cli(host, ["explain", "SharedIntent", "--client", "bob", "--json"]).stdout)
        #expect(forBob["remembered"] == .null)
        #expect(forBob["decision"]?["rule"] == "prompt")

        let solo = cli(host, ["explain", "SoloIntent"])
        #expect(solo.stdout.contains("decision: only solo claims SoloIntent"))
        let unknown = cli(host, ["explain", "NoSuchIntent"])
        #expect(unknown.status == 1)
        #expect(unknown.stdout.contains("no plugin claims NoSuchIntent"))
    }

    @Test("choices list, set and reset from the CLI change what the host does")
    func choicesCommands() throws {
        let host = try TestHost(plugins: [claimants(["alpha", "beta"]), testPlugin("other", intents: ["OtherIntent"])]
                                    .joined(separator: "\n"), waitReady: ["alpha", "beta", "other"])
        defer { host.stop() }
        let empty = cli(host, ["choices", "list"])
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout.contains("no remembered choices"))
        #expect(empty.stdout.contains("stored in \(host.dir.path)/state/choices.sqlite3"))

        let set = cli(host, ["choices", "set", "SharedIntent", "beta"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("SharedIntent → beta, for every client"))
        let (reply, prompts) = try send(try host.client())
        #expect(prompts.isEmpty)
        #expect(reply.plugin == "beta")

        #expect(cli(host, ["choices", "set", "SharedIntent", "alpha", "--client", "bob"]).status == 0)
        let listed = cli(host, ["choices", "list"])
        let rows = listed.stdout.split(separator: "\n").map(String.init)
        #expect(rows.contains { $0.hasPrefix("SharedIntent") && $0.contains("(everyone)") && $0.contains("beta") && $0.contains("cli") })
        #expect(rows.contains { $0.hasPrefix("SharedIntent") && $0.contains("bob") && $0.contains("alpha") })
        let (bobs, _) = try send(try host.client(), options: options(client: "bob"))
        #expect(bobs.plugin == "alpha")

        let wrong = cli(host, ["choices", "set", "SharedIntent", "other"])
        #expect(wrong.status == 3)
        #expect(wrong.stderr.contains("plugin other does not claim SharedIntent"))
        let usage = cli(host, ["choices", "set", "SharedIntent"])
        #expect(usage.status == 2)

        let resetBob = cli(host, ["choices", "reset", "SharedIntent", "--client", "bob"])
        #expect(resetBob.stdout.contains("forgot 1 remembered choice for SharedIntent (client bob)"))
        let (bobAgain, _) = try send(try host.client(), options: options(client: "bob"))
        #expect(bobAgain.plugin == "beta", "with bob's own choice gone, everyone's applies")

        let resetAll = cli(host, ["choices", "reset", "--all"])
        #expect(resetAll.status == 0, "\(resetAll.stderr)")
        #expect(resetAll.stdout.contains("forgot 1 remembered choice"))
        let error = try sendExpectingError(try host.client(), options: options(choice: "fail"))
        #expect(error.code == .choiceRequired)
        #expect(cli(host, ["choices", "list"]).stdout.contains("no remembered choices"))
    }

    @Test("a corrupt choices database at start is set aside and logged, and the host keeps working and remembering")
    func corruptDatabaseRecovered() throws {
        let dir = TempDir()
        _ = dir.write("state/choices.sqlite3", String(repeating: "this is not a database\n", count: 200))
        let host = try TestHost(plugins: claimants(["alpha", "beta"]), dir: dir, waitReady: ["alpha", "beta"])
        defer { host.stop() }
        #expect(host.logEventually(contains: "choice store: choices.sqlite3 was corrupt (file is not a database)"))
        let files = try FileManager.default.contentsOfDirectory(atPath: "\(dir.path)/state")
        #expect(files.contains { $0.hasPrefix("choices.sqlite3.corrupt-") })

        let (reply, _) = try send(try host.client()) { _ in ["value": "alpha", "remember": "always"] }
        #expect(reply.plugin == "alpha")
        let list = try host.client().control("ib.choices.list")
        #expect(list["store"]?["persistent"] == true)
        #expect(list["store"]?["recovered"]?.stringValue?.contains("was corrupt") == true)
        #expect(list["choices"]?.arrayValue?.first?["plugin"] == "alpha")
    }
}

/// `host.defaults` in the manifest: checked against the plugins with file:line:column.
@Suite("Preset defaults in the manifest")
struct PresetDefaultManifestTests {
    private func load(_ text: String) throws -> (Manifest?, [String], String) {
        let dir = TempDir()
        defer { dir.remove() }
        let path = dir.write("plugins.yaml", text)
        do {
            let manifest = try ManifestLoader.load(path: path)
            return (manifest, manifest.warnings.map { $0.description.replacingOccurrences(of: dir.path, with: "$DIR") }, dir.path)
        } catch {
            return (nil, error.diagnostics.map { $0.description.replacingOccurrences(of: dir.path, with: "$DIR") }, dir.path)
        }
    }

    @Test func aValidPresetIsLoaded() throws {
        let (manifest, warnings, _) = try load("""
        host:
          defaults:
            SendIntent: b
        plugins:
          - {id: a, exec: /bin/true, IntentsSupported: [SendIntent]}
          - {id: b, exec: /bin/true, IntentsSupported: [SendIntent, OtherIntent]}
        """)
        #expect(manifest?.host.presetDefaults == ["SendIntent": "b"])
        #expect(warnings.isEmpty)
    }

    @Test func unknownPluginsAndUnclaimedIntentsAreErrors() throws {
        let (manifest, diagnostics, _) = try load("""
        host:
          defaults:
            SendIntent: nosuch
            OtherIntent: a
            ib.ping: a
            Empty: ""
        plugins:
          - {id: a, exec: /bin/true, IntentsSupported: [SendIntent]}
          - {id: b, exec: /bin/true, IntentsSupported: [SendIntent, OtherIntent]}
        """)
        #expect(manifest == nil)
        #expect(diagnostics == [
            "$DIR/plugins.yaml:3:17: error: host.defaults.SendIntent: there is no plugin 'nosuch' in the manifest or its drop-ins (plugins: a, b)",
            "$DIR/plugins.yaml:4:18: error: host.defaults.OtherIntent: plugin 'a' does not list OtherIntent in IntentsSupported (claimed by b)",
            "$DIR/plugins.yaml:5:5: error: host.defaults.ib.ping: intent name 'ib.ping' is reserved: names starting with 'ib.' are answered by the host",
            "$DIR/plugins.yaml:6:12: error: host.defaults.Empty: needs a plugin id",
        ])
    }

    @Test func aPresetForAnUncontestedIntentIsAWarning() throws {
        let (manifest, warnings, _) = try load("""
        host:
          defaults: {SendIntent: a}
        plugins:
          - {id: a, exec: /bin/true, IntentsSupported: [SendIntent]}
        """)
        #expect(manifest?.host.presetDefaults == ["SendIntent": "a"])
        #expect(warnings == ["$DIR/plugins.yaml:2:14: warning: host.defaults.SendIntent: only 'a' claims SendIntent, so this default changes nothing until another plugin claims it"])
    }

    @Test func presetsMayNamePluginsFromDropIns() throws {
        let dir = TempDir()
        defer { dir.remove() }
        _ = dir.write("plugins.d/b.yaml", "{id: b, exec: /bin/true, IntentsSupported: [SendIntent]}")
        let path = dir.write("plugins.yaml", """
        host:
          defaults: {SendIntent: b}
        plugins:
          - {id: a, exec: /bin/true, IntentsSupported: [SendIntent]}
        """)
        #expect(try ManifestLoader.load(path: path).host.presetDefaults == ["SendIntent": "b"])
    }
}
