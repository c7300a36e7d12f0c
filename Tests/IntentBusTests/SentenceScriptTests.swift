import IntentBus
import IntentBusSentences
import IntentBusTestSupport
import Testing

/// What the PyPI languages brought (docs/sentences.md, "Every language of the PyPI
/// package"): scripts without spaces, and list values glued to a template's word.
@Suite struct SentenceScriptTests {
    private func index(_ sentences: [String], lists: [String: SlotList]) throws -> SentenceIndex {
        var templates = IntentTemplates(lists: lists)
        templates.blocks = [IntentTemplates.Block(intent: "Intent", sentences: try sentences.map { try IntentTemplates.Sentence($0) })]
        return try SentenceIndex(templates, preferredSlot: "name")
    }

    @Test func chineseJapaneseAndThaiCharactersAreWords() throws {
        #expect(SentenceText.words("打开客厅的灯。") == ["打", "开", "客", "厅", "的", "灯"])
        #expect(SentenceText.words("打开Quaaro") == ["打", "开", "quaaro"])
        #expect(SentenceText.words("明るさを50%に") == ["明", "る", "さ", "を", "50", "%", "に"])
        let zh = try index(["[把]{area}[的]灯打开", "打开{name}"], lists: ["area": .values([SlotValue(text: "客厅")]),
                                                                    "name": .values([SlotValue(text: "Quaaro")])])
        #expect(zh.match("把客厅的灯打开").first?.values == ["area": "客厅"])
        #expect(zh.match("客厅灯打开").first?.values == ["area": "客厅"])
        #expect(zh.match("打开Quaaro").first?.values == ["name": "Quaaro"])
        #expect(zh.match("把厨房的灯打开").isEmpty)
        let th = try index(["เปิดไฟ{area}"], lists: ["area": .values([SlotValue(text: "ห้องนอน")])])
        #expect(th.match("เปิดไฟห้องนอน").first?.values == ["area": "ห้องนอน"])
    }

    @Test func combiningMarksAfterTemplateSyntax() throws {
        // "|ে" is one grapheme: the bar must still separate the alternatives.
        let bn = try index(["ঘণ্টা[(এর|ের)] টাইমার", "{area}(യിലെ|ിലെ|ലെ) ടൈമർ"], lists: ["area": .values([SlotValue(text: "Ardovar")])])
        #expect(bn.match("ঘণ্টাএর টাইমার").count == 1)
        #expect(bn.match("ঘণ্টাের টাইমার").count == 1)
        #expect(bn.match("ঘণ্টা টাইমার").count == 1)
        #expect(bn.match("Ardovarയിലെ ടൈമർ").first?.values == ["area": "Ardovar"])
    }

    @Test func listValuesGluedToTemplateWords() throws {
        let areas: SlotList = .values([SlotValue(text: "Ardovar"), SlotValue(text: "Belmi Quarto")])
        let i = try index(["utzi tenporizadore guztiak {area}n", "[ال]{area} ضوء", "avbryt {area}[ets] timern",
                           "{hours}시간[짜리] 타이머 취소", "קבע טמפ ל{hours}"],
                          lists: ["area": areas, "hours": .range(SlotRange(from: 1, to: 100))])
        #expect(i.match("utzi tenporizadore guztiak Ardovarn").first?.values == ["area": "Ardovar"])
        #expect(i.match("utzi tenporizadore guztiak Belmi Quarton").first?.values == ["area": "Belmi Quarto"])
        #expect(i.match("الArdovar ضوء").first?.values == ["area": "Ardovar"])
        #expect(i.match("avbryt Belmi Quartoets timern").first?.values == ["area": "Belmi Quarto"])
        #expect(i.match("1시간짜리 타이머 취소").first?.values["hours"]?.doubleValue == 1)
        #expect(i.match("קבע טמפ ל20").first?.values["hours"]?.doubleValue == 20)
        let tr = try index(["{area}[(n|ın)][ki] lamba"], lists: ["area": areas])
        #expect(tr.match("Ardovarınki lamba").first?.values == ["area": "Ardovar"])
        let pieces = try index(["{area} nı n ki ışık"], lists: ["area": areas])
        // Up to three template words glued after the value (the split form is more lenient
        // than hassil here: the template has spaces between them).
        #expect(pieces.match("Ardovarnınki ışık").first?.values == ["area": "Ardovar"])
        // Hostile: 64 long unknown words cost a bounded number of lookups, and match nothing.
        #expect(i.match(Array(repeating: String(repeating: "nArdovarn", count: 4), count: 64).joined(separator: " ")).isEmpty)
        // Only a list value splits off, and only with template words around it.
        #expect(i.match("utzi tenporizadore guztiak Ardovarx").isEmpty)
        #expect(i.match("utzi tenporizadore guztiak Ardon").isEmpty)
        #expect(i.match("avbryt Ardovarxyz timern").isEmpty)
    }
}
