import Foundation
import IntentBusCore
import IntentBusManifest
import IntentBusSentences

/// Every phrase the host can run, by plugin: legacy phrases from the definitions (known
/// when the host starts) and app shortcuts (replaced at each accepted HELLO).
///
/// Owned by the router thread.
final class ShortcutCatalog {
    /// One way to run an intent by what was said.
    struct Candidate {
        let phrase: ShortcutPhrase
        let parameters: [String: JSON]
        let score: Int
    }

    /// Plugin id → its manifest name and synonyms (the first is the name).
    private(set) var names: [String: [String]]
    private var legacy: [String: [ShortcutPhrase]] = [:]
    private var app: [String: [ShortcutPhrase]] = [:]
    /// Each plugin's phrases compiled as sentence templates, app shortcuts first.
    private var compiled: [String: [(ShortcutPhrase, PhraseMatcher)]] = [:]
    /// Plugin id → entity type → the entities its slots take (EntityLists.swift).
    private var entityLists: [String: [String: SlotList]] = [:]

    init(manifest: Manifest) {
        names = Self.names(manifest)
    }

    private static func names(_ manifest: Manifest) -> [String: [String]] {
        var names: [String: [String]] = [:]
        for spec in manifest.plugins { names[spec.id] = [spec.name] + spec.synonyms }
        return names
    }

    /// Takes the names of `manifest`'s plugins (a reload may add, rename or remove some).
    func rename(_ manifest: Manifest) {
        names = Self.names(manifest)
    }

    /// The rule context for `plugin`: its names, and every other plugin's.
    func context(for plugin: String) -> ShortcutRules.Context {
        ShortcutRules.Context(plugin: plugin, applicationNames: names[plugin] ?? [plugin],
                              otherPlugins: names.filter { $0.key != plugin })
    }

    func applicationName(_ plugin: String) -> String { names[plugin]?.first ?? plugin }

    func setLegacy(_ phrases: [ShortcutPhrase], plugin: String) {
        legacy[plugin] = phrases
        compile(plugin)
    }

    private func compile(_ plugin: String) {
        let names = names[plugin] ?? [plugin]
        compiled[plugin] = ((app[plugin] ?? []) + (legacy[plugin] ?? [])).map { phrase in
            (phrase, PhraseMatcher(phrase.template, applicationNames: names, slots: phrase.slots,
                                   entities: entityLists[plugin] ?? [:],
                                   requiresContext: phrase.requiresContext, excludesContext: phrase.excludesContext))
        }
    }

    /// Replaces the entity lists of `plugin`'s entity slots (empty: wildcards again).
    func setEntityLists(_ lists: [String: SlotList], plugin: String) {
        if lists.isEmpty && entityLists[plugin] == nil { return }
        entityLists[plugin] = lists.isEmpty ? nil : lists
        compile(plugin)
    }

    /// The entity types `plugin`'s phrase slots take.
    func entityTypes(of plugin: String) -> Set<String> {
        var out: Set<String> = []
        for phrase in (app[plugin] ?? []) + (legacy[plugin] ?? []) {
            for case .entity(let name) in phrase.slots.values { out.insert(name) }
        }
        return out
    }

    /// Replaces `plugin`'s app shortcuts; returns a warning for each phrase that repeats
    /// another plugin's exactly for a different intent (both stay; saying it asks to be
    /// more specific).
    @discardableResult
    func setApp(_ phrases: [ShortcutPhrase], plugin: String) -> [String] {
        app[plugin] = phrases
        compile(plugin)
        return conflicts(of: plugin)
    }

    /// Every phrase, plugin by plugin (sorted by id), legacy ones after app shortcuts.
    var all: [ShortcutPhrase] {
        Set(legacy.keys).union(app.keys).sorted().flatMap { (app[$0] ?? []) + (legacy[$0] ?? []) }
    }

    /// The phrases of `plugin` that repeat another plugin's phrase for another intent.
    func conflicts(of plugin: String) -> [String] {
        let mine = (app[plugin] ?? []) + (legacy[plugin] ?? [])
        var out: [String] = []
        for p in mine {
            let key = p.template.key(applicationName: applicationName(plugin))
            for other in all where other.plugin != plugin && other.intent != p.intent
                && other.requiresContext == p.requiresContext && other.excludesContext == p.excludesContext
                && other.template.key(applicationName: applicationName(other.plugin)) == key {
                out.append("plugin \(plugin): phrase \"\(p.template.display(applicationName: applicationName(plugin)))\" (\(p.intent)) repeats plugin \(other.plugin)'s phrase for \(other.intent)")
            }
        }
        return out
    }

    /// The best-matching phrases for `text` said in `context` among `usable` plugins:
    /// every candidate with the highest score (the most words matched outside slots).
    func match(_ text: String, context: [String: JSON] = [:], usable: (ShortcutPhrase) -> Bool) -> [Candidate] {
        var found: [Candidate] = []
        for (phrase, matcher) in compiled.keys.sorted().flatMap({ compiled[$0] ?? [] }) where usable(phrase) {
            guard let m = matcher.match(text, context: context) else { continue }
            var parameters: [String: JSON] = [:]
            for (slot, said) in m.captures { parameters[slot] = phrase.value(for: slot, said: said) }
            // An enum slot's words that name no case: the phrase does not match.
            guard parameters.count == m.captures.count else { continue }
            parameters.merge(m.values) { said, _ in said }
            found.append(Candidate(phrase: phrase, parameters: parameters, score: m.score))
        }
        guard let best = found.map(\.score).max() else { return [] }
        return found.filter { $0.score == best }
    }

    /// Up to `limit` phrases closest to `text`, for an error that says what would work.
    func closest(to text: String, usable: (ShortcutPhrase) -> Bool, limit: Int = 3) -> [String] {
        let said = PhraseText.words(text)
        let scored = all.filter(usable).map { p -> (String, Double) in
            let display = p.template.display(applicationName: applicationName(p.plugin))
            return (display, PhraseMatcher.similarity(said, PhraseText.words(display)))
        }
        var seen: Set<String> = []
        return scored.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
            .filter { $0.1 > 0 && seen.insert($0.0).inserted }
            .prefix(limit).map(\.0)
    }
}
