import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// The built-in standard intents' phrases have slots (docs/shortcuts.md): what is said
/// after "Send a message to" is the recipient, for the legacy messenger and the
/// new-style chat alike, through a real host and the demo's plugins.
@Suite("Shortcuts end to end: standard intents' phrases with slots", .serialized)
struct StandardIntentPhraseTests {
    private static let messengers = TestManifest(.messenger().named("Messenger"), .chat().named("Chat"))

    @Test("say \"Send a message to Sam\": the recipient comes from the phrase; the usual choice, then the content is asked")
    func recipientFromThePhrase() throws {
        let host = try TestHost(Self.messengers, waitReady: ["messenger", "chat"])
        defer { host.stop() }
        let client = try host.client()

        let match = try client.control("ib.say.match", ["text": "Send a message to Sam"])
        #expect(match["intent"] == "INSendMessageIntent")
        #expect(match["parameters"]?["recipients"] == "Sam")
        #expect(match["plugins"]?.arrayValue?.compactMap(\.stringValue) == ["chat", "messenger"])

        // The legacy messenger: Sam is resolved from the phrase, only the message is asked.
        let (sent, prompts) = try say(client, "Send a message to Sam") { p in
            switch p.kind {
            case "plugin_choice": return ["value": "messenger", "remember": "once"]
            case "value" where p.parameter == "content": return ["value": "Bin gleich da"]
            default: return nil
            }
        }
        #expect(prompts.map(\.kind) == ["plugin_choice", "value"])
        #expect(prompts.last?.parameter == "content")
        #expect(sent.plugin == "messenger")
        #expect(sent.body["dialog"] == "Sent to Sam Lee.")

        // README's "…to Alex": the messenger asks which Alex, and nothing else is missing.
        let (alex, asked) = try say(client, "Send a message to Alex saying see you at eight") { p in
            switch p.kind {
            case "plugin_choice": return ["value": "messenger", "remember": "once"]
            case "disambiguation": return ["value": "alex-schmidt"]
            default: return nil
            }
        }
        #expect(asked.map(\.kind) == ["plugin_choice", "disambiguation"])
        #expect(alex.body["dialog"] == "Sent to Alex Schmidt.")

        // A name no contact has: the legacy flow asks again (unsupported, as SiriKit
        // re-asks), for that recipient only; the answer is resolved as any name.
        let (zoe, zoePrompts) = try say(client, "Send a message to Zoe saying hi") { p in
            switch p.kind {
            case "plugin_choice": return ["value": "messenger", "remember": "once"]
            case "value" where p.parameter == "recipients": return ["value": "Sam"]
            default: return nil
            }
        }
        #expect(zoePrompts.map(\.kind) == ["plugin_choice", "value"])
        #expect(zoe.body["dialog"] == "Sent to Sam Lee.")

        // The new-style chat takes the same phrase's slots.
        let (chat, chatPrompts) = try say(client, "Tell Sam that the train is late") { p in
            p.kind == "plugin_choice" ? ["value": "chat", "remember": "once"] : nil
        }
        #expect(chatPrompts.map(\.kind) == ["plugin_choice"])
        #expect(chat.body["dialog"] == "Chat: sent “the train is late” to Sam.")
    }
}
