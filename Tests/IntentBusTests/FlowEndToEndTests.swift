import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// End-to-end: results that open another intent (new-style and legacy continueInApp),
/// interactive snippets, authentication policies and assistant schemas (docs/results.md,
/// docs/schemas.md), through the real host and plugin processes.
@Suite("Results, snippets, authentication policies and schemas end to end", .serialized)
struct FlowEndToEndTests {
    @Test("a new-style result opens another intent: the client gets a RESULT, then the opened intent's REPLY")
    func newStyleOpensIntent() throws {
        let host = try TestHost(TestManifest(.flow("flow")), waitReady: ["flow"])
        defer { host.stop() }
        let client = try host.client()
        var seen: [IntentReply] = []
        let reply = try client.send("FindAndOpenIntent", parameters: ["name": "garden"], onEvent: { _ in nil },
                                    onResult: { seen.append($0) })
        #expect(seen.count == 1)
        #expect(seen.first?.body["dialog"] == "Found garden.")
        #expect(seen.first?.body["value"] == "garden")
        #expect(seen.first?.header["opens"] == "OpenItemIntent")
        #expect(seen.first?.plugin == "flow")
        #expect(reply.body["dialog"] == "Opened garden (flow).")
        #expect(reply.earlier.count == 1)
        #expect(reply.header["opened_by"] == [["intent": "FindAndOpenIntent", "plugin": "flow"]])

        // The opened intent asks for its parameter in the same conversation.
        var prompts: [Prompt] = []
        let asked = try client.send("FindThenAskIntent", onEvent: { event in
            guard case .prompt(let p) = event else { return nil }
            prompts.append(p)
            return ["value": "web-shop"]
        })
        #expect(prompts.map(\.parameter) == ["item"])
        #expect(asked.earlier.first?.body["dialog"] == "Which one now?")
        #expect(asked.body["dialog"] == "Opened web-shop (flow).")
    }

    @Test("a legacy handler's continueInApp hands over to a named intent")
    func legacyContinueInApp() throws {
        let host = try TestHost(TestManifest(.flow("flow")), waitReady: ["flow"])
        defer { host.stop() }
        let reply = try host.client().send("HandOverIntent", parameters: ["item": "website"]) { _ in nil }
        let first = try #require(reply.earlier.first)
        #expect(first.body["code"] == "continueInApp")
        #expect(first.body["dialog"] == "Opening website in the app.")
        #expect(first.header["opens"] == "OpenItemIntent")
        #expect(reply.body["dialog"] == "Opened website (flow).")
        #expect(reply.header["opened_by"]?.arrayValue?.first?["intent"] == "HandOverIntent")
        // One client request, one final; the plugin served two intents and failed none.
        let status = try host.client().control("ib.status")
        #expect(status["host"]?["finals"] == 1)
        let flow = status["plugins"]?.arrayValue?.first { $0["id"] == "flow" }
        #expect(flow?["served"] == 2)
        #expect(flow?["errors"]?.objectValue?.isEmpty ?? true)
    }

    @Test("two intents opening each other end after 8 intents with plugin_error; an unknown opened intent ends with unknown_intent")
    func chainsEnd() throws {
        let host = try TestHost(TestManifest(.flow("flow")), waitReady: ["flow"])
        defer { host.stop() }
        let client = try host.client()
        var seen: [String] = []
        let loop = busError {
            _ = try client.send("PingIntent", onEvent: { _ in nil }, onResult: { seen.append($0.body["dialog"]?.stringValue ?? "") })
        }
        #expect(loop?.code == .pluginError)
        #expect(loop?.message.contains("at most 8 intents") == true)
        #expect(loop?.details["chain"]?.arrayValue?.count == 8)
        #expect(seen == ["ping", "pong", "ping", "pong", "ping", "pong", "ping"])

        seen = []
        let nowhere = busError {
            _ = try client.send("OpenNowhereIntent", onEvent: { _ in nil }, onResult: { seen.append($0.body["dialog"]?.stringValue ?? "") })
        }
        #expect(nowhere?.code == .unknownIntent)
        #expect(seen == ["off we go"])
        // The host still answers on the same client afterwards.
        #expect(try client.send("OpenItemIntent", parameters: ["item": "x"]) { _ in nil }.body["dialog"] == "Opened x (flow).")
    }

    @Test("the host checks a view's shape and size: too many rows, or an action naming a host intent, is plugin_error")
    func badViews() throws {
        let host = try TestHost(TestManifest(.flow("flow")), waitReady: ["flow"])
        defer { host.stop() }
        let client = try host.client()
        let rows = busError { _ = try client.send("BadViewIntent") { _ in nil } }
        #expect(rows?.code == .pluginError)
        #expect(rows?.message.contains("view.rows has 21 rows; a view shows at most 20") == true)
        let hostIntent = busError { _ = try client.send("BadViewIntent", parameters: ["kind": "host"]) { _ in nil } }
        #expect(hostIntent?.message.contains("view.rows[0].actions[0].intent names the host intent ib.status") == true)
        let good = try client.send("SearchItemsIntent", parameters: ["criteria": "web"]) { _ in nil }
        let actions = good.body["view"]?["rows"]?.arrayValue?.compactMap { $0["actions"]?.arrayValue?.first?["parameters"]?["item"]?.stringValue }
        #expect(actions == ["website", "web-shop"])
    }

    @Test("intentbus send lists a snippet's actions, numbered, and runs the one --action names")
    func cliRunsSnippetAction() throws {
        let host = try TestHost(TestManifest(.flow("flow")), waitReady: ["flow"])
        defer { host.stop() }
        let intentbus = Products.path("intentbus")
        let listed = runCommand(intentbus, ["send", "SearchItemsIntent", "criteria=web", "--endpoint", host.frontend])
        #expect(listed.status == 0)
        #expect(listed.stdout.contains("Items matching “web”"))
        #expect(listed.stdout.contains("1) Open → OpenItemIntent"))
        #expect(listed.stdout.contains("2) Open → OpenItemIntent"))
        #expect(listed.stderr.contains("--action N"))
        let ran = runCommand(intentbus, ["send", "SearchItemsIntent", "criteria=web", "--action", "2", "--endpoint", host.frontend])
        #expect(ran.status == 0)
        #expect(ran.stdout.contains("Opened web-shop (flow)."))
        let out = runCommand(intentbus, ["send", "SearchItemsIntent", "criteria=web", "--action", "3", "--endpoint", host.frontend])
        #expect(out.status == 2)
        #expect(out.stderr.contains("--action must be within 1…2, got 3"))
        // A result that opens another intent: both answers, in order.
        let chained = runCommand(intentbus, ["send", "FindAndOpenIntent", "name=garden", "--endpoint", host.frontend])
        #expect(chained.stdout == "Found garden.\nOpened garden (flow).\n")
        #expect(chained.stderr.contains("opens OpenItemIntent"))
    }

    @Test("authentication policies: refused without the credential, allowed with it; local-device on ipc with it")
    func authenticationPolicies() throws {
        let host = try TestHost(TestManifest(.flow("flow"), host: .init(clientCredential: "s3cret")), waitReady: ["flow"])
        defer { host.stop() }
        let client = try host.client()
        for intent in ["LockedIntent", "LocalOnlyIntent"] {
            let missing = busError { _ = try client.send(intent) { _ in nil } }
            #expect(missing?.code == .authenticationRequired)
            #expect(missing?.message.contains("the request carries no credential") == true)
            var wrong = RequestOptions()
            wrong.credential = "nope"
            let refused = busError { _ = try client.send(intent, options: wrong) { _ in nil } }
            #expect(refused?.message.contains("the credential is wrong") == true)
        }
        var right = RequestOptions()
        right.credential = "s3cret"
        #expect(try client.send("LockedIntent", options: right) { _ in nil }.body["dialog"] == "unlocked")
        #expect(try client.send("LocalOnlyIntent", options: right) { _ in nil }.body["dialog"] == "local and unlocked")
        // An opened intent is checked like a named one: the client's credential goes with it.
        var opened: [String] = []
        let locked = busError {
            _ = try client.send("OpenLockedIntent", onEvent: { _ in nil }, onResult: { opened.append($0.header["opens"]?.stringValue ?? "") })
        }
        #expect(locked?.code == .authenticationRequired)
        #expect(opened == ["LockedIntent"])
        let unlocked = try client.send("OpenLockedIntent", options: right) { _ in nil }
        #expect(unlocked.earlier.first?.body["dialog"] == "to the vault")
        #expect(unlocked.body["dialog"] == "unlocked")
    }

    @Test("two plugins implement system.search: calling the schema asks which; a mismatching plugin is rejected at HELLO")
    func schemas() throws {
        let host = try TestHost(TestManifest(
            .flow("flow-a"), .flow("flow-b"),
            .flow("flow-bad", intents: ["system.search"], env: ["FLOW_BAD_SCHEMA": "1"])), waitReady: ["flow-a", "flow-b"])
        defer { host.stop() }
        let client = try host.client()
        var asked: [Prompt] = []
        let reply = try client.send("system.search", parameters: ["criteria": "web"], options: RequestOptions()) { event in
            guard case .prompt(let p) = event else { return nil }
            asked.append(p)
            return ["value": "flow-b"]
        }
        #expect(asked.first?.kind == "plugin_choice")
        #expect(asked.first?.options.compactMap { $0["id"]?.stringValue } == ["flow-a", "flow-b", "flow-bad"])
        #expect(reply.plugin == "flow-b")
        #expect(reply.body["dialog"] == "flow-b found 2 for web.")
        #expect(reply.body["view"]?["rows"]?.arrayValue?.count == 2)

        var direct = RequestOptions()
        direct.plugin = "flow-a"
        #expect(try client.send("system.search", parameters: ["criteria": "shed"], options: direct) { _ in nil }
            .body["dialog"] == "flow-a found 1 for shed.")
        let wrongType = busError { _ = try client.send("system.search", parameters: ["criteria": ["x"]], options: direct) { _ in nil } }
        #expect(wrongType?.code == .invalidParameters)

        // The message-sending schema, on one plugin by name; the schema's parameters are checked.
        let sent = try client.send("messages.sendMessage", parameters: ["recipients": "Alex", "content": "Hi"], options: direct) { _ in nil }
        #expect(sent.body["dialog"] == "flow-a sent “Hi” to Alex.")
        let two = try client.send("messages.sendMessage", parameters: ["recipients": ["Alex", "Sam"], "content": "Hi"],
                                  options: direct) { _ in nil }
        #expect(two.body["dialog"] == "flow-a sent “Hi” to Alex, Sam.")
        let missing = try client.send("messages.sendMessage", parameters: ["recipients": "Alex"], options: direct) { event in
            guard case .prompt(let p) = event, p.parameter == "content" else { return nil }
            return ["value": "asked"]
        }
        #expect(missing.body["dialog"] == "flow-a sent “asked” to Alex.")
        let unknown = busError { _ = try client.send("messages.sendMessage", parameters: ["recipients": "A", "content": "x", "extra": 1], options: direct) { _ in nil } }
        #expect(unknown?.code == .invalidParameters)

        let bad = try host.waitForPlugin("flow-bad", state: "failed")
        let reason = bad["reason"]?.stringValue ?? ""
        #expect(reason.contains("BadSearchIntent implements system.search, whose criteria is string, but declares it as integer"))
        #expect(reason.contains("BadSearchIntent implements system.search but requires scope"))
    }
}
