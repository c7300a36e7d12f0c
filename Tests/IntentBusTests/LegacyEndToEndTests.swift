import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// Answers prompts from a script, recording each prompt and progress update.
final class Conversation {
    var prompts: [Prompt] = []
    var progress: [String] = []
    private var answers: [JSON]

    init(_ answers: [JSON] = []) { self.answers = answers }

    func handle(_ event: ClientEvent) -> JSON? {
        switch event {
        case .progress(let body):
            progress.append(body["message"]?.stringValue ?? "")
            return nil
        case .prompt(let prompt):
            prompts.append(prompt)
            guard !answers.isEmpty else { return nil }
            return ["value": answers.removeFirst()]
        }
    }
}

/// The lines the LegacyTest plugin logged, in order.
func calls(_ path: String) -> [String] {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
}

/// Legacy (SiriKit-style) handlers end to end: the real host, the real LegacyTest,
/// balance and messenger plugins, real ipc sockets.
@Suite("Legacy end to end", .serialized)
struct LegacyEndToEndTests {
    @Test("each resolution result: success, needsValue, notRequired, unsupported, confirmationRequired, disambiguation")
    func resolutionKinds() throws {
        let host = try TestHost(TestManifest(.legacy()))
        defer { host.stop() }
        let client = try host.client()

        // success: no question.
        var talk = Conversation()
        var reply = try client.send("ResolveIntent", parameters: ["kind": "success", "target": "x"], onEvent: talk.handle)
        #expect(talk.prompts.isEmpty)
        #expect(reply.body["dialog"] == "Done with x.")
        #expect(reply.body["parameters"]?["target"] == "x")

        // needsValue: the Primary dialog asks, and resolve runs again with the answer.
        talk = Conversation(["filled"])
        reply = try client.send("ResolveIntent", parameters: ["kind": "needsValue"], onEvent: talk.handle)
        #expect(talk.prompts.map(\.kind) == ["value"])
        #expect(talk.prompts.first?.parameter == "target")
        #expect(talk.prompts.first?.dialog == "What is the target?")
        #expect(talk.prompts.first?.raw["type"] == "String")
        #expect(reply.body["dialog"] == "Done with filled.")

        // notRequired: nothing is asked, the parameter stays empty.
        talk = Conversation()
        reply = try client.send("ResolveIntent", parameters: ["kind": "notRequired"], onEvent: talk.handle)
        #expect(talk.prompts.isEmpty)
        #expect(reply.body["dialog"] == "Done with nothing.")

        // unsupported: the reason's format string, then the value is asked again.
        talk = Conversation(["good"])
        reply = try client.send("ResolveIntent", parameters: ["kind": "unsupported", "target": "bad"], onEvent: talk.handle)
        #expect(talk.prompts.map(\.kind) == ["value"])
        #expect(talk.prompts.first?.dialog == "Target ‘bad’ is forbidden. What is the target?")
        #expect(talk.prompts.first?.raw["unsupported"]?["reason"] == "forbidden")
        #expect(talk.prompts.first?.raw["unsupported"]?["dialog"] == "Target ‘bad’ is forbidden.")
        #expect(reply.body["dialog"] == "Done with good.")

        // confirmationRequired: yes settles the value.
        talk = Conversation([true])
        reply = try client.send("ResolveIntent", parameters: ["kind": "confirmationRequired", "target": "x"], onEvent: talk.handle)
        #expect(talk.prompts.map(\.kind) == ["confirmation"])
        #expect(talk.prompts.first?.dialog == "Use x as the target?")
        #expect(talk.prompts.first?.raw["value"] == "x")
        #expect(reply.body["dialog"] == "Done with x.")

        // … and no clears it: resolve asks for another value, then confirms that one.
        talk = Conversation([false, "y", true])
        reply = try client.send("ResolveIntent", parameters: ["kind": "confirmationRequired", "target": "x"], onEvent: talk.handle)
        #expect(talk.prompts.map(\.kind) == ["confirmation", "value", "confirmation"])
        #expect(talk.prompts.last?.dialog == "Use y as the target?")
        #expect(reply.body["dialog"] == "Done with y.")

        // disambiguation: the options, then the picked one's value; a wrong pick is asked again.
        talk = Conversation(["o9", "o2"])
        reply = try client.send("ResolveIntent", parameters: ["kind": "disambiguation", "target": "Opt"], onEvent: talk.handle)
        #expect(talk.prompts.map(\.kind) == ["disambiguation", "disambiguation"])
        #expect(talk.prompts.first?.dialog == "There are 3 targets like ‘Opt’. Which one?")
        #expect(talk.prompts.first?.options.compactMap { $0["id"]?.stringValue } == ["o1", "o2", "o3"])
        #expect(talk.prompts.first?.options.first?["title"] == "Option 1")
        #expect(talk.prompts.first?.options.first?["subtitle"] == "choice 1")
        #expect(talk.prompts.last?.dialog.hasPrefix("'o9' is not one of the options (o1, o2, o3).") == true)
        #expect(reply.body["dialog"] == "Done with Option 2.")

        // A required parameter without a value is asked for; an enum offers its cases.
        talk = Conversation(["success"])
        reply = try client.send("ResolveIntent", parameters: ["target": "z"], onEvent: talk.handle)
        #expect(talk.prompts.map(\.parameter) == ["kind"])
        #expect(talk.prompts.first?.options.count == 6)
        #expect(reply.body["dialog"] == "Done with z.")
    }

    @Test("confirm: ready goes on to handle, a failure code ends it there, and a plugin without confirm is handled directly")
    func confirmPresentAndAbsent() throws {
        let dir = TempDir()
        let log = "\(dir.path)/calls.log"
        // On the relay lane (LegacyLaneCheck): its rewrite writes the flow's debug lines too.
        let host = try TestHost(TestManifest(.legacy(callLog: log)), dir: dir)
        defer { host.stop() }
        let client = try host.client()

        let ready = try client.send("ConfirmIntent", parameters: ["allow": true]) { _ in nil }
        #expect(ready.status == "success")
        #expect(ready.body["code"] == "success")
        #expect(calls(log) == ["ConfirmIntent confirm", "ConfirmIntent handle"])

        let refused = try client.send("ConfirmIntent", parameters: ["allow": false]) { _ in nil }
        #expect(refused.status == "failure")
        #expect(refused.body["code"] == "notAllowed")
        #expect(refused.body["success"] == false)
        #expect(refused.body["dialog"] == "Das ist nicht erlaubt.")
        #expect(calls(log).suffix(1) == ["ConfirmIntent confirm"], "handle must not run after a refused confirm")

        // No confirm in the handler: the SDK says so, and the host handles at once.
        let direct = try client.send("ResolveIntent", parameters: ["kind": "success", "target": "x"]) { _ in nil }
        #expect(direct.body["dialog"] == "Done with x.")
        #expect(host.logEventually(contains: "(ResolveIntent): confirm not implemented by legacytest; handling"))
        #expect(calls(log).suffix(3) == ["ResolveIntent resolve:kind", "ResolveIntent resolve:target", "ResolveIntent handle"])
        // Again: the SDK now knows that handler's confirm is the default and answers without
        // the call (DefaultConfirms); a handler with its own confirm is still asked each time.
        let again = try client.send("ResolveIntent", parameters: ["kind": "success", "target": "y"]) { _ in nil }
        #expect(again.body["dialog"] == "Done with y.")
        #expect(calls(log).suffix(3) == ["ResolveIntent resolve:kind", "ResolveIntent resolve:target", "ResolveIntent handle"])
        let readyAgain = try client.send("ConfirmIntent", parameters: ["allow": true]) { _ in nil }
        #expect(readyAgain.body["code"] == "success")
        #expect(calls(log).suffix(2) == ["ConfirmIntent confirm", "ConfirmIntent handle"])
    }

    @Test("every generic response code, and a custom code with its German dialog")
    func responseCodes() throws {
        let host = try TestHost(TestManifest(.legacy()))
        defer { host.stop() }
        let client = try host.client()
        let generic: [(String, Int64, Bool, String)] = [
            ("unspecified", 0, false, "Something went wrong."),
            ("ready", 1, true, "Ready."),
            ("continueInApp", 2, true, "Continue in the app."),
            ("inProgress", 3, true, "Working on it."),
            ("success", 4, true, "Erledigt."),  // the definition gives `success` its own dialog
            ("failure", 5, false, "Sorry, that didn't work."),
            ("failureRequiringAppLaunch", 6, false, "Please open the app to continue."),
        ]
        for (code, value, success, dialog) in generic {
            let reply = try client.send("CodeIntent", parameters: ["code": .string(code)]) { _ in nil }
            #expect(reply.body["code"] == .string(code))
            #expect(reply.body["code_value"] == .int(value), "\(code)")
            #expect(reply.body["success"] == .bool(success), "\(code)")
            #expect(reply.status == (success ? "success" : "failure"), "\(code)")
            #expect(reply.header["code"] == .string(code))
            #expect(reply.body["dialog"] == .string(dialog), "\(code)")
        }
        let custom = try client.send("CodeIntent", parameters: ["code": "quotaExceeded"]) { _ in nil }
        #expect(custom.status == "failure")
        #expect(custom.body["code_value"] == 100)
        #expect(custom.body["dialog"] == "Ihr Kontingent ist aufgebraucht (3 von 3).")
        #expect(custom.body["concise_dialog"] == "Kontingent aufgebraucht.")
        #expect(custom.body["response"]?["detail"] == "3 von 3")

        // An undeclared code is the plugin's bug: a clear error, from the host (raw
        // plugin) and from the SDK (typed handler).
        for (intent, parameters) in [("CodeIntent", ["code": "bogus"] as JSON), ("ResolveIntent", ["kind": "success", "target": "bogus"])] {
            let error = #expect(throws: ClientError.self) { _ = try client.send(intent, parameters: parameters) { _ in nil } }
            guard case .bus(let e)? = error else { Issue.record("expected a bus error for \(intent)"); continue }
            #expect(e.code == .pluginError)
            #expect(e.message.contains("'bogus'"), "\(e.message)")
            #expect(e.message.contains("does not declare"), "\(e.message)")
        }
    }

    @Test("progress updates reach the client before the final reply")
    func progress() throws {
        let host = try TestHost(TestManifest(.legacy()))
        defer { host.stop() }
        let talk = Conversation()
        let reply = try host.client().send("CodeIntent", parameters: ["code": "inProgress", "progress": 3], onEvent: talk.handle)
        #expect(talk.progress == ["step 1 of 3", "step 2 of 3", "step 3 of 3"])
        #expect(reply.body["code"] == "inProgress")
    }

    @Test("parameters that don't match the definition get invalid_parameters, and the plugin is not called")
    func rejectedParameters() throws {
        let dir = TempDir()
        let log = "\(dir.path)/calls.log"
        let host = try TestHost(TestManifest(.legacy(callLog: log)), dir: dir, waitReady: ["legacytest"])
        defer { host.stop() }
        let client = try host.client()
        let cases: [(JSON, String)] = [
            (["count": "many"], "parameter 'count' (Integer): expected an Integer (a whole number), got the string \"many\""),
            (["count": 11], "parameter 'count' (Integer): must be at most 10, got 11"),
            (["colour": "red"], "unknown parameter 'colour'; did you mean 'color'?"),
            (["when": "tomorrow"], "parameter 'when' (Date): expected a Date"),
            (["color": "blue"], "'blue' is not a Color; expected one of red, green"),
        ]
        for (parameters, text) in cases {
            let error = #expect(throws: ClientError.self) { _ = try client.send("TypesIntent", parameters: parameters) { _ in nil } }
            guard case .bus(let e)? = error else { Issue.record("expected a bus error for \(parameters)"); continue }
            #expect(e.code == .invalidParameters)
            #expect(e.message.contains(text), "\(e.message)")
            #expect(e.details["parameter"] == .string(parameters.objectValue!.keys.first!))
        }
        #expect(calls(log).isEmpty, "the plugin was called: \(calls(log))")

        // What a person means is accepted, and the plugin sees it normalized.
        let reply = try client.send("TypesIntent", parameters: ["count": "7", "length": "25m", "price": "12,50 €",
                                                               "color": "Grün", "tags": "one", "flag": "yes"]) { _ in nil }
        let echo = try JSON.parse(try #require(reply.body["response"]?["echo"]?.stringValue))
        #expect(echo == ["count": 7, "length": 1500, "price": ["amount": 12.5, "currency": "EUR"], "color": "green",
                         "tags": ["one"], "flag": true])
    }

    @Test("broken definitions: intentbus host exits 6 and prints every problem with line and column")
    func brokenDefinitionsStopTheHost() throws {
        let dir = TempDir()
        defer { dir.remove() }
        _ = dir.write("defs/broken.yaml", """
        intents:
          - name: BrokenIntent
            parameters:
              - {name: n, type: Integr}
            response:
              codes:
                - {name: done, success: true, formatString: "Got ${total}."}
                - {name: done, success: false}
        """)
        let broken = TestManifest.Plugin.legacy("broken").with {
            $0.intents = ["BrokenIntent"]
            $0.definitions = ["defs/broken.yaml"]
        }
        let manifest = dir.write("plugins.yaml", TestManifest(broken).yaml)
        let result = runCommand(Products.path("intentbus"), ["host", "--config", manifest], timeout: 30)
        #expect(result.status == 6, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stderr.contains("the intent definitions have 3 errors"), "\(result.stderr)")
        #expect(result.stderr.contains("defs/broken.yaml:4:25: error: intents[0].parameters[0].type: unknown type 'Integr'; did you mean 'Integer'?"), "\(result.stderr)")
        #expect(result.stderr.contains("defs/broken.yaml:7:58: error: intents[0].response.codes[0].formatString: '${total}' names no response parameter"), "\(result.stderr)")
        #expect(result.stderr.contains("defs/broken.yaml:8:18: error: intents[0].response.codes[1].name: duplicate response code 'done' (first at line 7)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir.path)/state/frontend.sock"), "the host must not start serving")
    }

    @Test("a restricted intent is refused without the client credential and allowed with it")
    func restrictedIntent() throws {
        let host = try TestHost(TestManifest(.legacy().extra("IntentsRestrictedWhileLocked: [SecretIntent]"),
                                             host: .init(clientCredential: "open-sesame")))
        defer { host.stop() }
        let client = try host.client()
        var options = RequestOptions()
        for credential in [nil, "wrong"] as [String?] {
            options.credential = credential
            let error = #expect(throws: ClientError.self) { _ = try client.send("SecretIntent", options: options) { _ in nil } }
            guard case .bus(let e)? = error else { Issue.record("expected a bus error"); continue }
            #expect(e.code == .authenticationRequired)
            #expect(e.message.contains("authentication is required"))
            #expect(e.message.contains(credential == nil ? "carries no credential" : "the credential is wrong"))
        }
        options.credential = "open-sesame"
        let reply = try client.send("SecretIntent", options: options) { _ in nil }
        #expect(reply.status == "success")
        #expect(reply.body["dialog"] == "The secret is safe.")
        // Unrestricted intents of the same plugin need nothing.
        let open = try client.send("CodeIntent", parameters: ["code": "success"]) { _ in nil }
        #expect(open.body["dialog"] == "Erledigt.")
    }

    @Test("an abandoned conversation expires with a clear final message; a late answer gets conversation_expired")
    func expiredConversation() throws {
        let host = try TestHost(TestManifest(.legacy(), host: .init(conversationTimeout: "300ms")))
        defer { host.stop() }
        let ctx = ZMQContext()
        let dealer = try ZMQSocket(ctx, .dealer)
        try dealer.connect(host.frontend)
        try dealer.setReceiveTimeout(milliseconds: 15_000)
        try dealer.send(WireMessage(kind: .request, requestId: "c1", intent: "ResolveIntent", header: nil,
                                    body: ["kind": "needsValue"]).frames)
        let prompt = try WireMessage.decode(try #require(try dealer.receive())[...])
        #expect(prompt.kind == .prompt)
        #expect(try prompt.bodyJSON()["parameter"] == "target")
        // Nobody answers.
        let final = try WireMessage.decode(try #require(try dealer.receive())[...])
        #expect(final.kind == .error)
        #expect(final.requestId == "c1")
        let error = BusError(json: try final.bodyJSON())
        #expect(error.code == .conversationExpired)
        #expect(error.message.contains("nobody answered the question within 300 ms"), "\(error.message)")
        try dealer.send(WireMessage(kind: .answer, requestId: "c1", intent: "ResolveIntent", header: nil, body: ["value": "late"]).frames)
        let late = try WireMessage.decode(try #require(try dealer.receive())[...])
        #expect(late.kind == .refused, "a late answer never brings a second final message")
        #expect(BusError(json: try late.bodyJSON()).code == .conversationExpired)
    }

    @Test("a legacy intent without a definition is refused with a clear error")
    func missingDefinition() throws {
        let host = try TestHost(TestManifest(.legacy(definitions: false)))
        defer { host.stop() }
        let error = #expect(throws: ClientError.self) {
            _ = try host.client().send("ResolveIntent", parameters: ["kind": "success"]) { _ in nil }
        }
        guard case .bus(let e)? = error else { Issue.record("expected a bus error"); return }
        #expect(e.code == .pluginError)
        #expect(e.message.contains("ResolveIntent has no intent definition"), "\(e.message)")
    }
}
