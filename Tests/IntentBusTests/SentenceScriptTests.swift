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

    @Test func wildcardsGluedToTemplateWords() throws {
        // hassil cuts a wildcard at the letters glued to it; the said word is cut there too.
        let i = try index(["בטל את הטיימר [ש]{timer_name:name}", "{item}लाई सूचीमा राख", "سجل {item}[ال]ة"],
                          lists: ["timer_name": .wildcard, "item": .wildcard])
        #expect(i.match("בטל את הטיימר שzarbo quint").first?.values == ["name": "zarbo quint"])
        #expect(i.match("בטל את הטיימר zarbo quint").first?.values == ["name": "zarbo quint"])
        #expect(i.match("zarbo quintलाई सूचीमा राख").first?.values == ["item": "zarbo quint"])
        #expect(i.match("zarbo quint सूचीमा राख").isEmpty)
        // Only the template's affixes are cut: "quintको" stays one word of the wildcard.
        #expect(i.match("zarbo quintको सूचीमा राख").isEmpty)
        #expect(i.match("سجل zarbo quintالة").first?.values == ["item": "zarbo quint"])
    }

    @Test func templateWordsThatAreAlsoAGluedListValue() throws {
        // "الساعة" is a word of one template, and "ال" + the value "ساعة" of another.
        let hour: SlotList = .values([SlotValue(text: "ساعة", output: 1), SlotValue(text: "ساعاتين", output: 2)])
        var templates = IntentTemplates(lists: ["timer_hour": hour, "timer_name": .wildcard])
        templates.blocks = [
            IntentTemplates.Block(intent: "Named", sentences: [try IntentTemplates.Sentence("الغي المؤقت {timer_name:name}")]),
            IntentTemplates.Block(intent: "Hours", sentences: [try IntentTemplates.Sentence("الغي المؤقت [ال]{timer_hour:hours}")]),
            IntentTemplates.Block(intent: "Clock", sentences: [try IntentTemplates.Sentence("كم الساعة")]),
        ]
        let i = try SentenceIndex(templates, preferredSlot: "name")
        #expect(i.match("الغي المؤقت الساعة").first?.intent == "Hours")
        #expect(i.match("الغي المؤقت الساعة").first?.values["hours"]?.doubleValue == 1)
        #expect(i.match("الغي المؤقت ساعاتين").first?.values["hours"]?.doubleValue == 2)
        #expect(i.match("كم الساعة").first?.intent == "Clock")
        // A word that is the affix and no value stays whole (the wildcard takes it).
        #expect(i.match("الغي المؤقت الفرن").first?.intent == "Named")
    }

    @Test func longGluedRunsSpellOutAsWords() throws {
        // Turkish: 2 × 4 × 67 × 2 × 2 = 2,144 spellings of one glued run (more than the 256
        // allowed before: it compiled to separate words and "ışıklarnınki" matched nothing).
        let suffix = "[([(n|ın|in|un|ün|y|t|d|nd|nt)]ı|[(n|ın|in|un|ün|y|t|d|nd|nt)]i|[(n|ın|in|un|ün|y|t|d|nd|nt)]ü|"
            + "[(n|ın|in|un|ün|y|t|d|nd|nt)]u|[(n|ın|in|un|ün|y|t|d|nd|nt)]e|[(n|ın|in|un|ün|y|t|d|nd|nt)]a)][n][ki]"
        let i = try index(["[(bütün|tüm)] (ışık|lamba)(lar|ları|ler|leri)\(suffix) (kapa|kapat)"], lists: [:])
        #expect(i.match("bütün ışıklarnınki kapa").count == 1)
        #expect(i.match("lambaları kapat").count == 1)
        #expect(i.match("bütün ışıklar nınki kapa").isEmpty)
        #expect(i.match("bütün ışıklarxki kapa").isEmpty)
    }
}
