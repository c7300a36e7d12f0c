import Foundation
import IntentBusSentences

/// One phrase compiled as a sentence template (docs/sentences.md): `${applicationName}`
/// is a list of the plugin's names, an enum slot a list of its cases (display name or
/// value), any other slot a wildcard; the rest of the phrase may use hassil's syntax,
/// `(open|show) ${project} [in ${applicationName}]`. Pure value code, any thread.
///
/// A slot takes one or more words; among the ways a phrase matches, the one with the
/// most literal words wins, then the one whose slots took fewer words. Matching is
/// bounded by the sentence index's step budget, so hostile text gets no match, never a
/// stuck router.
struct PhraseMatcher {
    /// What a match captured: slot name → the words as said.
    struct Match: Equatable {
        var captures: [String: String]
        /// Literal and application-name characters matched: more means a more specific phrase.
        var score: Int
    }

    /// The list `${applicationName}` becomes.
    static let applicationNameList = PhraseTemplate.applicationNameToken

    private let index: SentenceIndex?
    let problem: String?

    /// Compiles `template` for a plugin called `applicationNames` (the first is its name).
    init(_ template: PhraseTemplate, applicationNames: [String], slots: [String: ShortcutPhrase.Slot] = [:]) {
        var lists: [String: SlotList] = [Self.applicationNameList: .values(applicationNames.map { SlotValue(text: $0) })]
        for name in template.slots {
            if case .enumeration(let cases)? = slots[name] {
                lists[name] = .values(cases.flatMap { [SlotValue(text: $0.title, output: .string($0.value)),
                                                       SlotValue(text: $0.value, output: .string($0.value))] })
            } else {
                lists[name] = .wildcard
            }
        }
        do {
            let sentence = try IntentTemplates.Sentence(template.sentence)
            index = try SentenceIndex(IntentTemplates(blocks: [.init(intent: "", sentences: [sentence])], lists: lists),
                                      foldDiacritics: true)
            problem = nil
        } catch {
            index = nil
            problem = error.description
        }
    }

    /// The match of `text`, or nil.
    func match(_ text: String) -> Match? {
        guard let m = index?.match(text, limit: 1).first else { return nil }
        var captures: [String: String] = [:]
        var score = m.literalCharacters
        for (name, slot) in m.slots {
            if name == Self.applicationNameList { score += slot.text.count } else { captures[name] = slot.text }
        }
        return Match(captures: captures, score: score)
    }

    /// How alike the said words and a phrase's words are (0…1), for "did you mean".
    static func similarity(_ said: [String], _ phrase: [String]) -> Double {
        let a = Set(said), b = Set(phrase)
        guard !a.isEmpty || !b.isEmpty else { return 0 }
        return Double(a.intersection(b).count) / Double(a.union(b).count)
    }
}
