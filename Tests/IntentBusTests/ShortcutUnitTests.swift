import Foundation
import Testing
import IntentBus
@testable import PluginHost
import IntentBusStore

/// A HELLO body for a new-style plugin with OpenProjectIntent (entity `project`, string
/// `note`), ShowCartAppIntent (enum `currency`), and these shortcuts.
private func hello(_ shortcuts: JSON) -> JSON {
    let intents: JSON = [
        ["identifier": "OpenProjectIntent", "title": "Open project", "parameters": [
            ["name": "project", "title": "Project", "type": "entity", "entity": "ProjectEntity"],
            ["name": "note", "title": "Note", "type": "string", "optional": true]]],
        ["identifier": "ShowCartAppIntent", "title": "Show my cart", "parameters": [
            ["name": "currency", "title": "Currency", "type": "enum", "enum": "CartCurrency", "default": "eur"]]],
    ]
    return ["plugin": "focusflow", "intents": [["name": "OpenProjectIntent", "style": "new"], ["name": "ShowCartAppIntent", "style": "new"]],
            "metadata": ["new_style": ["version": 1, "intents": intents, "shortcuts": shortcuts,
                "entities": [["name": "ProjectEntity", "type_display_name": "Project", "query": ["ids": true, "matching": true]]],
                "enums": [["name": "CartCurrency", "cases": [["value": "eur", "title": "Euro"], ["value": "usd", "title": "US dollar"]]]]]]]
}

private func check(_ shortcuts: JSON) -> (errors: [String], warnings: [String]) {
    ShortcutValidation.check(hello: hello(shortcuts), plugin: "focusflow", names: ["FocusFlow", "Focus Flow"],
                             others: ["cart": ["Cart"], "balance": ["FONIC Guthaben", "FONIC"]])
}

private func shortcut(_ phrases: [String], title: String = "Open") -> JSON {
    shortcut("OpenProjectIntent", phrases, title: title)
}

private func shortcut(_ intent: String, _ phrases: [String], title: String = "Open") -> JSON {
    ["intent": .string(intent), "phrases": .array(phrases.map { .string($0) }), "short_title": .string(title)]
}

@Suite("Shortcuts: phrases, rules, matching")
struct ShortcutUnitTests {
    @Test("normalising: case, diacritics, punctuation and whitespace don't count; ß is ss")
    func normalise() {
        #expect(PhraseText.normalised("  Öffne „Website“ in   FocusFlow!! ") == "offne website in focusflow")
        #expect(PhraseText.normalised("Straße") == "strasse")
        #expect(PhraseText.normalised("What's in my cart?") == "what s in my cart")
        #expect(PhraseText.tokens("Café Müller, bitte").map(\.key) == ["cafe", "muller", "bitte"])
    }

    @Test("templates: placeholders parsed, malformed ones refused")
    func templates() throws {
        let t = try PhraseTemplate("Öffne ${project} in ${applicationName}")
        #expect(t.slots == ["project"])
        #expect(t.mentionsApplicationName)
        #expect(t.key(applicationName: "FocusFlow") == "offne {} in focusflow")
        #expect(throws: PhraseTemplateError.self) { try PhraseTemplate("Open ${project in it") }
        #expect(throws: PhraseTemplateError.self) { try PhraseTemplate("Open ${} now") }
    }

    @Test("a valid declaration passes with no errors")
    func valid() {
        let r = check([shortcut(["Öffne ${project} in ${applicationName}", "Open ${project}"]),
                       shortcut("ShowCartAppIntent", ["Show my money in ${currency}"])])
        #expect(r.errors.isEmpty)
        #expect(r.warnings.isEmpty)
    }

    @Test("each rule has its error", arguments: [
        (shortcut(["Open the project"]), "neither ${applicationName} nor a parameter"),
        (shortcut(["Open ${note} in ${applicationName}"]), "a slot must be an entity or enum parameter"),
        (shortcut(["Open ${nothing} in ${applicationName}"]), "is not a parameter of OpenProjectIntent"),
        (shortcut(["Open ${project} in Cart"]), "names another plugin, cart"),
        (shortcut(["Wie viel Guthaben bei FONIC für ${project}"]), "names another plugin, balance"),
        (shortcut(["Open ${project}", "open  ${project}!"]), "repeats \"Open ${project}\""),
        (shortcut("NoSuchIntent", ["Run ${applicationName}"]), "is not a new-style intent of this plugin"),
        (shortcut([]), "has no phrases"),
        (shortcut(["Open ${project} in ${applicationName}"], title: ""), "has no short title"),
        (shortcut(["Open ${project in ${applicationName}"]), "is not a placeholder"),
        (shortcut(["Open ${project"]), "without a closing"),
        (shortcut("ShowCartAppIntent", ["Show ${currency}${currency} now"]), "a parameter appears twice"),
    ])
    func rule(declaration: JSON, expected: String) {
        let r = check([declaration])
        #expect(r.errors.contains { $0.contains(expected) }, "errors: \(r.errors)")
    }

    @Test("more than 10 shortcuts is an error")
    func tooMany() {
        let r = check(.array((0..<11).map { i in shortcut(["Open ${project} number \(i)"]) }))
        #expect(r.errors.contains { $0.contains("11 app shortcuts declared; at most 10") })
        #expect(check(.array((0..<10).map { i in shortcut(["Open ${project} number \(i)"]) })).errors.isEmpty)
    }

    @Test("the guidelines' warnings: too long, a wake word")
    func warnings() {
        let long = check([shortcut(["Please would you be so kind as to open ${project} in ${applicationName}"])])
        #expect(long.errors.isEmpty)
        #expect(long.warnings.contains { $0.contains("keep phrases short") })
        let wake = check([shortcut(["Hey Siri open ${project}"])])
        #expect(wake.warnings.contains { $0.contains("wake word \"hey siri\"") })
    }

    @Test("matching: slots by entity text and enum display name, the name by a synonym")
    func matching() throws {
        let r = ShortcutRules.check(newStyle: hello([shortcut(["Öffne ${project} in ${applicationName}"]),
                                                     shortcut("ShowCartAppIntent", ["Zeig mein Geld in ${currency}"])])["metadata"]?["new_style"],
                                    catalog: NewStyleCatalog.parse(hello: hello([])).0,
                                    context: .init(plugin: "focusflow", applicationNames: ["FocusFlow", "Focus Flow"], otherPlugins: [:]))
        #expect(r.errors.isEmpty)
        let open = try #require(r.phrases.first { $0.intent == "OpenProjectIntent" })
        let names = ["FocusFlow", "Focus Flow"]
        let m = PhraseMatcher(open.template, applicationNames: names, slots: open.slots).match("öffne Garden Shed in Focus Flow!")
        #expect(m?.captures == ["project": "Garden Shed"])
        #expect(open.value(for: "project", said: "Garden Shed") == ["text": "Garden Shed"])
        #expect(PhraseMatcher(open.template, applicationNames: names, slots: open.slots).match("öffne in FocusFlow") == nil)

        let cart = try #require(r.phrases.first { $0.intent == "ShowCartAppIntent" })
        let cartMatcher = PhraseMatcher(cart.template, applicationNames: names, slots: cart.slots)
        let usd = cartMatcher.match("Zeig mein Geld in US-Dollar")
        #expect(usd.flatMap { cart.value(for: "currency", said: $0.captures["currency"]!) } == "usd")
        #expect(cartMatcher.match("Zeig mein Geld in Yen") == nil)
        #expect(cart.said(with: ["currency": "usd"], applicationName: "Cart") == "Zeig mein Geld in US dollar")
    }

    @Test("a phrase with many slots against long hostile text gives up within its step budget")
    func matcherBudget() throws {
        let template = try PhraseTemplate("${a} x ${b} x ${c} x ${d} y")
        let text = Array(repeating: "x", count: 100).joined(separator: " ")
        let started = Date()
        let matcher = PhraseMatcher(template, applicationNames: [])
        #expect(matcher.match(text) == nil)
        #expect(matcher.match(Array(repeating: "x", count: 60).joined(separator: " ")) == nil)
        #expect(Date().timeIntervalSince(started) < 2)
        // A reasonable text still matches.
        #expect(matcher.match("one x two x three x four y")?.captures["d"] == "four")
    }

    @Test("phrases may be sentence templates: alternatives, optionals, and bad syntax is refused")
    func templatePhrases() throws {
        let template = try PhraseTemplate("(open|show) ${project} [in ${applicationName}] [please]")
        let matcher = PhraseMatcher(template, applicationNames: ["FocusFlow", "Focus Flow"])
        #expect(matcher.match("show the website in focus flow")?.captures == ["project": "the website"])
        #expect(matcher.match("open garden shed please")?.captures == ["project": "garden shed"])
        #expect(matcher.match("close garden shed") == nil)
        #expect(throws: PhraseTemplateError.self) { try PhraseTemplate("(open|show ${project}") }
        #expect(throws: PhraseTemplateError.self) { try PhraseTemplate("open {project}") }
    }

    @Test("a shortcut's requires_context and excludes_context: checked at HELLO, then the phrase matches only in such a context")
    func contextConditions() throws {
        func with(_ conditions: [String: JSON], _ phrases: [String] = ["Zeig mein Geld in ${currency}"]) -> JSON {
            guard case .object(var o) = shortcut("ShowCartAppIntent", phrases) else { return .null }
            o.merge(conditions) { _, new in new }
            return .object(o)
        }
        for (conditions, expected): ([String: JSON], String) in [
            (["requires_context": "Kitchen"], "requires_context must be an object"),
            (["requires_context": ["area": ["a": 1]]], "unknown key a"),
            (["requires_context": ["area": ["slot": "room"]]], "slot room is not a parameter"),
            (["requires_context": ["area": []]], "must list 1 to 50 values"),
            (["requires_context": ["area": [["x"]]]], "values are strings, numbers or booleans"),
            (["excludes_context": ["area": .null]], "null excludes nothing"),
            (["excludes_context": ["area": ["value": "x"]]], "must be a string, a number, a boolean, null or a list"),
        ] {
            let r = check([with(conditions)])
            #expect(r.errors.contains { $0.contains(expected) }, "\(conditions): \(r.errors)")
        }
        // The same words in two contexts are two phrases, not a repeat.
        let kitchen = with(["requires_context": ["area": ["Kitchen", "Küche"], "currency": ["slot": true]]],
                           ["Zeig mein Geld in ${currency}", "Zeig mein Geld hier in ${applicationName}"])
        let office = with(["requires_context": ["area": "Office"], "excludes_context": ["muted": true]],
                          ["Zeig mein Geld in ${currency}", "Zeig mein Geld in ${applicationName}"])
        let r = ShortcutRules.check(newStyle: hello([kitchen, office])["metadata"]?["new_style"],
                                    catalog: NewStyleCatalog.parse(hello: hello([])).0,
                                    context: .init(plugin: "focusflow", applicationNames: ["FocusFlow"], otherPlugins: [:]))
        #expect(r.errors.isEmpty, "\(r.errors)")
        let phrase = try #require(r.phrases.first)
        let matcher = PhraseMatcher(phrase.template, applicationNames: ["FocusFlow"], slots: phrase.slots,
                                    requiresContext: phrase.requiresContext, excludesContext: phrase.excludesContext)
        #expect(matcher.match("Zeig mein Geld in Euro") == nil)
        #expect(matcher.match("Zeig mein Geld in Euro", context: ["area": "Garage", "currency": "usd"]) == nil)
        // What was said wins over the context's copy; a phrase without the slot takes the copy.
        let m = try #require(matcher.match("Zeig mein Geld in Euro", context: ["area": "Küche", "currency": "usd"]))
        #expect(m.captures == ["currency": "Euro"] && m.values.isEmpty)
        let here = r.phrases[1]
        let hereMatcher = PhraseMatcher(here.template, applicationNames: ["FocusFlow"], slots: here.slots,
                                        requiresContext: here.requiresContext, excludesContext: here.excludesContext)
        let copied = try #require(hereMatcher.match("zeig mein geld hier in focusflow", context: ["area": "Kitchen", "currency": "usd"]))
        #expect(copied.captures.isEmpty && copied.values == ["currency": "usd"])
        #expect(hereMatcher.match("zeig mein geld hier in focusflow", context: ["area": "Kitchen"]) == nil)
        let second = try #require(r.phrases.last)
        let officeMatcher = PhraseMatcher(second.template, applicationNames: ["FocusFlow"], slots: second.slots,
                                          requiresContext: second.requiresContext, excludesContext: second.excludesContext)
        #expect(officeMatcher.match("zeig mein geld in focusflow", context: ["area": "Office"]) != nil)
        #expect(officeMatcher.match("zeig mein geld in focusflow", context: ["area": "Office", "muted": true]) == nil)
    }

    @Test("a shortcut's lists: a slot of any type takes the list's values or range; bad lists are refused")
    func declaredLists() throws {
        func with(_ lists: JSON) -> JSON {
            guard case .object(var o) = shortcut(["Notiz ${note} in ${applicationName}"]) else { return .null }
            o["lists"] = lists
            return .object(o)
        }
        for (lists, expected): (JSON, String) in [
            ("notes", "lists must be an object"),
            (["nothing": ["values": ["a"]]], "nothing is not a parameter of the intent"),
            (["note": ["values": []]], "a list's values are 1 to 1000 items"),
            (["note": ["values": [1]]], "a list value is text or"),
            (["note": ["range": ["from": 1]]], "a range needs whole numbers"),
            (["note": ["range": ["from": 1, "to": 9, "step": 0]]], "a range's step must be positive"),
            (["note": ["values": ["(open"]]], "without its closing"),
            (["note": ["kind": "x"]], "a list has \"values\", \"range\" or \"wildcard: true\""),
        ] {
            let r = check([with(lists)])
            #expect(r.errors.contains { $0.contains(expected) }, "\(lists.canonicalString): \(r.errors)")
        }
        let r = check([with(["note": ["values": ["urgent", ["in": "(later|someday)", "out": ["when": "later"]]]]])])
        #expect(r.errors.isEmpty, "\(r.errors)")
        let ranged = ShortcutRules.check(newStyle: hello([with(["note": ["range": ["from": 1, "to": 9]]])])["metadata"]?["new_style"],
                                         catalog: NewStyleCatalog.parse(hello: hello([])).0,
                                         context: .init(plugin: "focusflow", applicationNames: ["FocusFlow"], otherPlugins: [:]))
        let phrase = try #require(ranged.phrases.first)
        let matcher = PhraseMatcher(phrase.template, applicationNames: ["FocusFlow"], slots: phrase.slots)
        #expect(matcher.match("Notiz 7 in FocusFlow")?.values == ["note": 7])
        #expect(matcher.match("Notiz 12 in FocusFlow") == nil)
    }

    @Test("the request header's context: a flat object, bounded, every problem named")
    func contextHeader() {
        #expect(RequestHeaderCheck.problem(["context": ["area": "Kitchen", "volume": 7, "gain": 0.5, "muted": false]]) == nil)
        let many = JSON.object(Dictionary(uniqueKeysWithValues: (0..<17).map { ("k\($0)", JSON.int(Int64($0))) }))
        for (context, expected): (JSON, String) in [
            ("Kitchen", "must be a JSON object"),
            (many, "has 17 entries; at most 16"),
            (["": "x"], "a key must be 1 to 64 bytes"),
            ([String(repeating: "k", count: 65): "x"], "a key must be 1 to 64 bytes"),
            (["area": .string(String(repeating: "x", count: 256))], "\"area\" must be at most 255 bytes, got 256"),
            (["area": ["name": "Kitchen"]], "\"area\" must be a string, a number or a boolean, got an object"),
            (["area": .null], "\"area\" must be a string, a number or a boolean, got null"),
        ] {
            #expect(RequestHeaderCheck.problem(["context": context])?.contains(expected) == true,
                    "\(context.canonicalString.prefix(60)): \(RequestHeaderCheck.problem(["context": context]) ?? "nil")")
        }
    }

    @Test("the Swift SDK writes phrases with placeholders: \\(.applicationName) and \\(\\.$parameter) key paths")
    func sdk() {
        let phrase: AppShortcutPhrase<PhraseTestIntent> = "Öffne \(\.$project) in \(.applicationName)"
        #expect(phrase.text == "Öffne ${project} in ${applicationName}")
        let shortcut = AppShortcut(intent: PhraseTestIntent(), phrases: [phrase, "\(.applicationName) \(\.$mood)"],
                                   shortTitle: "Öffnen", systemImageName: "folder")
        #expect(shortcut.intent == "PhraseTestIntent")
        #expect(shortcut.phrases == ["Öffne ${project} in ${applicationName}", "${applicationName} ${mood}"])
        #expect(DonationDeletion.group("old").json == ["group": "old"])
    }
}

/// An intent whose parameters the phrase test names by key path.
private struct PhraseTestIntent: AppIntent {
    static let title: LocalizedStringResource = "Phrase test"
    @Parameter(title: "Mood") var mood: String
    @Parameter(title: "Project") var project: String
    func perform() async throws -> some IntentResult { .result() }
}

@Suite("Donation scan of a plain REPLY header")
struct DonationScanTests {
    @Test("finds donation anywhere in the header, and nothing in headers without it")
    func scan() {
        #expect(ShortcutCenter.mentionsDonation(Frame(#"{"status":"success","donation":{"title":"x"}}"#)))
        #expect(ShortcutCenter.mentionsDonation(Frame(#"{"delete_donations":"all"}"#)))
        #expect(ShortcutCenter.mentionsDonation(Frame("donation")))
        #expect(!ShortcutCenter.mentionsDonation(Frame(#"{"status":"success"}"#)))
        #expect(!ShortcutCenter.mentionsDonation(Frame("donatio")))
        #expect(!ShortcutCenter.mentionsDonation(Frame(#"{"donatioN":1,"d_onation":2}"#)))
        #expect(!ShortcutCenter.mentionsDonation(Frame()))
    }
}
