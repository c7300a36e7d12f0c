import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// `ib.suggestions` offers a phrase only when saying it runs the suggestion: the
/// suggested intent with the suggested parameters; otherwise "Add to Siri". Real host,
/// real FONIC and cart plugins.
@Suite("Shortcuts end to end: every suggested phrase runs what it suggests", .serialized)
struct SuggestionPhraseTests {
    @Test("each offered phrase, said, runs the suggested intent with the suggested parameters; the rest offer Add to Siri")
    func offeredPhrasesRunTheSuggestion() throws {
        let host = try TestHost(TestManifest(ShortcutFixtures.cart, ShortcutFixtures.balance), waitReady: ["cart", "balance"])
        defer { host.stop() }
        let client = try host.client()
        // A 10 € top-up, twice: FONIC's phrase "Lade ${amount} Euro auf" says it; a
        // phrase for 15 € must not be offered for it.
        for _ in 0..<2 {
            _ = try client.control("ib.donate", ["intent": "TopUpIntent", "parameters": ["amount": 10], "plugin": "balance"])
        }
        _ = try client.control("ib.donate", ["intent": "StatusIntent", "parameters": [:], "plugin": "balance"])
        // A contract by its text: "Wechsle zum Vertrag ${contract}".
        _ = try client.control("ib.donate", ["intent": "SwitchContractIntent", "parameters": ["contract": "Oma"], "plugin": "balance"])
        // The cart's activity: its suggested phrase "Show My Cart" is the legacy phrase
        // of ShowCartIntent without a customer, so it does not run ada's cart.
        _ = try client.control("ib.donate", ["intent": "ShowCartIntent", "parameters": ["customer": "ada"],
                                             "identifier": "show-my-cart", "title": "Show my cart", "suggested_phrase": "Show My Cart"])
        // No phrase of AddToCartIntent has slots for these.
        _ = try client.control("ib.donate", ["intent": "AddToCartIntent", "parameters": ["customer": "ada", "item": "Tea"]])

        let ranked = try client.control("ib.suggestions", ["limit": 10])["suggestions"]?.arrayValue ?? []
        #expect(ranked.count == 5)
        let phrased = ranked.filter { $0["phrase"]?.stringValue != nil }
        #expect(Set(phrased.compactMap { $0["intent"]?.stringValue }) == ["TopUpIntent", "StatusIntent", "SwitchContractIntent"])
        let topUp = try #require(ranked.first { $0["intent"] == "TopUpIntent" })
        #expect(topUp["phrase"] == "Lade 10 Euro auf")

        for suggestion in phrased {
            let phrase = try #require(suggestion["phrase"]?.stringValue)
            let intent = try #require(suggestion["intent"]?.stringValue)
            var asked: [String] = []
            let (reply, _) = try say(client, phrase) { p in
                asked.append(p.kind)
                return p.kind == "confirmation" ? ["value": true] : nil
            }
            #expect(!asked.contains("value"), "“\(phrase)” left a parameter to ask for: \(asked)")
            #expect(try client.control("ib.say.match", ["text": .string(phrase)])["intent"]?.stringValue == intent)
            #expect(reply.succeeded, "“\(phrase)”: \(reply.body.canonicalString)")
            // The legacy reply echoes the parameters the plugin handled, after coercion.
            for (key, value) in suggestion["parameters"]?.objectValue ?? [:] {
                let handled = reply.body["parameters"]?[key]
                #expect(handled == value || handled?["displayString"]?.stringValue?.hasPrefix(value.displayText) == true
                        || handled?["identifier"]?.stringValue?.isEmpty == false,
                        "“\(phrase)”: \(key) is \(handled?.canonicalString ?? "missing"), suggested \(value.canonicalString)")
            }
        }

        // The others offer "Add to Siri" with no phrase: the donation's own phrase, or none.
        let cart = try #require(ranked.first { $0["intent"] == "ShowCartIntent" })
        #expect(cart["phrase"] == .null)
        #expect(cart["add_to_siri"]?["suggested_phrase"] == "Show My Cart")
        #expect(cart["add_to_siri"]?["donation"] == "show-my-cart")
        let add = try #require(ranked.first { $0["intent"] == "AddToCartIntent" })
        #expect(add["phrase"] == .null)
        #expect(add["add_to_siri"]?["suggested_phrase"] == .null)

        // The command line prints the command that records one.
        let text = runCommand(Products.path("intentbus"), ["suggestions", "--limit", "10", "--endpoint", host.frontend])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("say “Lade 10 Euro auf”"), "\(text.stdout)")
        #expect(text.stdout.contains("Add to Siri: intentbus shortcuts add --donation show-my-cart"), "\(text.stdout)")
        #expect(text.stdout.contains("Add to Siri: intentbus shortcuts add PHRASE AddToCartIntent customer=ada item=Tea"), "\(text.stdout)")
        #expect(!text.stdout.contains("Lade 15"))
    }
}
