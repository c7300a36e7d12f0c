import Testing
import IntentBus

/// The protocol's words that host, SDK and CLI share from IntentBusCore: the legacy phases,
/// the resolution kinds, the prompt kinds, the yes/no words (docs/design.md, "Modules").
@Suite("Protocol words")
struct ProtocolWordsTests {
    @Test("every ResolutionResult the SDK writes names a kind the host reads, and each kind is written")
    func resolutionKinds() {
        let results: [ResolutionResult] = [.success(1), .needsValue, .notRequired, .unsupported(reason: "tooFar"),
                                           .confirmationRequired("x"), .disambiguation([ResolutionOption(id: "a", title: "A")])]
        let kinds = results.compactMap { $0.json["result"]?.stringValue.flatMap(ResolutionKind.init(rawValue:)) }
        #expect(kinds == ResolutionKind.allCases)
        #expect(ResolutionKind(rawValue: "maybe") == nil)
        #expect(ResolutionKind.words == "success, needsValue, notRequired, unsupported, confirmationRequired, disambiguation")
    }

    @Test("the legacy phases are the words of docs/protocol.md §8: resolve, confirm, handle, and options (§8.5)")
    func legacyPhases() {
        #expect(LegacyPhase.allCases.map(\.rawValue) == ["resolve", "confirm", "handle", "options", "run"])
        #expect(LegacyPhase(rawValue: "Resolve") == nil)
    }

    @Test("the prompt kinds are the wire words of docs/protocol.md §4.4; an unknown word is no kind")
    func promptKinds() {
        #expect(PromptKind.allCases.map(\.rawValue) == ["value", "confirmation", "disambiguation", "plugin_choice"])
        #expect(PromptKind(rawValue: "pluginChoice") == nil)
        #expect(PromptKind.pluginChoice.json == "plugin_choice")
    }

    @Test("yes and no in English, German and French, in any case; anything else is no answer")
    func yesNo() {
        for word in ["yes", "Y", "true", "ja", "J", "oui", "O"] { #expect(YesNoWords.answer(word) == true, "\(word)") }
        for word in ["no", "N", "false", "nein", "NON"] { #expect(YesNoWords.answer(word) == false, "\(word)") }
        for word in ["", "maybe", "1", "jein", "yes please"] { #expect(YesNoWords.answer(word) == nil, "\(word)") }
        // No word answers both ways ("n" is no in all three).
        for (language, words) in YesNoWords.table { #expect(words.yes.isDisjoint(with: words.no), "\(language)") }
        let yes = YesNoWords.table.values.reduce(into: Set<String>()) { $0.formUnion($1.yes) }
        let no = YesNoWords.table.values.reduce(into: Set<String>()) { $0.formUnion($1.no) }
        #expect(yes.isDisjoint(with: no))
    }
}
