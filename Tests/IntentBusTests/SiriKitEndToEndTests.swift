import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// SiriKit extensions in Apple's API (`import Intents`, the classes the
/// IntentDefinitionPlugin generates from an .intentdefinition) through a real host:
/// seed 000's handler unchanged, and what a misused completion handler gets.
@Suite("SiriKit extensions end to end", .serialized)
struct SiriKitEndToEndTests {
    /// Seed 000's `handle(intent:completion:)` answers each of the five codes with the
    /// definition's German format string; the backend down is `continueInApp`.
    @Test("seed 000's StatusIntent handler answers all five codes with the seed's German strings",
          arguments: [
              ([:], "successDataAndPhone", "Sie haben 11,0 GB von 11,0 GB, 200 von 300 Freiminuten und 1,21 € Guthaben."),
              (["BALANCE_CONTRACT": "data"], "successData", "Sie haben 11,0 GB von 11,0 GB und 1,21 € Guthaben."),
              (["BALANCE_CONTRACT": "phone"], "successPhone", "Sie haben 200 von 300 Freiminuten und 1,21 € Guthaben."),
              (["BALANCE_CONTRACT": "classic"], "success", "Sie haben 1,21 € Guthaben."),
              (["BALANCE_LOGGED_OUT": "1"], "userMissing", "Bitte loggen Sie sich in der App ein und speichern Sie Ihre Zugangsdaten."),
          ] as [([String: String], String, String)])
    func statusCodes(env: [String: String], code: String, dialog: String) throws {
        let host = try TestHost(TestManifest(.balanceSiriKit(env: env)))
        defer { host.stop() }
        let reply = try host.client().send("StatusIntent") { _ in nil }
        #expect(reply.body["code"] == .string(code))
        #expect(reply.body["dialog"] == .string(dialog))
        if code == "successPhone" {
            #expect(reply.body["response"]?["phoneDescription"] == "Freiminuten")
            #expect(reply.body["response"]?["dataUnitsLeft"] == nil)
        }
    }

    @Test("the seed's continueInApp, when the app's backend call fails, reaches the client as that code")
    func continueInApp() throws {
        let host = try TestHost(TestManifest(.balanceSiriKit(env: ["BALANCE_BACKEND_DOWN": "1"])))
        defer { host.stop() }
        let reply = try host.client().send("StatusIntent") { _ in nil }
        #expect(reply.body["code"] == "continueInApp")
    }

    @Test("a completion called once, on the handler's thread or another, answers; resolve asks for a missing value")
    func completionOnce() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        #expect(try client.send("CompletionIntent", parameters: ["mode": "once"]) { _ in nil }.body["dialog"] == "Ergebnis: einmal.")
        #expect(try client.send("CompletionIntent", parameters: ["mode": "thread"]) { _ in nil }.body["dialog"] == "Ergebnis: anderer Faden.")
        // resolveMode answers needsValue: the host asks the definition's Primary dialog.
        let talk = Conversation(["once"])
        let asked = try client.send("CompletionIntent", onEvent: talk.handle)
        #expect(talk.prompts.map(\.dialog) == ["Welcher Modus?"])
        #expect(asked.body["dialog"] == "Ergebnis: einmal.")
    }

    @Test("a handler in the async forms: resolve, confirm and handle answer; an unsupported value is asked again")
    func asyncForms() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        #expect(try client.send("CompletionIntent", parameters: ["mode": "async"]) { _ in nil }.body["dialog"] == "Ergebnis: asynchron.")
        // resolveMode's async form turns the value down: the host asks again, and the answer goes to the completion forms.
        let talk = Conversation(["once"])
        let asked = try client.send("CompletionIntent", parameters: ["mode": "async-bad"], onEvent: talk.handle)
        #expect(talk.prompts.count == 1)
        #expect(talk.prompts.first?.raw["unsupported"] != nil)
        #expect(asked.body["dialog"] == "Ergebnis: einmal.")
    }

    @Test("a completion called twice, or never (released, its handler object gone, or kept past the timeout), is a clear pluginError",
          arguments: [("twice", "called its completion 2 times"),
                      ("released", "the completion was released without being called"),
                      ("held", "the completion was released without being called"),
                      ("kept", "no answer within"),
                      ("neither", "the completion was released without being called")])
    func completionMisused(mode: String, message: String) throws {
        let host = try TestHost(TestManifest(.siriKitTest(env: ["INTENTS_COMPLETION_TIMEOUT": "1"])))
        defer { host.stop() }
        let client = try host.client()
        let started = Date()
        let error = #expect(throws: ClientError.self) {
            _ = try client.send("CompletionIntent", parameters: ["mode": .string(mode)]) { _ in nil }
        }
        guard case .bus(let e)? = error else { Issue.record("expected a bus error for \(mode)"); return }
        #expect(e.code == .pluginError)
        #expect(e.message.contains("handle(intent:completion:) of CompletionIntent"), "\(e.message)")
        #expect(e.message.contains(message), "\(e.message)")
        #expect(Date().timeIntervalSince(started) < 8, "answered by the plugin, before the host's 10 s timeout")
        // The plugin still serves: the next request gets its answer.
        #expect(try client.send("CompletionIntent", parameters: ["mode": "once"]) { _ in nil }.body["dialog"] == "Ergebnis: einmal.")
    }

    @Test("NSUserActivity.becomeCurrent() and INInteraction.donate in a handler donate through the REPLY; the host lists them")
    func userActivityDonation() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        #expect(try client.send("CompletionIntent", parameters: ["mode": "donate"]) { _ in nil }.body["dialog"] == "Ergebnis: gespendet.")
        var donation: JSON?
        for _ in 0..<50 where donation == nil {
            let donations = try client.control("ib.donations.list")["donations"]?.arrayValue ?? []
            donation = donations.first { $0["identifier"] == "completion-once" }
            if donation == nil { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(donation?["intent"] == "CompletionIntent")
        #expect(donation?["parameters"]?["mode"] == "once")
        let ranked = try client.control("ib.suggestions")["suggestions"]?.arrayValue ?? []
        // The activity's suggested phrase is not yet a phrase the host runs: it is offered
        // to record ("Add to Siri"), not to say.
        #expect(ranked.contains { $0["phrase"] == .null && $0["add_to_siri"]?["suggested_phrase"] == "Prüf die Completion" }, "\(ranked)")

        // INInteraction.donate: the intent's own parameters, its identifier and group.
        let interacted = try client.send("CompletionIntent", parameters: ["mode": "interaction"]) { _ in nil }
        #expect(interacted.body["dialog"] == "Ergebnis: Interaktion gespendet.")
        var interaction: JSON?
        for _ in 0..<50 where interaction == nil {
            let donations = try client.control("ib.donations.list")["donations"]?.arrayValue ?? []
            interaction = donations.first { $0["identifier"] == "completion-interaction" }
            if interaction == nil { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(interaction?["parameters"]?["mode"] == "interaction")
        #expect(interaction?["group"] == "completions")
    }
}
