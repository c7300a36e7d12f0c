import Foundation
import IntentBusCore
import IntentBusDefinitions

/// The rules app shortcuts are checked by, at HELLO and by `intentbus validate`
/// (docs/shortcuts.md "The rules"). Errors keep the plugin's HELLO from being accepted,
/// as App Intents' metadata extractor breaks the build; warnings are logged.
///
/// Pure value code, any thread.
enum ShortcutRules {
    /// At most this many app shortcuts per plugin (App Intents' limit per app).
    static let maximumShortcuts = 10
    /// A phrase longer than this many spoken words (the name and a slot count one) is a
    /// warning: people must say it verbatim, and long phrases get truncated (HIG).
    static let advisedMaximumWords = 8
    /// Wake words of voice assistants: a phrase must not contain one (HIG), or saying it
    /// would wake the assistant instead.
    static let wakeWords = ["hey siri", "siri", "alexa", "ok google", "hey google", "hey mycroft", "hey intentbus"]

    /// Who declares the phrases, and the names a phrase must not use.
    struct Context {
        let plugin: String
        /// The manifest `name` and `synonyms` of the plugin.
        let applicationNames: [String]
        /// Every other plugin's manifest name and synonyms, by plugin id.
        let otherPlugins: [String: [String]]
    }

    /// What checking found.
    struct Outcome {
        var phrases: [ShortcutPhrase] = []
        var errors: [String] = []
        var warnings: [String] = []
    }

    /// Checks `metadata.new_style.shortcuts` against the plugin's new-style catalog.
    static func check(newStyle section: JSON?, catalog: NewStyleCatalog, context: Context) -> Outcome {
        var out = Outcome()
        guard let raw = section?["shortcuts"], !raw.isNull else { return out }
        guard let shortcuts = raw.arrayValue else {
            out.errors.append("metadata.new_style.shortcuts must be an array of shortcuts")
            return out
        }
        if shortcuts.count > maximumShortcuts {
            out.errors.append("\(shortcuts.count) app shortcuts declared; at most \(maximumShortcuts) are allowed per plugin (App Intents' rule: an AppShortcutsProvider declares at most 10 app shortcuts)")
        }
        var seen: [String: String] = [:]
        for (i, s) in shortcuts.enumerated() {
            let at = "shortcut #\(i + 1)"
            guard let intentName = s["intent"]?.stringValue, !intentName.isEmpty else {
                out.errors.append("\(at) names no intent"); continue
            }
            guard let intent = catalog.intents[intentName] else {
                let known = catalog.intents.keys.sorted().joined(separator: ", ")
                out.errors.append("\(at): \(intentName) is not a new-style intent of this plugin (\(known.isEmpty ? "none" : known))")
                continue
            }
            let title = s["short_title"]?.stringValue ?? ""
            if title.isEmpty { out.errors.append("\(at) (\(intentName)) has no short title") }
            let phrases = s["phrases"]?.arrayValue ?? []
            if phrases.isEmpty { out.errors.append("\(at) (\(intentName)) has no phrases") }
            let conditions = contextConditions(s, parameters: intent.parameters.map(\.name))
            out.errors += conditions.problems.map { "\(at) (\(intentName)): \($0)" }
            let declared = declaredLists(s, parameters: intent.parameters.map(\.name))
            out.errors += declared.problems.map { "\(at) (\(intentName)): \($0)" }
            // The same words in other contexts are other phrases ("light on" in each room).
            let place = conditions.requires.isEmpty && conditions.excludes.isEmpty ? ""
                : " " + JSON.object(["requires": .object(conditions.requires), "excludes": .object(conditions.excludes)]).canonicalString
            for p in phrases {
                guard let text = p.stringValue else {
                    out.errors.append("\(at) (\(intentName)): a phrase must be a string, got \(p.typeName)"); continue
                }
                let template: PhraseTemplate
                do { template = try PhraseTemplate(text) } catch {
                    out.errors.append("\(at) (\(intentName)): \(error)"); continue
                }
                var slots: [String: ShortcutPhrase.Slot] = [:]
                var problems: [String] = []
                for name in template.slots {
                    guard let p = intent.parameters.first(where: { $0.name == name }) else {
                        problems.append("${\(name)} is not a parameter of \(intentName) (it has: \(intent.parameters.map(\.name).joined(separator: ", ")))")
                        continue
                    }
                    if let list = declared.lists[name] {
                        slots[name] = .list(list)  // whatever the type: the list says what fits
                    } else if let e = p.entity, p.type == .entity {
                        slots[name] = .entity(e)
                    } else if let e = p.enumName.flatMap({ catalog.enums[$0] }), p.type == .enumeration {
                        slots[name] = .enumeration(e.cases.map { .init(value: $0.value, title: $0.title, synonyms: $0.synonyms) })
                    } else {
                        problems.append("${\(name)} is a \(p.type) parameter; a slot must be an entity or enum parameter, or have a list (lists)")
                    }
                }
                if Set(template.slots).count != template.slots.count { problems.append("a parameter appears twice") }
                if !template.mentionsApplicationName && template.slots.isEmpty {
                    problems.append("contains neither ${applicationName} nor a parameter, so it would not be registered (App Intents' rule: every phrase contains \\(.applicationName) or a parameter)")
                }
                if template.hasAdjacentSlots { problems.append("two slots need words between them") }
                problems += brandProblems(template, context: context)
                let key = template.key(applicationName: context.applicationNames.first ?? context.plugin) + place
                if let first = seen[key] {
                    problems.append("repeats \"\(first)\"")
                } else {
                    seen[key] = text
                }
                if !problems.isEmpty {
                    out.errors += problems.map { "\(at) (\(intentName)) phrase \"\(text)\": \($0)" }
                    continue
                }
                out.warnings += advice(template, where: "\(at) (\(intentName)) phrase \"\(text)\"")
                out.phrases.append(ShortcutPhrase(plugin: context.plugin, intent: intentName, template: template, source: .app,
                                                  title: title, symbol: s["system_image_name"]?.stringValue, slots: slots,
                                                  requiresContext: conditions.requires, excludesContext: conditions.excludes))
            }
        }
        return out
    }

    /// Another plugin's name (or synonym) in the phrase's own words: another app's brand.
    static func brandProblems(_ template: PhraseTemplate, context: Context) -> [String] {
        let words = template.literalWords
        let own = Set(context.applicationNames.map(PhraseText.normalised))
        var problems: [String] = []
        for (other, names) in context.otherPlugins.sorted(by: { $0.key < $1.key }) {
            for name in names where !own.contains(PhraseText.normalised(name)) {
                if PhraseText.contains(words, run: PhraseText.words(name)) {
                    problems.append("names another plugin, \(other) (\"\(name)\")")
                    break
                }
            }
        }
        return problems
    }

    /// The guidelines' warnings: too long, a wake word.
    static func advice(_ template: PhraseTemplate, where place: String) -> [String] {
        var out: [String] = []
        if template.spokenLength > advisedMaximumWords {
            out.append("\(place) has \(template.spokenLength) words; keep phrases short (at most \(advisedMaximumWords)), people must say them verbatim")
        }
        let words = template.literalWords
        if let wake = wakeWords.first(where: { PhraseText.contains(words, run: PhraseText.words($0)) }) {
            out.append("\(place) contains the wake word \"\(wake)\"")
        }
        return out
    }

    /// A legacy plugin's phrases: for each intent it claims, its definition's
    /// `suggestedInvocationPhrase` and `examplePhrases`. A slot may name any parameter
    /// of the intent. A phrase with problems is left out, and the problem returned as a
    /// warning (definitions were checked when the host started; phrases are advice).
    static func legacyPhrases(plugin: String, intents: [String], definitions: DefinitionCatalog,
                              context: Context) -> Outcome {
        var out = Outcome()
        for intent in intents {
            guard let definition = definitions.definition(of: intent, plugin: plugin) else { continue }
            let texts = (definition.suggestedInvocationPhrase.map { [$0] } ?? []) + definition.examplePhrases
            var seen: Set<String> = []
            for text in texts {
                let place = "\(plugin): \(intent) phrase \"\(text)\""
                guard let template = try? PhraseTemplate(text) else {
                    out.warnings.append("\(place) has a malformed placeholder; not registered"); continue
                }
                var slots: [String: ShortcutPhrase.Slot] = [:]
                var problems: [String] = []
                for name in template.slots {
                    guard let p = definition.parameter(name) else {
                        problems.append("${\(name)} is not a parameter of \(intent)"); continue
                    }
                    if case .enumeration(let e) = p.type, let cases = definition.enums[e]?.cases {
                        slots[name] = .enumeration(cases.map { .init(value: $0.name, title: $0.displayName) })
                    } else {
                        slots[name] = .text
                    }
                }
                if Set(template.slots).count != template.slots.count { problems.append("a parameter appears twice") }
                if template.hasAdjacentSlots { problems.append("two slots need words between them") }
                problems += brandProblems(template, context: context)
                guard problems.isEmpty else {
                    out.warnings += problems.map { "\(place): \($0); not registered" }; continue
                }
                guard seen.insert(template.key(applicationName: context.applicationNames.first ?? plugin)).inserted else { continue }
                out.phrases.append(ShortcutPhrase(plugin: plugin, intent: intent, template: template, source: .legacy,
                                                  title: definition.title, symbol: nil, slots: slots))
            }
        }
        return out
    }
}
