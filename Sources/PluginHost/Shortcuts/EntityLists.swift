import Foundation
import IntentBusCore
import IntentBusSentences

/// The entities a phrase slot may name, from the plugin's own entity query (docs/sentences.md,
/// "Entity lists"): an entity type whose query declares `all` is asked for all its entities
/// (`ib.entities`, query `all`), and a phrase's `${slot}` of that type matches their titles
/// and synonyms (App Intents' `updateAppShortcutParameters()`: the set a phrase parameter
/// takes is the app's entities, refreshed when they change). Entity types without `all`
/// keep the wildcard: the said words go to the plugin's `matching` query as before.
///
/// Refreshed when the plugin says HELLO (start, restart, reload), when an entry is older
/// than `refreshInterval` (checked when something is said), and when a REPLY header of the
/// plugin says `"entities_changed": true` or names the entity types. Bounded: at most
/// `maximumTypes` types a plugin, `maximumEntities` entities a type, one query open per
/// type, each given `answerTimeout`. Owned by the router thread.
struct EntityLists {
    /// Most entities kept per type; the rest of an answer is dropped (and logged).
    static let maximumEntities = 1_000
    /// Most entity types per plugin that get a list.
    static let maximumTypes = 32
    /// Most synonyms per entity, and characters per title or synonym.
    static let maximumSynonyms = 16
    static let maximumTextLength = 200
    /// An entry older than this is asked again (ns).
    static let refreshInterval: UInt64 = 300_000_000_000
    /// A query unanswered this long is given up and may be sent again (ns).
    static let answerTimeout: UInt64 = 10_000_000_000

    /// One entity type of one plugin.
    struct Key: Hashable {
        let plugin: String
        let entity: String
    }

    private struct Entry {
        /// The titles and synonyms as list values; nil until the first answer.
        var values: [SlotValue]?
        var fetchedAt: UInt64 = 0
        /// Asked again at the next chance (new HELLO, `entities_changed`).
        var stale = true
        /// The open query: its id and when it was sent.
        var asking: (id: UInt64, since: UInt64)?
    }

    private var entries: [Key: Entry] = [:]

    /// The plugin said HELLO: these are its entity types with an `all` query (the rest is
    /// forgotten); every one is asked again.
    mutating func declare(plugin: String, entities: [String]) {
        entries = entries.filter { $0.key.plugin != plugin }
        for name in entities.sorted().prefix(Self.maximumTypes) { entries[Key(plugin: plugin, entity: name)] = Entry() }
    }

    /// The plugin says its entities changed: `names` (nil for all of its types).
    mutating func changed(plugin: String, names: Set<String>?) {
        for key in entries.keys where key.plugin == plugin && (names?.contains(key.entity) ?? true) {
            entries[key]?.stale = true
        }
    }

    /// The types to ask now: stale or old ones with no query open (or one open too long,
    /// whose id is returned so that it can be forgotten).
    func due(now: UInt64) -> [(key: Key, abandoned: UInt64?)] {
        entries.compactMap { key, entry -> (key: Key, abandoned: UInt64?)? in
            if let asking = entry.asking {
                return now &- asking.since > Self.answerTimeout ? (key, asking.id) : nil
            }
            let old = entry.values != nil && now &- entry.fetchedAt > Self.refreshInterval
            return entry.stale || old ? (key, nil) : nil
        }.sorted { ($0.key.plugin, $0.key.entity) < ($1.key.plugin, $1.key.entity) }
    }

    mutating func asking(_ key: Key, id: UInt64?, now: UInt64) {
        guard entries[key] != nil else { return }
        entries[key]?.asking = id.map { ($0, now) }
        if id != nil { entries[key]?.stale = false }
    }

    /// The query `id` for `key` was answered. Returns what to log when the answer was cut
    /// or had unusable entries, and whether the list changed.
    mutating func answered(_ key: Key, id: UInt64, _ result: Result<JSON, BusError>, now: UInt64) -> (changed: Bool, problems: [String]) {
        guard let entry = entries[key], entry.asking?.id == id else { return (false, []) }
        entries[key]?.asking = nil
        switch result {
        case .failure(let error):
            return (false, ["the entity query for \(key.entity) failed: \(error.message); its phrases keep the list they had"])
        case .success(let body):
            let (values, problems) = Self.values(body["results"])
            entries[key]?.values = values
            entries[key]?.fetchedAt = now
            return (entry.values.map { Self.same($0, values) } != true, problems)
        }
    }

    /// The list for `entity` of `plugin`, or nil (not fetched yet, none, or no `all`):
    /// the slot is a wildcard then.
    func list(plugin: String, entity: String) -> SlotList? {
        guard let values = entries[Key(plugin: plugin, entity: entity)]?.values, !values.isEmpty else { return nil }
        return .values(values)
    }

    /// An `ib.entities` answer's `results` as list values: each entity's title and
    /// synonyms, said literally, giving `{"id", "title"}` (the SDKs resolve the id).
    static func values(_ results: JSON?) -> ([SlotValue], [String]) {
        guard let items = results?.arrayValue else { return ([], ["the answer has no \"results\" array"]) }
        var out: [SlotValue] = [], problems: [String] = [], skipped = 0
        for item in items.prefix(maximumEntities) {
            guard let id = item["id"]?.stringValue ?? item["id"]?.intValue.map({ String($0) }), !id.isEmpty,
                  id.utf8.count <= 255, let title = item["title"]?.stringValue,
                  !title.isEmpty, title.count <= maximumTextLength else { skipped += 1; continue }
            let output: JSON = ["id": .string(id), "title": .string(title)]
            let synonyms = (item["synonyms"]?.arrayValue ?? []).prefix(maximumSynonyms).compactMap(\.stringValue)
                .filter { !$0.isEmpty && $0.count <= maximumTextLength }
            for said in [title] + synonyms where !PhraseText.words(said).isEmpty {
                out.append(SlotValue(text: said, output: output))
            }
        }
        if skipped > 0 { problems.append("\(skipped) entities without a usable id and title (1 to \(maximumTextLength) characters) were skipped") }
        if items.count > maximumEntities { problems.append("\(items.count) entities; the first \(maximumEntities) are kept") }
        return (out, problems)
    }

    private static func same(_ a: [SlotValue], _ b: [SlotValue]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.output == $1.output && $0.input == $1.input }
    }
}
