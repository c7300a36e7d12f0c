import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// Seed 004's CartShortcut donating from an Intents extension, and the deletions
/// (`NSUserActivity.deleteSavedUserActivities`, `INInteraction.delete(with:)`,
/// `deleteAll`), through the real host's donation store.
@Suite("SiriKit extensions end to end: donations and deletions", .serialized)
struct SiriKitDonationEndToEndTests {
    /// The plugin's donations, once the host's batched writer has the expected count.
    private func donations(_ client: IntentClient, until ready: ([JSON]) -> Bool) throws -> [JSON] {
        var list: [JSON] = []
        for _ in 0..<50 {
            list = try client.control("ib.donations.list")["donations"]?.arrayValue ?? []
            if ready(list) { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return list
    }

    @Test("seed 004's CartShortcut donates \"Show My Cart\" (intentbus suggestions lists it); deleteSavedUserActivities removes it")
    func cartShortcut() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        #expect(try client.send("CompletionIntent", parameters: ["mode": "cart"]) { _ in nil }.body["dialog"] == "Ergebnis: Warenkorb gespendet.")
        let donated = try donations(client) { $0.contains { $0["suggested_phrase"] == "Show My Cart" } }
        let cart = donated.first { $0["suggested_phrase"] == "Show My Cart" }
        #expect(cart?["title"] == "Welcome to Webkul Cart")
        #expect(cart?["intent"] == "CompletionIntent")
        let identifier = try #require(cart?["identifier"]?.stringValue)
        let suggested = try client.control("ib.suggestions")["suggestions"]?.arrayValue ?? []
        // No phrase of this host says it yet: "Add to Siri" offers the activity's phrase.
        #expect(suggested.contains { $0["add_to_siri"]?["suggested_phrase"] == "Show My Cart" && $0["add_to_siri"]?["donation"]?.stringValue == identifier }, "\(suggested)")
        // The cart gone: the activity's persistent identifier deletes the donation.
        #expect(try client.send("CompletionIntent", parameters: ["mode": "forget"]) { _ in nil }.body["dialog"] == "Ergebnis: vergessen.")
        let after = try donations(client) { !$0.contains { $0["identifier"]?.stringValue == identifier } }
        #expect(!after.contains { $0["identifier"]?.stringValue == identifier }, "\(after)")
    }

    @Test("INInteraction.delete(with: group) removes that group's donations, deleteAll the plugin's")
    func interactionDeletion() throws {
        let host = try TestHost(TestManifest(.siriKitTest()))
        defer { host.stop() }
        let client = try host.client()
        _ = try client.send("CompletionIntent", parameters: ["mode": "interaction"]) { _ in nil }
        _ = try client.send("CompletionIntent", parameters: ["mode": "donate"]) { _ in nil }
        let both = try donations(client) { list in ["completion-interaction", "completion-once"].allSatisfy { id in list.contains { $0["identifier"]?.stringValue == id } } }
        #expect(both.contains { $0["identifier"] == "completion-interaction" })
        #expect(try client.send("CompletionIntent", parameters: ["mode": "forget-group"]) { _ in nil }.body["dialog"] == "Ergebnis: vergessen.")
        let grouped = try donations(client) { !$0.contains { $0["identifier"] == "completion-interaction" } }
        #expect(!grouped.contains { $0["identifier"] == "completion-interaction" })
        #expect(grouped.contains { $0["identifier"] == "completion-once" }, "another group's donation stays")
        #expect(try client.send("CompletionIntent", parameters: ["mode": "forget-all"]) { _ in nil }.body["dialog"] == "Ergebnis: vergessen.")
        let none = try donations(client) { !$0.contains { $0["identifier"] == "completion-once" } }
        #expect(!none.contains { $0["identifier"] == "completion-once" })
    }
}
