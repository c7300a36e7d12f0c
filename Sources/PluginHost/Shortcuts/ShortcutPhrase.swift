import Foundation
import IntentBusCore
import IntentBusSentences

/// One phrase the host can run: an app shortcut's phrase (new-style HELLO metadata) or a
/// legacy definition's example or suggested invocation phrase.
struct ShortcutPhrase: Sendable {
    /// Where the phrase was declared.
    enum Source: String, Sendable {
        /// `metadata.new_style.shortcuts` (an `AppShortcutsProvider`).
        case app
        /// A legacy definition's `suggestedInvocationPhrase` or `examplePhrases`.
        case legacy
    }

    /// What a slot takes, and how said words become its value.
    enum Slot: Sendable {
        /// An entity parameter: the words go to the plugin's entity query as text.
        case entity(String)
        /// An enum parameter: the words must name a case (its display name or value).
        case enumeration([EnumCase])
        /// A legacy parameter: the words as text, coerced by the legacy flow.
        case text
        /// A list the shortcut declares for the parameter (`lists`, docs/shortcuts.md): the
        /// value said (its `out`, or a range's number) is the parameter's value.
        case list(SlotList)
    }

    /// One case of an enum slot.
    struct EnumCase: Sendable {
        let value: String
        let title: String
        /// Other names for the case (`DisplayRepresentation(title:synonyms:)`).
        var synonyms: [String] = []
    }

    let plugin: String
    let intent: String
    let template: PhraseTemplate
    let source: Source
    /// The app shortcut's short title, or the legacy intent's title.
    let title: String
    let symbol: String?
    let slots: [String: Slot]
    /// The shortcut's `requires_context` and `excludes_context` (docs/shortcuts.md): the
    /// phrase matches only in a request context that has the one and not the other.
    var requiresContext: [String: JSON] = [:]
    var excludesContext: [String: JSON] = [:]

    /// The parameter value for what was said in `slot`, or nil when it does not fit.
    func value(for slot: String, said: String) -> JSON? {
        switch slots[slot] {
        case .entity?: return ["text": .string(said)]
        case .enumeration(let cases)?:
            let key = PhraseText.normalised(said)
            return cases.first { c in ([c.title, c.value] + c.synonyms).contains { PhraseText.normalised($0) == key } }
                .map { .string($0.value) }
        case .text?, .list?, nil: return .string(said)
        }
    }

    /// The words to say for `parameters`: every slot filled from them (an entity by its
    /// text, an enum by its case's display name), or nil when one can't be.
    func said(with parameters: [String: JSON], applicationName: String) -> String? {
        var text = template.display(applicationName: applicationName)
        for name in template.slots {
            let value = parameters[name]
            let words: String?
            switch slots[name] {
            case .enumeration(let cases)?:
                words = value?.stringValue.flatMap { v in cases.first { $0.value == v }?.title }
            default:
                // A number or a boolean is said as written (a legacy Integer slot: "Lade 10 Euro auf").
                words = value?["text"]?.stringValue ?? value?.stringValue
                    ?? value.flatMap { v in v.intValue != nil || v.doubleValue != nil || v.boolValue != nil ? v.displayText : nil }
            }
            guard let words else { return nil }
            text = text.replacingOccurrences(of: "${\(name)}", with: words)
        }
        return text
    }

    /// The listing entry (`ib.shortcuts.list`, `intentbus shortcuts list --all`).
    func json(applicationName: String) -> JSON {
        var o: [String: JSON] = ["plugin": .string(plugin), "intent": .string(intent), "source": .string(source.rawValue),
                                 "phrase": .string(template.display(applicationName: applicationName)),
                                 "template": .string(template.text), "title": .string(title)]
        if let symbol { o["symbol"] = .string(symbol) }
        return .object(o)
    }
}
