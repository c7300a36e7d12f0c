import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// The standard intents' classes (INSendMessageIntent and its handling protocol) served
/// by a real Intents extension, the SiriKitTest plugin, through the real host.
@Suite("SiriKit extensions end to end: standard intents", .serialized)
struct SiriKitStandardIntentsEndToEndTests {
    @Test("INSendMessageIntent: seed 001's handler; resolveRecipients answers one INSendMessageRecipientResolutionResult per recipient")
    func sendMessage() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        // "Alex" fits two contacts: only that recipient is put to the user, with handles.
        let talk = Conversation(["alex-schmidt"])
        let sent = try client.send("INSendMessageIntent", parameters: ["recipients": ["Alex", "Sam"], "content": "Bin gleich da"],
                                   onEvent: talk.handle)
        #expect(talk.prompts.count == 1)
        #expect(talk.prompts.first?.kind == "disambiguation")
        #expect(talk.prompts.first?.options.compactMap { $0["title"]?.stringValue } == ["Alex Meyer", "Alex Schmidt"])
        #expect(talk.prompts.first?.options.compactMap { $0["subtitle"]?.stringValue } == ["+49 176 1111111", "alex@schmidt.example"])
        #expect(sent.body["code"] == "success")
        // Apple's response names no recipient: the module fills the host's ${recipientName} in.
        #expect(sent.body["dialog"] == "Sent to Alex Schmidt, Sam Lee.")
    }

    @Test("INSendMessageIntent: no content is the seed's needsValue, an unknown recipient unsupported(forReason: .noAccount)")
    func sendMessageQuestions() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        let talk = Conversation(["Hallo"])
        let sent = try client.send("INSendMessageIntent", parameters: ["recipients": ["Sam"], "content": ""], onEvent: talk.handle)
        #expect(talk.prompts.map(\.parameter) == ["content"])
        #expect(talk.prompts.first?.dialog == "What do you want to say?")
        #expect(sent.body["dialog"] == "Sent to Sam Lee.")
        let unknown = Conversation(["sam-lee"])
        let again = try client.send("INSendMessageIntent", parameters: ["recipients": ["Zoe"], "content": "Hallo"], onEvent: unknown.handle)
        #expect(unknown.prompts.first?.raw["unsupported"]?["reason"] == "noAccount")
        #expect(again.body["dialog"] == "Sent to Sam Lee.")
    }
}
