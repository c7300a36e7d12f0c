import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// The generated resolve and confirm methods, through the same host.
@Suite("SiriKit extensions end to end: resolution", .serialized)
struct SiriKitResolutionEndToEndTests {
    @Test("resolveContract disambiguates with ContractResolutionResult; confirm answers alreadyActive; unsupported(forReason:) is heard")
    func switchContract() throws {
        let host = try TestHost(TestManifest(.balanceSiriKit()))
        defer { host.stop() }
        let client = try host.client()
        // "0176" fits two contracts: the host asks which, with the definition's dialogs.
        let talk = Conversation(["geschaeft"])
        let switched = try client.send("SwitchContractIntent", parameters: ["contract": "0176"], onEvent: talk.handle)
        #expect(talk.prompts.first?.dialog == "Es gibt 2 Verträge, die zu ‘0176’ passen. Welchen meinen Sie?")
        #expect(talk.prompts.first?.options.compactMap { $0["title"]?.stringValue } == ["Privat", "Geschäftlich"])
        #expect(switched.body["code"] == "success")
        #expect(switched.body["dialog"] == "Vertrag Geschäftlich (0176 7654321) ist jetzt aktiv.")
        // The same contract again: confirm answers alreadyActive, handle is not called.
        let again = try client.send("SwitchContractIntent", parameters: ["contract": "geschaeft"]) { _ in nil }
        #expect(again.body["code"] == "alreadyActive")
        #expect(again.body["dialog"] == "Vertrag Geschäftlich (0176 7654321) ist bereits aktiv.")
        // An unknown contract: the reason's format string, then the question again.
        let unknown = Conversation(["oma"])
        let picked = try client.send("SwitchContractIntent", parameters: ["contract": "Nachbar"], onEvent: unknown.handle)
        #expect(unknown.prompts.first?.dialog.hasPrefix("Einen Vertrag ‘Nachbar’ finde ich nicht.") == true, "\(unknown.prompts.map(\.dialog))")
        #expect(picked.body["dialog"] == "Vertrag Oma (0160 2220000) ist jetzt aktiv.")
    }

    @Test("a response's opensIntent with continueInApp hands over: the host runs the opened intent in the same conversation")
    func opensIntent() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let reply = try host.client().send("CompletionIntent", parameters: ["mode": "open"]) { _ in nil }
        let first = try #require(reply.earlier.first)
        #expect(first.body["code"] == "continueInApp")
        #expect(first.header["opens"] == "CompletionIntent")
        #expect(reply.body["dialog"] == "Ergebnis: einmal.")
        #expect(reply.header["opened_by"]?.arrayValue?.first?["intent"] == "CompletionIntent")
    }
}
