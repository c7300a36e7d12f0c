import Foundation
import IntentBusCore
import IntentBusSentences

/// One phrase compiled as a sentence template (docs/sentences.md): `${applicationName}`
/// is a list of the plugin's names, an enum slot a list of its cases (display name,
/// synonyms or value), an entity slot the plugin's entities when its query lists them all
/// (EntityLists.swift), any other slot a wildcard; the rest of the phrase may use hassil's syntax,
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
        /// Slots whose value the template gave, not the words: a declared list's value, or
        /// one copied from the request's context (`requires_context` with `slot`).
        var values: [String: JSON] = [:]
        /// Literal and application-name characters matched: more means a more specific phrase.
        var score: Int
    }

    /// The list `${applicationName}` becomes.
    static let applicationNameList = PhraseTemplate.applicationNameToken

    private let index: SentenceIndex?
    /// Slots filled from a declared list: their value is the list's, not the words.
    private let listSlots: Set<String>
    let problem: String?

    /// Compiles `template` for a plugin called `applicationNames` (the first is its name);
    /// it matches only a request whose context has what `requiresContext` asks and none of
    /// `excludesContext` (hassil's rules, docs/sentences.md).
    init(_ template: PhraseTemplate, applicationNames: [String], slots: [String: ShortcutPhrase.Slot] = [:],
         entities: [String: SlotList] = [:], requiresContext: [String: JSON] = [:], excludesContext: [String: JSON] = [:]) {
        var lists: [String: SlotList] = [Self.applicationNameList: .values(applicationNames.map { SlotValue(text: $0) })]
        var listSlots: Set<String> = []
        for name in template.slots {
            switch slots[name] {
            case .enumeration(let cases)?:
                lists[name] = .values(cases.flatMap { c in
                    ([c.title, c.value] + c.synonyms).map { SlotValue(text: $0, output: .string(c.value)) }
                })
            case .entity(let type)? where entities[type] != nil:
                lists[name] = entities[type]  // the plugin's entities, from its query
                listSlots.insert(name)
            case .list(let declared)?:
                lists[name] = declared
                listSlots.insert(name)
            default:
                lists[name] = .wildcard
            }
        }
        self.listSlots = listSlots
        do {
            let sentence = try IntentTemplates.Sentence(template.sentence)
            let block = IntentTemplates.Block(intent: "", sentences: [sentence], requiresContext: requiresContext,
                                              excludesContext: excludesContext)
            index = try SentenceIndex(IntentTemplates(blocks: [block], lists: lists), foldDiacritics: true)
            problem = nil
        } catch {
            index = nil
            problem = error.description
        }
    }

    /// The match of `text` said in `context` (the request's), or nil.
    func match(_ text: String, context: [String: JSON] = [:]) -> Match? {
        guard let m = index?.match(text, context: context, limit: 1).first else { return nil }
        var found = Match(captures: [:], score: m.literalCharacters)
        for (name, slot) in m.slots {
            if name == Self.applicationNameList {
                found.score += slot.text.count
            } else if listSlots.contains(name) || (slot.text.isEmpty && !slot.isWildcard) {
                found.values[name] = slot.value  // a declared list's value, or copied from the context
            } else {
                found.captures[name] = slot.text
            }
        }
        return found
    }

    /// How alike the said words and a phrase's words are (0…1), for "did you mean".
    static func similarity(_ said: [String], _ phrase: [String]) -> Double {
        let a = Set(said), b = Set(phrase)
        guard !a.isEmpty || !b.isEmpty else { return 0 }
        return Double(a.intersection(b).count) / Double(a.union(b).count)
    }
}
