import Foundation
import Testing
import IntentBus
import IntentBusTestSupport

/// Manifest entries for the shortcut tests: the spoken names matter here.
enum ShortcutFixtures {
    static func focusFlow(data: String) -> TestManifest.Plugin {
        .focusFlow(data: data).with { $0.name = "FocusFlow"; $0.synonyms = ["Focus Flow"] }
    }

    static let balance = TestManifest.Plugin.balance().with { $0.name = "FONIC Guthaben"; $0.synonyms = ["FONIC"] }

    static let cart = TestManifest.Plugin.cart().named("Cart")

    /// The new-style test plugin declaring `shortcuts` (JSON) as given.
    static func newStyle(_ id: String = "newstyle", name: String = "Tester", shortcuts: String) -> TestManifest.Plugin {
        .newStyle(id, intents: Array(TestManifest.Plugin.newStyleIntents.dropLast()), env: ["NEWSTYLE_SHORTCUTS": shortcuts])
            .named(name).timeout(nil)
    }
}

/// Sends `ib.say` for `text`, answering prompts with `answer`; returns the reply and the
/// prompts asked.
func say(_ client: IntentClient, _ text: String, options: RequestOptions = RequestOptions(),
         answer: (Prompt) -> JSON? = { _ in nil }) throws -> (IntentReply, [Prompt]) {
    var prompts: [Prompt] = []
    let reply = try client.send("ib.say", parameters: ["text": .string(text)], options: options) { event in
        guard case .prompt(let p) = event else { return nil }
        prompts.append(p)
        return answer(p)
    }
    return (reply, prompts)
}

/// End-to-end: `ib.say` through a real host and real plugins.
@Suite("Shortcuts end to end: say", .serialized)
struct ShortcutEndToEndTests {
    @Test("say: an entity slot filled by the plugin's query, German and English phrases, a synonym, no match lists the closest")
    func sayFocusFlowAndFonic() throws {
        let data = TempDir()
        defer { data.remove() }
        let host = try TestHost(TestManifest(ShortcutFixtures.focusFlow(data: data.path), ShortcutFixtures.balance),
                                waitReady: ["focusflow", "balance"])
        defer { host.stop() }
        let client = try host.client()

        // Seed 003's German phrase; the slot's words go to the entity query as text.
        let (open, asked) = try say(client, "Öffne Garden shed in FocusFlow")
        #expect(asked.isEmpty)
        #expect(open.plugin == "focusflow")
        #expect(open.body["dialog"] == "Garden shed geöffnet.")
        // "Website" matches two projects (entities(matching:)): the plugin's disambiguation prompt.
        let (website, prompts) = try say(client, "Öffne Website in Focus Flow!") { p in ["value": p.options[0]["id"] ?? .null] }
        #expect(prompts.map(\.kind) == ["disambiguation"])
        #expect(website.body["dialog"] == "Website relaunch geöffnet.")
        // The app name alone; the default length applies.
        let (start, _) = try say(client, "Starte FocusFlow")
        #expect(start.body["dialog"] == "Fokus-Session für 25 Minuten gestartet.")

        // A legacy plugin's suggestedInvocationPhrase, in German, by the synonym FONIC;
        // the response code's German format string is rendered as for any request.
        let (balance, _) = try say(client, "Wie viel Guthaben habe ich bei FONIC?")
        #expect(balance.plugin == "balance")
        #expect(balance.body["dialog"]?.stringValue?.hasPrefix("Sie haben 11,0 GB von 11,0 GB") == true)

        // What a phrase would run, without running it.
        let match = try client.control("ib.say.match", ["text": "Zeige mein FONIC-Konto"])
        #expect(match["intent"] == "StatusIntent")
        #expect(match["source"] == "legacy")
        // A phrase that is a sentence template (docs/sentences.md): FONIC's
        // "(wie viel|wieviel) [Guthaben|Geld] (hab|habe) ich [noch] [bei ${applicationName}]"
        // takes what no rigid phrase would.
        let loose = try client.control("ib.say.match", ["text": "Wieviel hab ich noch?"])
        #expect(loose["intent"] == "StatusIntent")
        let (geld, _) = try say(client, "wie viel Geld habe ich noch bei FONIC")
        #expect(geld.body["dialog"]?.stringValue?.hasPrefix("Sie haben") == true)
        #expect(busError { _ = try client.control("ib.say.match", ["text": "wieviel hab ich gestern"]) }?.code == .unknownIntent)

        let miss = busError { _ = try say(client, "opne the garden in focusflow") }
        #expect(miss?.code == .unknownIntent)
        let closest = miss?.details["closest"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(closest.first == "Öffne ${project} in FocusFlow", "closest: \(closest)")
        #expect(busError { _ = try say(client, " ?! ") }?.code == .invalidParameters)
        #expect(busError { _ = try say(client, String(repeating: "la ", count: 40)) }?.code == .invalidParameters)
        #expect(busError { _ = try client.send("ib.say", parameters: ["text": 42]) { _ in nil } }?.code == .invalidParameters)
    }

    @Test("say: an enum slot filled by a case's display name, then the usual prompt for a required parameter")
    func sayEnumDisplayName() throws {
        let host = try TestHost(TestManifest(ShortcutFixtures.cart), waitReady: ["cart"])
        defer { host.stop() }
        let client = try host.client()
        let (reply, prompts) = try say(client, "Show my cart in US dollar") { p in p.parameter == "customer" ? ["value": "ada"] : nil }
        #expect(prompts.map(\.parameter) == ["customer"])
        #expect(reply.body["dialog"] == "3 items in ada's cart, $31.64 in total.")
        let (euro, _) = try say(client, "zeig meinen Warenkorb in euro") { _ in ["value": "ada"] }
        #expect(euro.body["dialog"] == "3 items in ada's cart, €29.30 in total.")
        // "Yen" is not a case, so the enum phrase does not match; the closest are listed.
        let yen = busError { _ = try say(client, "Show my cart in Yen") }
        #expect(yen?.code == .unknownIntent)
    }

    @Test("say: a phrase of an intent two plugins claim leads to the usual plugin-choice prompt")
    func sayChoice() throws {
        let dir = TempDir()
        let definitions = dir.write("shared.yaml", """
        intents:
          - name: SharedIntent
            examplePhrases: ["Run the shared test"]
        """)
        let plugins = TestManifest(["alpha", "beta"].map { .test($0, intents: ["SharedIntent"]).definitions([definitions]) })
        let host = try TestHost(plugins, dir: dir, waitReady: ["alpha", "beta"])
        defer { host.stop() }
        let (reply, prompts) = try say(try host.client(), "run the shared test!") { p in
            p.kind == "plugin_choice" ? ["value": "beta"] : nil
        }
        #expect(prompts.map(\.kind) == ["plugin_choice"])
        let offered = prompts.first?.options.compactMap { $0["id"]?.stringValue }
        #expect(offered == ["alpha", "beta"])
        #expect(reply.plugin == "beta")
    }

    @Test("HELLO: invalid app shortcuts are refused with the rule named; valid ones register")
    func validationAtHello() throws {
        let noSlot = #"[{"intent":"PickItemIntent","phrases":["Pick something"],"short_title":"Pick"}]"#
        let brand = #"[{"intent":"PickItemIntent","phrases":["Pick ${item} with Cart"],"short_title":"Pick"}]"#
        let wrongType = #"[{"intent":"RequiredIntent","phrases":["Greet ${name} with ${applicationName}"],"short_title":"Greet"}]"#
        let valid = #"[{"intent":"PickItemIntent","phrases":["Pick ${item} with ${applicationName}"],"short_title":"Pick"},{"intent":"QuestionsIntent","phrases":["Ask ${ask}"],"short_title":"Ask"}]"#
        let host = try TestHost(TestManifest(
            ShortcutFixtures.newStyle("noslot", shortcuts: noSlot),
            ShortcutFixtures.newStyle("brand", shortcuts: brand),
            ShortcutFixtures.newStyle("wrongtype", shortcuts: wrongType),
            ShortcutFixtures.newStyle("good", shortcuts: valid),
            ShortcutFixtures.cart))
        defer { host.stop() }
        let reasons = try ["noslot", "brand", "wrongtype"].map { id in
            try host.waitForPlugin(id, state: "failed")["reason"]?.stringValue ?? ""
        }
        #expect(reasons[0].contains("neither ${applicationName} nor a parameter"), "\(reasons[0])")
        #expect(reasons[1].contains("names another plugin, cart"), "\(reasons[1])")
        #expect(reasons[2].contains("a slot must be an entity or enum parameter"), "\(reasons[2])")
        try host.waitForPlugin("good", state: "ready")
        let client = try host.client()
        // Both kinds of slot: an entity by the plugin's string query, an enum by a display name.
        let (picked, _) = try say(client, "pick apri with tester")
        #expect(picked.body["dialog"] == "You picked Apricot.")
        let match = try client.control("ib.say.match", ["text": "Ask Confirm the intent"])
        #expect(match["parameters"]?["ask"] == "confirm_intent")
    }

    @Test("intentbus validate checks app shortcuts before the host does")
    func validateCommand() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let bad = #"[{"intent":"PickItemIntent","phrases":["Pick something"],"short_title":"Pick"}]"#
        let manifest = dir.write("plugins.yaml", TestManifest(ShortcutFixtures.newStyle(shortcuts: bad), ShortcutFixtures.cart).yaml)
        let failed = runCommand(Products.path("intentbus"), ["validate", "--config", manifest, "newstyle"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("neither ${applicationName} nor a parameter"), "\(failed.stderr)")
        let ok = runCommand(Products.path("intentbus"), ["validate", "--config", manifest, "cart"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.contains("shortcut ShowCartAppIntent \"Show my cart\""))
    }

    @Test("a phrase repeating another plugin's for another intent: a warning at HELLO and from validate; saying it asks to be specific")
    func repeatedPhrase() throws {
        let dir = TempDir()
        let definitions = dir.write("pick.yaml", """
        intents:
          - name: SharedIntent
            examplePhrases: ["Pick ${item} now"]
            parameters:
              - {name: item, type: String}
        """)
        let shortcuts = #"[{"intent":"PickItemIntent","phrases":["Pick ${item} now"],"short_title":"Pick"}]"#
        let plugins = TestManifest(.test("alpha", intents: ["SharedIntent"]).definitions([definitions]),
                                   ShortcutFixtures.newStyle(shortcuts: shortcuts))
        let manifest = dir.write("check.yaml", plugins.yaml)
        let checked = runCommand(Products.path("intentbus"), ["validate", "--config", manifest, "newstyle"])
        #expect(checked.status == 0, "a repeat is a warning: \(checked.stderr)")
        #expect(checked.stderr.contains("repeats plugin alpha's phrase for SharedIntent"), "\(checked.stderr)")

        let host = try TestHost(plugins, dir: dir, waitReady: ["alpha", "newstyle"])
        defer { host.stop() }
        #expect(host.logEventually(contains: "repeats plugin alpha's phrase for SharedIntent"))
        let ambiguous = busError { _ = try say(try host.client(), "pick apple now") }
        #expect(ambiguous?.code == .choiceRequired)
        let intents = ambiguous?.details["candidates"]?.arrayValue?.compactMap { $0["intent"]?.stringValue }.sorted()
        #expect(intents == ["PickItemIntent", "SharedIntent"])
    }
}
