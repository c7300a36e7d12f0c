import Foundation
import IntentBusCore
import IntentBusDefinitions

/// Installs new-style (App Intents-style) handling into a host: metadata validation at
/// HELLO, the `NewStyleFlow` for style `new`, and the `ib.entities` host intent.
package enum NewStyleSupport {
    /// The host intent that forwards entity queries to the plugin declaring the entity.
    package static let entityQueryIntent = "ib.entities"

    /// Called by `IntentHost` before routing starts. `definitions` are the legacy intent
    /// definitions: a migrated intent maps a legacy request's parameters by the types
    /// they declare.
    package static func install(_ hooks: IntentRouterHooks, definitions: DefinitionBook) {
        hooks.add(NewStyleExtension(view: hooks.view, definitions: definitions))
    }
}

/// New-style handling as a router extension.
final class NewStyleExtension: RouterExtension {
    private unowned let view: any RouterView
    private let definitions: DefinitionBook
    private let catalogs = CatalogTable()

    init(view: any RouterView, definitions: DefinitionBook) {
        self.view = view
        self.definitions = definitions
    }

    func checkHello(_ plugin: any PluginView, _ hello: JSON) -> String? {
        let (catalog, problems) = NewStyleCatalog.parse(hello: hello)
        guard problems.isEmpty else {
            catalogs.byPlugin.removeValue(forKey: plugin.spec.id)
            return "invalid new-style metadata: " + problems.joined(separator: "; ")
        }
        for legacy in catalog.migrations.keys.sorted() where !plugin.spec.intentsSupported.contains(legacy) {
            view.logger.warning("plugin \(plugin.spec.id): \(catalog.migrations[legacy]!) migrates \(legacy), but the manifest does not list \(legacy) in IntentsSupported, so no request for it reaches this plugin")
        }
        catalogs.byPlugin[plugin.spec.id] = catalog
        return nil
    }

    func flow(style: HandlerStyle, exchange: Exchange, plugin: any PluginView) -> (any ExchangeFlow)? {
        guard style == .new, let catalog = catalogs.byPlugin[plugin.spec.id],
              let (intent, legacy) = catalog.lookup(exchange.intent) else { return nil }
        let legacyDefinition = legacy.flatMap { definitions.catalog.definition(of: $0, plugin: plugin.spec.id) }
        return NewStyleFlow(intent: intent, catalog: catalog, migratedFrom: legacy, legacyDefinition: legacyDefinition,
                            access: AuthenticationPolicy.Access(host: view.manifest.host,
                                                                clientKeysRequired: view.clientKeysRequired))
    }

    /// A new-style intent whose requests the flow may forward unchanged may take the
    /// relay lane, with the flow's own checks on each body (`NewStyleLaneCheck`).
    func laneCheck(intent: String, style: HandlerStyle, plugin: any PluginView) -> (any LaneRequestCheck)? {
        guard style == .new, let catalog = catalogs.byPlugin[plugin.spec.id] else { return nil }
        return NewStyleLaneCheck.make(intent, catalog: catalog,
                                      access: AuthenticationPolicy.Access(host: view.manifest.host,
                                                                          clientKeysRequired: view.clientKeysRequired))
    }

    var hostIntents: [String: HostIntent] {
        [NewStyleSupport.entityQueryIntent: .forward { [unowned self] request in
            EntityQueryRouting.route(request, plugins: view.plugins, catalogs: catalogs)
        }]
    }
}

/// Parsed catalogs by plugin id, replaced at each accepted HELLO. Router thread only.
final class CatalogTable {
    var byPlugin: [String: NewStyleCatalog] = [:]
}

/// Picks the plugin for an `ib.entities` query (docs/protocol.md "Entity queries").
enum EntityQueryRouting {
    static let queries: Set<String> = ["ids", "suggested", "matching", "all", "property"]

    static func route(_ request: ControlRequest, plugins: [any PluginView], catalogs: CatalogTable) -> Result<ControlForward, BusError> {
        let body = request.body
        guard let entity = body["entity"]?.stringValue, !entity.isEmpty else {
            return .failure(BusError(.invalidParameters, "ib.entities needs \"entity\": the entity type's name"))
        }
        let query = body["query"]?.stringValue ?? "suggested"
        guard queries.contains(query) else {
            return .failure(BusError(.invalidParameters, "query is ids, suggested, matching, all or property; got \"\(query.prefix(40))\""))
        }
        if query == "ids", body["ids"]?.arrayValue == nil {
            return .failure(BusError(.invalidParameters, "an ids query needs \"ids\": an array of entity ids"))
        }
        if query == "matching", body["text"]?.stringValue == nil {
            return .failure(BusError(.invalidParameters, "a matching query needs \"text\""))
        }
        let named = request.options["plugin"]?.stringValue ?? body["plugin"]?.stringValue
        var seen: Set<String> = []  // a plugin with several instances has a slot per process
        let owners = plugins.filter { slot in
            catalogs.byPlugin[slot.spec.id]?.entities[entity] != nil && (named == nil || slot.spec.id == named)
                && seen.insert(slot.spec.id).inserted
        }
        guard let owner = owners.first else {
            let known = Set(catalogs.byPlugin.values.flatMap { $0.entities.keys }).sorted()
            return .failure(BusError(.unknownIntent,
                "no \(named.map { "plugin \($0)" } ?? "ready plugin") declares entity type \"\(entity)\"" +
                (known.isEmpty ? "" : " (known: \(known.joined(separator: ", ")))"),
                details: ["known_entities": .array(known.map { .string($0) })]))
        }
        if owners.count > 1 {
            return .failure(BusError(.choiceRequired,
                "\(owners.count) plugins declare entity type \(entity); name one with \"plugin\"",
                details: ["candidates": .array(owners.map { .string($0.spec.id) })]))
        }
        let decl = catalogs.byPlugin[owner.spec.id]!.entities[entity]!
        if query == "matching" && !decl.matching {
            return .failure(BusError(.invalidParameters, "\(entity) has no string query; look entities up by id or ask for suggestions"))
        }
        if query == "all" && !decl.all {
            return .failure(BusError(.invalidParameters, "\(entity) can't list all its entities; ask for suggestions"))
        }
        var forwarded: [String: JSON] = ["entity": .string(entity), "query": .string(query)]
        if query == "property" {
            guard let declared = decl.propertyQuery else {
                return .failure(BusError(.invalidParameters, "\(entity) has no property query; look entities up by id or ask for suggestions"))
            }
            switch PropertyQueryCheck.check(body, entity: entity, declared: declared, catalog: catalogs.byPlugin[owner.spec.id]!) {
            case .success(let fields): forwarded.merge(fields) { $1 }
            case .failure(let error): return .failure(error)
            }
        }
        if let ids = body["ids"] { forwarded["ids"] = ids }
        if let text = body["text"] { forwarded["text"] = text }
        return .success(ControlForward(pluginIndex: owner.index, body: .object(forwarded)))
    }
}
