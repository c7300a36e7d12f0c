import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// End to end: the Swift SDK's AppShortcut with `requiresContext`/`excludesContext` and
/// `lists` (Tests/Plugins/NewStyleTest/ContextShortcuts.swift) under a real host: what the
/// typed declarations say is what `ib.say` does in each request context.
@Suite("Shortcuts end to end: the Swift SDK's context conditions and lists", .serialized)
struct ShortcutContextSDKTests {
    static func plugin() -> TestManifest.Plugin {
        .newStyle("newstyle", intents: Array(TestManifest.Plugin.newStyleIntents.dropLast()), env: ["NEWSTYLE_CONTEXT": "1"])
            .named("Tester").timeout(nil)
    }

    func say(_ client: IntentClient, _ text: String, context: [String: JSON]? = nil) throws -> IntentReply {
        var options = RequestOptions()
        options.context = context
        return try client.send("ib.say", parameters: ["text": .string(text)], options: options) { _ in nil }
    }

    @Test("requiresContext with a copied slot, excludesContext, a range and values lists")
    func contextAndLists() throws {
        let host = try TestHost(TestManifest(Self.plugin()), waitReady: ["newstyle"])
        defer { host.stop() }
        let client = try host.client()
        let kitchen = try say(client, "Fokus hier mit Tester", context: ["area": "Küche", "mood": "wild"])
        #expect(kitchen.body["snippet"]?["label"] == "wild")
        #expect(kitchen.body["snippet"]?["minutes"] == 25)
        for context: [String: JSON]? in [nil, ["area": "Garage", "mood": "calm"], ["area": "Kitchen", "mood": "calm", "muted": true],
                                         ["area": "Kitchen"]] {
            #expect(busError { _ = try say(client, "Fokus hier mit Tester", context: context) }?.code == .unknownIntent,
                    "context \(String(describing: context))")
        }
        #expect(try say(client, "Fokus für 30 Minuten mit Tester").body["snippet"]?["minutes"] == 30)
        #expect(try say(client, "leise fokussieren mit Tester").body["snippet"]?["label"] == "quiet")
        #expect(try say(client, "laut fokussieren mit Tester").body["snippet"]?["label"] == "laut")
        for text in ["Fokus für 31 Minuten mit Tester", "Fokus für 500 Minuten mit Tester", "schnell fokussieren mit Tester"] {
            #expect(busError { _ = try say(client, text) }?.code == .unknownIntent, "\(text)")
        }
    }

    @Test("the metadata carries the conditions and lists in the wire form the Python SDK sends")
    func wireForm() throws {
        let shortcuts = try ContextShortcutsForm.shortcuts()
        #expect(shortcuts[0]["requires_context"] == ["area": ["Kitchen", "Küche"], "mood": ["value": .null, "slot": "label"]])
        #expect(shortcuts[0]["excludes_context"] == ["muted": true])
        #expect(shortcuts[1]["lists"] == ["minutes": ["range": ["from": 5, "to": 180, "step": 5]],
                                          "label": ["values": ["laut", ["in": "(ruhig|leise)", "out": "quiet"]]]])
        #expect(shortcuts[1]["requires_context"] == nil)
    }
}

/// The wire form of shortcuts like ContextShortcuts', built with the same API.
enum ContextShortcutsForm {
    static func shortcuts() throws -> [JSON] {
        let plugin = try IntentPlugin(environment: ["INTENTBUS_DESCRIBE": "1"])
        plugin.register(shortcuts: [
            AppShortcut(intentIdentifier: "DefaultsIntent", phrases: ["Fokus hier mit ${applicationName}"], shortTitle: "Küche",
                        requiresContext: ["area": ["Kitchen", "Küche"], "mood": .slot("label")], excludesContext: ["muted": true]),
            AppShortcut(intentIdentifier: "DefaultsIntent", phrases: ["Fokus für ${minutes} Minuten"], shortTitle: "Liste",
                        lists: ["minutes": .range(5...180, step: 5), "label": .values(["laut", .said("(ruhig|leise)", as: "quiet")])]),
        ])
        return plugin.metadata["shortcuts"]?.arrayValue ?? []
    }
}
