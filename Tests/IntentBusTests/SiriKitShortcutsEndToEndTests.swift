import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// INVoiceShortcutCenter and INRelevantShortcutStore in an Intents extension, asking the
/// real host over the bus (its frontend, which the host gives every plugin): the user's
/// phrases (`ib.shortcuts.*`) come back as INVoiceShortcuts for the extension's intents,
/// and the app's suggestions become donations `intentbus suggestions` offers.
@Suite("SiriKit extensions end to end: voice shortcuts and suggestions", .serialized)
struct SiriKitShortcutsEndToEndTests {
    @Test("getAllVoiceShortcuts lists the user's phrases for the extension's intents; getVoiceShortcut(with:) finds one by its identifier")
    func voiceShortcuts() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        #expect(try client.send("CompletionIntent", parameters: ["mode": "shortcuts"]) { _ in nil }.body["dialog"]
                == "Ergebnis: keine Kurzbefehle (-).")
        _ = try client.control("ib.shortcuts.add", ["phrase": "prüf einmal", "intent": "CompletionIntent", "parameters": ["mode": "once"]])
        _ = try client.control("ib.shortcuts.add", ["phrase": "zeig die typen", "intent": "TypesIntent", "parameters": ["color": "red"]])
        let reply = try client.send("CompletionIntent", parameters: ["mode": "shortcuts"]) { _ in nil }
        #expect(reply.body["dialog"] == "Ergebnis: prüf einmal, zeig die typen; wieder: prüf einmal (once).", "\(reply.body)")
        // A deleted phrase is gone from the next answer.
        _ = try client.control("ib.shortcuts.delete", ["phrase": "prüf einmal"])
        let after = try client.send("CompletionIntent", parameters: ["mode": "shortcuts"]) { _ in nil }
        #expect(after.body["dialog"] == "Ergebnis: zeig die typen; wieder: zeig die typen (-).", "\(after.body)")
    }

    @Test("setShortcutSuggestions and setRelevantShortcuts become the plugin's suggestions; calling again replaces them")
    func suggestions() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        func ours() throws -> [JSON] {
            (try client.control("ib.donations.list", ["plugin": "sirikittest"])["donations"]?.arrayValue ?? [])
        }
        for _ in 0..<2 {
            #expect(try client.send("CompletionIntent", parameters: ["mode": "suggest"]) { _ in nil }.body["dialog"] == "Ergebnis: vorgeschlagen.")
            // setShortcutSuggestions reports nothing: wait for its donation as the host lists it.
            var list: [JSON] = []
            for _ in 0..<50 {
                list = try ours()
                if list.contains(where: { $0["group"] == "sirikittest.suggestions" }) { break }
                Thread.sleep(forTimeInterval: 0.1)
            }
            #expect(list.filter { $0["group"] == "sirikittest.suggestions" }.map { $0["suggested_phrase"] } == ["Prüf die Completion einmal"])
            #expect(list.filter { $0["group"] == "sirikittest.relevant" }.map { $0["parameters"]?["mode"] } == ["thread"])
            #expect(list.allSatisfy { $0["intent"] == "CompletionIntent" })
        }
        let suggested = try client.control("ib.suggestions")["suggestions"]?.arrayValue ?? []
        // No phrase of this host says them yet, so each is offered as "Add to Siri" with the
        // phrase the plugin suggested (a phrase to say must run what it suggests: issue 29).
        func offered(_ phrase: String) -> Bool {
            suggested.contains { ($0["phrase"] == .string(phrase) || $0["add_to_siri"]?["suggested_phrase"] == .string(phrase)) && $0["plugin"] == "sirikittest" }
        }
        #expect(offered("Prüf die Completion einmal"), "\(suggested)")
        #expect(offered("Prüf den Faden"), "\(suggested)")
    }
}
