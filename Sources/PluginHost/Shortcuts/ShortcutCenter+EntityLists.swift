import Foundation
import IntentBusCore
import IntentBusMetadata
import IntentBusWire
import IntentBusSentences

/// Phrase slots filled from the plugin's entities (EntityLists.swift, docs/sentences.md
/// "Entity lists"): asked after HELLO, when old, and when a REPLY says they changed.
extension ShortcutCenter {
    /// The REPLY header field by which a plugin says its entities changed: `true` (all its
    /// entity types) or an array of entity type names.
    static let entitiesChangedField = ReplyHeaderKey.entitiesChanged.rawValue

    /// At HELLO: the entity types of the plugin's phrase slots whose query lists all.
    func declareEntityLists(plugin: String, phrases: [ShortcutPhrase], entities: [String: NewStyleEntity]) {
        var used: Set<String> = []
        for phrase in phrases {
            for case .entity(let name) in phrase.slots.values where entities[name]?.all == true { used.insert(name) }
        }
        entityLists.declare(plugin: plugin, entities: Array(used))
        catalog.setEntityLists([:], plugin: plugin)  // the old lists may be out of date
        guard !used.isEmpty else { return }
        soon { [weak self] in self?.refreshEntityLists() }
    }

    /// Sends the entity queries that are due (EntityLists.due).
    func refreshEntityLists() {
        let now = MonotonicClock.now()
        for (key, abandoned) in entityLists.due(now: now) {
            if let abandoned {
                logger.warning("plugin \(key.plugin): no answer to the entity query for \(key.entity) in \(EntityLists.answerTimeout / 1_000_000_000) s; asking again")
                forgetAsk(abandoned)
            }
            var sent: UInt64?
            sent = askPlugin(key.plugin, intent: NewStyleSupport.entityQueryIntent,
                             body: ["entity": .string(key.entity), "query": "all"]) { [weak self] result in
                guard let self, let sent else { return }
                self.entityListAnswered(key, id: sent, result)
            }
            entityLists.asking(key, id: sent, now: now)
        }
    }

    private func entityListAnswered(_ key: EntityLists.Key, id: UInt64, _ result: Result<JSON, BusError>) {
        let (changed, problems) = entityLists.answered(key, id: id, result, now: MonotonicClock.now())
        for problem in problems { logger.warning("plugin \(key.plugin): \(problem)") }
        guard changed else { return }
        var lists: [String: SlotList] = [:]
        for name in catalog.entityTypes(of: key.plugin) {
            if let list = entityLists.list(plugin: key.plugin, entity: name) { lists[name] = list }
        }
        catalog.setEntityLists(lists, plugin: key.plugin)
        logger.info("plugin \(key.plugin): phrases take the \(key.entity) entities it has now")
    }

    /// A REPLY's header says the plugin's entities changed: ask again.
    func noteEntitiesChanged(_ exchange: Exchange, final: WireMessage) {
        guard final.kind == .reply, Self.contains(final.header, "entities_changed"),
              let field = (try? final.headerJSON())?[Self.entitiesChangedField] else { return }
        let plugin = view.plugins[exchange.pluginIndex].spec.id
        switch field {
        case .bool(true):
            entityLists.changed(plugin: plugin, names: nil)
        case .array(let items) where items.count <= EntityLists.maximumTypes:
            entityLists.changed(plugin: plugin, names: Set(items.compactMap(\.stringValue)))
        default:
            logger.warning("plugin \(plugin): \(Self.entitiesChangedField) must be true or an array of at most \(EntityLists.maximumTypes) entity type names; ignored")
            return
        }
        refreshEntityLists()
    }
}
