import IntentBus
import IntentBusSentences
import PluginHost
import IntentBusTestSupport
import Testing

/// The template engine, construct by construct, with no host: parse, compile, match.
@Suite struct SentenceTemplateTests {
    private func index(_ sentences: [String], intent: String = "Intent", lists: [String: SlotList] = [:],
                       rules: [String: String] = [:], skip: [String] = [], slots: [String: JSON] = [:],
                       requires: [String: JSON] = [:], excludes: [String: JSON] = [:]) throws -> SentenceIndex {
        var templates = IntentTemplates(lists: lists, skipWords: skip)
        for (name, text) in rules { templates.rules[name] = try IntentTemplates.Sentence(text) }
        templates.blocks = [IntentTemplates.Block(intent: intent, sentences: try sentences.map { try IntentTemplates.Sentence($0) },
                                                  slots: slots, requiresContext: requires, excludesContext: excludes)]
        return try SentenceIndex(templates)
    }

    @Test func alternativesOptionalsAndGluedWords() throws {
        let i = try index(["(turn|switch) on [the] light[s]"])
        for said in ["turn on the light", "Switch on lights!", "turn on the lights"] { #expect(i.match(said).count == 1, "\(said)") }
        #expect(i.match("turn on the lamp").isEmpty)
        #expect(i.match("turn the light on").isEmpty)
    }

    @Test func permutationsMatchInAnyOrder() throws {
        let i = try index(["(lights on; in the kitchen)"])
        #expect(i.match("lights on in the kitchen").count == 1)
        #expect(i.match("in the kitchen lights on").count == 1)
        #expect(i.match("lights in the kitchen on").isEmpty)
    }

    @Test func listsGiveTheirOutValueAndContext() throws {
        let states: SlotList = .values([SlotValue(input: try TemplateParser.parse("(closed|shut)", at: .init(file: "", line: 1, column: 1)),
                                                  output: "closed"),
                                        SlotValue(text: "open")])
        let names: SlotList = .values([SlotValue(text: "Garage Door", context: ["domain": "cover"])])
        let i = try index(["is [the] {name} {state}"], lists: ["state": states, "name": names])
        let m = try #require(i.match("is the garage door shut?").first)
        #expect(m.values == ["state": "closed", "name": "Garage Door"])
        #expect(m.context["domain"] == "cover")
        #expect(m.slots["state"]?.text == "shut")
    }

    @Test func rangesWithStepMultiplierAndFractions() throws {
        let i = try index(["set {brightness}[%| percent]", "heat to {temperature} degrees", "wait {minutes:seconds} minutes"],
                          lists: ["brightness": .range(SlotRange(from: 0, to: 100, step: 10)),
                                  "temperature": .range(SlotRange(from: 10, to: 30, fractions: .halves)),
                                  "minutes": .range(SlotRange(from: 1, to: 60, multiplier: 60))])
        #expect(i.match("set 50%").first?.values["brightness"] == 50)
        #expect(i.match("set 50 percent").first?.values["brightness"] == 50)
        #expect(i.match("set 55%").isEmpty)
        #expect(i.match("set 150%").isEmpty)
        #expect(i.match("heat to 21.5 degrees").first?.values["temperature"] == .double(21.5))
        #expect(i.match("heat to 21.3 degrees").isEmpty)
        #expect(i.match("wait 2 minutes").first?.values["seconds"] == 120)
    }

    @Test func wildcardsTakeTheWordsBetween() throws {
        let i = try index(["add {item} to [my] list", "remind me to {item}"], lists: ["item": .wildcard], skip: ["please"])
        #expect(i.match("add Oat Milk to my list").first?.values["item"] == "Oat Milk")
        #expect(i.match("please add eggs to my list").first?.values["item"] == "eggs")
        // A wildcard at the end keeps a skip word inside what is said.
        #expect(i.match("remind me to say please").first?.values["item"] == "say please")
        #expect(i.match("add to my list").isEmpty)
    }

    @Test func expansionRulesAndSkipWords() throws {
        let i = try index(["<turn> on <the> fan"], rules: ["turn": "(turn|switch)", "the": "[the|my]"], skip: ["please", "can you"])
        #expect(i.match("can you switch on my fan please").count == 1)
        #expect(i.match("turn on fan").count == 1)
    }

    @Test func fixedSlotsAndContextConditions() throws {
        let i = try index(["lights on"], slots: ["domain": "light"], requires: ["area": ["slot": true]])
        #expect(i.match("lights on").isEmpty)
        let m = try #require(i.match("lights on", context: ["area": "Kitchen"]).first)
        #expect(m.values == ["domain": "light", "area": "Kitchen"])
        let ex = try index(["lights on"], excludes: ["satellite": "garage"])
        #expect(ex.match("lights on", context: ["satellite": "garage"]).isEmpty)
        #expect(ex.match("lights on", context: ["satellite": "kitchen"]).count == 1)
    }

    @Test func moreLiteralWordsWinThenOrderIsStable() throws {
        var templates = IntentTemplates(lists: ["name": .wildcard])
        templates.blocks = [
            IntentTemplates.Block(intent: "Generic", sentences: [try .init("turn on {name}")]),
            IntentTemplates.Block(intent: "Lights", sentences: [try .init("turn on the lights")]),
        ]
        let i = try SentenceIndex(templates)
        for _ in 0..<3 { #expect(i.match("turn on the lights").map(\.intent) == ["Lights", "Generic"]) }
    }

    @Test func listsCanBeReplaced() throws {
        var i = try SentenceIndex(IntentTemplates(blocks: [.init(intent: "Open", sentences: [try .init("open {project}")])]),
                                  dynamicLists: ["project"])
        #expect(i.match("open website").isEmpty)
        try i.setList("project", .values([SlotValue(text: "Website")]))
        #expect(i.match("open website").first?.values["project"] == "Website")
        try i.setList("project", .values([SlotValue(text: "Garden shed")]))
        #expect(i.match("open website").isEmpty)
        #expect(i.match("open garden shed").first?.values["project"] == "Garden shed")
    }

    /// The compiled walk's own bookkeeping (docs/sentences.md, speed and memory): a list value
    /// said as a template that names another list comes back to the sentence after it, with
    /// both slots; a block's own list hides the shared list of that name.
    @Test func nestedListValuesAndBlockLists() throws {
        var templates = IntentTemplates(lists: [
            "color": .values([SlotValue(text: "red"), SlotValue(text: "dark blue", output: "navy")]),
            "thing": .values([SlotValue(input: try IntentTemplates.Sentence("[the] {color} (lamp|light)").expression, output: "lamp"),
                              SlotValue(text: "the fan")]),
        ])
        templates.blocks = [
            IntentTemplates.Block(intent: "On", sentences: [try .init("switch on {thing} now")]),
            IntentTemplates.Block(intent: "Paint", sentences: [try .init("paint it {color}")],
                                  lists: ["color": .values([SlotValue(text: "green")])]),
        ]
        let i = try SentenceIndex(templates)
        let m = try #require(i.match("switch on the dark blue light now").first)
        #expect(m.values == ["thing": "lamp", "color": "navy"])
        #expect(i.match("switch on red lamp now").first?.values == ["thing": "lamp", "color": "red"])
        #expect(i.match("switch on the fan now").first?.values == ["thing": "the fan"])
        #expect(i.match("switch on the dark blue light").isEmpty)
        #expect(i.match("paint it green").first?.values == ["color": "green"])
        #expect(i.match("paint it red").isEmpty)
    }

    @Test func todaysPhrasesAreTemplates() throws {
        let i = try SentenceIndex(IntentTemplates(blocks: [.init(intent: "OpenProjectIntent",
                                                                 sentences: [try .init("Öffne {project} in FocusFlow")])],
                                                  lists: ["project": .wildcard]), foldDiacritics: true)
        #expect(i.match("offne Garden shed in focusflow").first?.values["project"] == "Garden shed")
    }

    @Test func loadErrorsSayWhere() throws {
        let at = SentenceLocation(file: "x.yaml", line: 3, column: 8)
        func error(_ text: String) -> SentenceError? {
            do { _ = try TemplateParser.parse(text, at: at); return nil } catch { return error }
        }
        #expect(error("turn (on|off")?.code == .unbalanced)
        #expect(error("turn (on|off")?.location.description == "x.yaml:3:13")
        #expect(error("turn on]")?.location.column == 15)
        #expect(error("set {brightness")?.code == .unbalanced)
        #expect(error("set {}")?.code == .malformed)
        #expect(error("<turn> on") == nil)
        let unknownList = #expect(throws: SentenceError.self) {
            _ = try SentenceIndex(IntentTemplates(blocks: [.init(intent: "I", sentences: [try .init("open {nope}", at: at)])]))
        }
        #expect(unknownList?.code == .unknownList)
        #expect(unknownList?.description == "x.yaml:3:13: unknown list {nope}")
        let unknownRule = #expect(throws: SentenceError.self) {
            _ = try SentenceIndex(IntentTemplates(blocks: [.init(intent: "I", sentences: [try .init("<nope> it", at: at)])]))
        }
        #expect(unknownRule?.code == .unknownRule)
        let recursive = #expect(throws: SentenceError.self) {
            _ = try SentenceIndex(IntentTemplates(rules: ["a": try .init("x <b>", at: at), "b": try .init("(y|<a>)", at: at)]))
        }
        #expect(recursive?.code == .recursiveRule)
        #expect(recursive?.message.contains("<a> → <b> → <a>") == true)
    }

    @Test func hostileInputIsBounded() throws {
        let i = try index(["{a} {b} {c} {d} end"], lists: ["a": .wildcard, "b": .wildcard, "c": .wildcard, "d": .wildcard])
        let long = Array(repeating: "word", count: 60).joined(separator: " ")
        let clock = ContinuousClock()
        let elapsed = clock.measure { _ = i.match(long) }
        #expect(elapsed < .seconds(2))
        #expect(i.match(Array(repeating: "w", count: 500).joined(separator: " ")).isEmpty)
    }

    @Test func fileLoaderReportsTheTemplatesPosition() throws {
        let yaml = """
        language: en
        intents:
          Lights:
            data:
              - sentences:
                  - "turn on (the lights"
        """
        #expect(throws: SentenceFileLoader.LoadError.self) { _ = try SentenceFileLoader.load(text: yaml, file: "l.yaml") }
        do { _ = try SentenceFileLoader.load(text: yaml, file: "l.yaml") } catch {
            #expect(error.description == "l.yaml:6:22: \"(\" without its closing \")\"")
        }
    }
}

/// Home Assistant's own test sentences (../shared/hass-intents, CC BY 4.0): a bounded
/// pass here, the whole corpus in `make sentences`.
@Suite struct SentenceCorpusTests {
    @Test(arguments: ["en", "de"]) func boundedPass(language: String) throws {
        let root = SentenceCorpus.defaultRoot(packageRoot: Products.root)
        let corpus = try SentenceCorpus(root: root, language: language)
        #expect(corpus.cases.count > 1_000)
        let score = corpus.run(stride: 40)
        #expect(score.total > 20)
        #expect(score.percent >= 95, "\(score.misses.map(\.description))")
    }
}
