import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// End-to-end: user phrases, donations and suggestions through a real host, its SQLite
/// store, real plugins, and the `intentbus` command line.
@Suite("Shortcuts end to end: user phrases, donations, suggestions", .serialized)
struct ShortcutStoreEndToEndTests {
    /// Kills the host with SIGKILL by its pid and reaps it, leaving its directory.
    private func killHard(_ host: TestHost) {
        kill(host.process.processIdentifier, SIGKILL)
        host.process.waitUntilExit()
    }

    @Test("user phrases and deletions survive the host being killed with SIGKILL")
    func surviveSigkill() throws {
        let dir = TempDir()
        let first = try TestHost(TestManifest(ShortcutFixtures.cart), dir: dir, waitReady: ["cart"])
        let client = try first.client()
        let added = try client.control("ib.shortcuts.add", ["phrase": "Warenkorb zeigen", "intent": "ShowCartIntent",
                                                            "parameters": ["customer": "ada"]])
        #expect(added["shortcut"]?["intent"] == "ShowCartIntent")
        _ = try client.control("ib.donate", ["intent": "ShowCartIntent", "parameters": ["customer": "ada"],
                                             "identifier": "cart-ada", "group": "carts"])
        _ = try client.control("ib.donate", ["intent": "AddToCartIntent", "parameters": ["customer": "ada", "item": "tea"],
                                             "identifier": "add-tea", "group": "adds"])
        #expect(try client.control("ib.donations.delete", ["group": "carts"])["removed"] == 1)
        killHard(first)

        let second = try TestHost(TestManifest(ShortcutFixtures.cart), dir: dir, waitReady: ["cart"])
        defer { second.stop() }
        let again = try second.client()
        let (reply, prompts) = try say(again, "Warenkorb zeigen")
        #expect(prompts.isEmpty, "the phrase's fixed parameter needs no question")
        #expect(reply.body["dialog"] == "3 items in ada's cart, €29.30 in total.")
        // The deleted group did not come back; the other donation is still there.
        let donations = try again.control("ib.donations.list")["donations"]?.arrayValue ?? []
        #expect(!donations.contains { $0["identifier"] == "cart-ada" })
        #expect(donations.contains { $0["identifier"] == "add-tea" })
    }

    @Test("user phrases: matched before app phrases, refused when taken (owner named), edited and deleted")
    func userPhraseRules() throws {
        let data = TempDir()
        defer { data.remove() }
        let host = try TestHost(TestManifest(ShortcutFixtures.cart, ShortcutFixtures.focusFlow(data: data.path)),
                                waitReady: ["cart", "focusflow"])
        defer { host.stop() }
        let client = try host.client()
        // Taken by FocusFlow's phrase for another intent: refused, naming the owner.
        let taken = busError { _ = try client.control("ib.shortcuts.add", ["phrase": "Starte FocusFlow", "intent": "ShowCartIntent"]) }
        #expect(taken?.message.contains("already taken by FocusFlow (plugin focusflow)") == true, "\(taken?.message ?? "")")
        #expect(taken?.details["owner"]?["intent"] == "StartFocusSessionIntent")
        // The same intent's phrase may be refined with fixed parameters; it then wins.
        _ = try client.control("ib.shortcuts.add", ["phrase": "Show my cart", "intent": "ShowCartIntent",
                                                    "parameters": ["customer": "ada"]])
        let (mine, prompts) = try say(client, "show my cart")
        #expect(prompts.isEmpty)
        #expect(mine.body["dialog"] == "3 items in ada's cart, €29.30 in total.")
        let twice = busError { _ = try client.control("ib.shortcuts.add", ["phrase": "SHOW my cart!", "intent": "AddToCartIntent"]) }
        #expect(twice?.message.contains("already taken by the user phrase “Show my cart”") == true)
        // Unknown intent, plugin not serving it, oversized and ill-typed input.
        #expect(busError { _ = try client.control("ib.shortcuts.add", ["phrase": "x y", "intent": "NoSuchIntent"]) }?.code == .unknownIntent)
        #expect(busError { _ = try client.control("ib.shortcuts.add", ["phrase": "x y", "intent": "ShowCartIntent", "plugin": "focusflow"]) }?.code == .unknownPlugin)
        #expect(busError { _ = try client.control("ib.shortcuts.add", ["phrase": .string(String(repeating: "a", count: 201)), "intent": "ShowCartIntent"]) }?.code == .invalidParameters)
        #expect(busError { _ = try client.control("ib.shortcuts.add", ["phrase": 5, "intent": "ShowCartIntent"]) }?.code == .invalidParameters)
        #expect(busError { _ = try client.control("ib.suggestions", ["limit": 1000]) }?.code == .invalidParameters)

        let edited = try client.control("ib.shortcuts.edit", ["phrase": "show my cart", "new_phrase": "Ada's cart"])
        #expect(edited["shortcut"]?["phrase"] == "Ada's cart")
        #expect(try client.control("ib.say.match", ["text": "ada s cart"])["source"] == "user")
        _ = try client.control("ib.shortcuts.delete", ["phrase": "Ada's cart"])
        #expect(try client.control("ib.shortcuts.list")["user"]?.arrayValue?.isEmpty == true)
    }

    @Test("suggestions rank a scripted sequence of donations; the host donates what succeeds; deletion by group")
    func suggestions() throws {
        let host = try TestHost(TestManifest(ShortcutFixtures.cart, ShortcutFixtures.balance), waitReady: ["cart", "balance"])
        defer { host.stop() }
        let client = try host.client()
        // The host donates requests that succeed through a multi-phase flow.
        for _ in 0..<3 { _ = try say(client, "Wie viel Guthaben habe ich bei FONIC") }
        // The app donates an activity with a suggested phrase, twice, and another once.
        for _ in 0..<2 {
            _ = try client.control("ib.donate", ["intent": "ShowCartIntent", "parameters": ["customer": "ada"],
                                                 "identifier": "show-my-cart", "group": "cart-ada", "title": "Show my cart",
                                                 "suggested_phrase": "Show My Cart"])
        }
        _ = try client.control("ib.donate", ["intent": "AddToCartIntent", "parameters": ["customer": "ada", "item": "tea"],
                                             "group": "cart-ada", "eligible_for_prediction": true])
        _ = try client.control("ib.donate", ["intent": "TopUpIntent", "parameters": ["amount": 15],
                                             "eligible_for_prediction": false])
        let ranked = try client.control("ib.suggestions")["suggestions"]?.arrayValue ?? []
        #expect(ranked.map { $0["intent"]?.stringValue ?? "" } == ["StatusIntent", "ShowCartIntent", "AddToCartIntent"])
        #expect(ranked[0]["count"] == 3)
        #expect(ranked[0]["phrase"] == "Wie viel Guthaben habe ich bei FONIC Guthaben")
        // "Show My Cart" is the legacy phrase of ShowCartIntent without a customer: said,
        // it would not run ada's cart, so it is offered to record ("Add to Siri").
        #expect(ranked[1]["phrase"] == .null)
        #expect(ranked[1]["add_to_siri"]?["suggested_phrase"] == "Show My Cart")
        #expect(ranked[1]["add_to_siri"]?["donation"] == "show-my-cart")

        // "Add to Siri" from the donation: its suggested phrase becomes the user's phrase.
        let added = try client.control("ib.shortcuts.add", ["donation": "show-my-cart"])
        #expect(added["shortcut"]?["phrase"] == "Show My Cart")
        #expect(try client.control("ib.suggestions")["suggestions"]?.arrayValue?[1]["phrase_source"] == "user")

        // The user deletes the cart's data: the group's donations go, for good.
        #expect(try client.control("ib.donations.delete", ["group": "cart-ada"])["removed"] == 3)
        let after = try client.control("ib.suggestions")["suggestions"]?.arrayValue ?? []
        #expect(after.map { $0["intent"]?.stringValue ?? "" } == ["StatusIntent"])
        #expect(busError { _ = try client.control("ib.donations.delete", ["group": "g", "all": true]) }?.code == .invalidParameters)
    }

    @Test("the cart example from the command line: say, shortcuts add from a donation, suggestions")
    func cartCommandLine() throws {
        let host = try TestHost(TestManifest(ShortcutFixtures.cart), waitReady: ["cart"])
        defer { host.stop() }
        func ib(_ args: String...) -> CommandResult {
            runCommand(Products.path("intentbus"), args + ["--endpoint", host.frontend])
        }
        let add = ib("shortcuts", "add", "Warenkorb zeigen", "ShowCartIntent", "customer=ada")
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout.contains("“Warenkorb zeigen” → ShowCartIntent customer=ada"))
        let run = ib("say", "Warenkorb", "zeigen")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("3 items in ada's cart, €29.30 in total."))
        let donated = ib("donations", "add", "ShowCartIntent", "customer=ada", "--identifier", "show-my-cart",
                         "--title", "Show my cart", "--phrase", "Show My Cart")
        #expect(donated.status == 0, "\(donated.stderr)")
        #expect(ib("shortcuts", "add", "--donation", "show-my-cart").stdout.contains("“Show My Cart” → ShowCartIntent customer=ada"))
        let list = ib("shortcuts", "list")
        #expect(list.stdout.contains("“Show My Cart”") && list.stdout.contains("“Warenkorb zeigen”"))
        let suggestions = ib("suggestions")
        #expect(suggestions.stdout.contains("1. Show my cart  — say “Show My Cart”"), "\(suggestions.stdout)")
        let miss = ib("say", "Zeig den Korb")
        #expect(miss.status == 3)
        #expect(miss.stderr.contains("no phrase matches"))
        let taken = ib("shortcuts", "add", "Add espresso beans to my cart", "ShowCartIntent")
        #expect(taken.status == 3)
        #expect(taken.stderr.contains("already taken by Cart (plugin cart)"))
        let match = ib("say", "--match", "Show my cart in Euro")
        #expect(match.stdout.contains("(app) → ShowCartAppIntent currency=\"eur\" [cart]"), "\(match.stdout)")
        let edit = ib("shortcuts", "edit", "Warenkorb zeigen", "--phrase", "Mein Warenkorb", "customer=bob")
        #expect(edit.stdout.contains("“Mein Warenkorb” → ShowCartIntent customer=bob"), "\(edit.stdout)\(edit.stderr)")
        #expect(ib("shortcuts", "delete", "Mein Warenkorb").status == 0)
        #expect(ib("shortcuts", "delete", "Mein Warenkorb").status == 3)
        #expect(ib("donations", "list").stdout.contains("id show-my-cart"))
        #expect(ib("donations", "delete", "--identifier", "show-my-cart").stdout.contains("deleted 1 donation(s)"))
        #expect(ib("donations", "delete").status == 3, "no selector: refused by the host")
        #expect(ib("suggestions", "--limit", "0").status == 2)
    }
}

/// End-to-end: donations a plugin makes and deletes in its REPLY header.
@Suite("Shortcuts end to end: plugin donations", .serialized)
struct ShortcutPluginDonationTests {
    @Test("the cart donates seed 004's activity; Add to Siri takes its suggested phrase")
    func cartActivity() throws {
        let host = try TestHost(TestManifest(ShortcutFixtures.cart), waitReady: ["cart"])
        defer { host.stop() }
        let client = try host.client()
        let (first, prompts) = try say(client, "Show my cart") { _ in ["value": "ada"] }
        #expect(prompts.map(\.parameter) == ["customer"])
        #expect(first.body["dialog"] == "3 items in ada's cart, €29.30 in total.")
        let donations = try client.control("ib.donations.list", ["plugin": "cart"])["donations"]?.arrayValue ?? []
        let activity = try #require(donations.first)
        #expect(activity["source"] == "plugin")
        #expect(activity["identifier"] == "show-cart-ada")
        #expect(activity["suggested_phrase"] == "Show My Cart")
        #expect(activity["parameters"] == ["customer": "ada"])
        _ = try client.control("ib.shortcuts.add", ["donation": "show-cart-ada"])
        let (again, none) = try say(client, "show my cart!")
        #expect(none.isEmpty, "the recorded phrase carries customer=ada")
        #expect(again.body["dialog"] == "3 items in ada's cart, €29.30 in total.")
    }

    @Test("a plugin deletes its own donations by identifier, by group, or all; never another plugin's")
    func pluginDeletes() throws {
        let host = try TestHost(TestManifest(.test("one", intents: ["OneIntent"]), .test("two", intents: ["TwoIntent"])),
                                waitReady: ["one", "two"])
        defer { host.stop() }
        let client = try host.client()
        func send(_ intent: String, _ header: JSON) throws {
            _ = try client.send(intent, parameters: ["reply_header": header]) { _ in nil }
        }
        try send("OneIntent", ["donation": ["identifier": "a", "group": "g1", "title": "A"]])
        try send("OneIntent", ["donation": ["identifier": "b", "group": "g1"]])
        try send("OneIntent", ["donation": ["identifier": "c", "group": "g2"]])
        try send("TwoIntent", ["donation": ["identifier": "x", "group": "g1"]])
        func ids() throws -> [String] {
            (try client.control("ib.donations.list")["donations"]?.arrayValue ?? []).compactMap { $0["identifier"]?.stringValue }.sorted()
        }
        #expect(try ids() == ["a", "b", "c", "x"])
        try send("OneIntent", ["delete_donations": ["group": "g1"]])
        #expect(try ids() == ["c", "x"], "plugin two's donation in g1 stays")
        try send("OneIntent", ["delete_donations": ["identifiers": ["c"]]])
        #expect(try ids() == ["x"])
        try send("TwoIntent", ["delete_donations": ["all": true]])
        #expect(try ids().isEmpty)
        // A failed request donates nothing; an oversized donation is refused, not stored.
        _ = try? client.send("OneIntent", parameters: ["fail": true, "reply_header": ["donation": ["identifier": "f"]]]) { _ in nil }
        try send("OneIntent", ["donation": ["identifier": .string(String(repeating: "i", count: 500))]])
        #expect(try ids().isEmpty)
    }

    @Test("the host donates what succeeds, but never an intent that requires authentication")
    func noDonationForAuthenticated() throws {
        let host = try TestHost(TestManifest(ShortcutFixtures.newStyle(shortcuts: "[]"), host: .init(clientCredential: "s3cret")),
                                waitReady: ["newstyle"])
        defer { host.stop() }
        let client = try host.client()
        var authenticated = RequestOptions()
        authenticated.credential = "s3cret"
        let secret = try client.send("SecretIntent", options: authenticated) { _ in nil }
        #expect(secret.body["dialog"] == "the secret is 42")
        _ = try client.send("DefaultsIntent", parameters: ["minutes": 30]) { _ in nil }
        let donations = try client.control("ib.donations.list")["donations"]?.arrayValue ?? []
        #expect(donations.map { $0["intent"]?.stringValue ?? "" } == ["DefaultsIntent"])
        #expect(donations.first?["parameters"] == ["minutes": 30])
        #expect(donations.first?["source"] == "host")
    }
}
