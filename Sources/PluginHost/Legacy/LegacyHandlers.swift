import Foundation
import IntentBusCore
import IntentBusManifest
import IntentBusDefinitions

/// Wires legacy (SiriKit-style) handling into the host: loads the intent definitions
/// before anything starts, and installs the flow that drives resolve → confirm →
/// handle for every intent a plugin declares `legacy` in its HELLO.
package enum LegacyHandlers {
    /// Loads every definition file the manifest names and logs the warnings.
    ///
    /// - Throws: `HostStartError` listing every definition error as
    ///   `file:line:column: error: …`, one per line, so that `intentbus host` exits 6
    ///   without starting anything.
    package static func loadDefinitions(_ manifest: Manifest, logger: Logger) throws(HostStartError) -> DefinitionCatalog {
        let catalog: DefinitionCatalog
        do { catalog = try DefinitionLoader.load(manifest: manifest) } catch {
            let count = error.diagnostics.count
            throw HostStartError(message: "the intent definitions have \(count) error\(count == 1 ? "" : "s"):\n\(error.description)")
        }
        for warning in catalog.warnings { logger.warning("\(warning)") }
        return catalog
    }

    /// Installs the definitions (`DefinitionBook`, read again at each reload) and the
    /// legacy flow over them into the router; returns the book, for the extensions that
    /// read definitions too (installed after it).
    @discardableResult
    package static func install(_ catalog: DefinitionCatalog, into hooks: IntentRouterHooks) -> DefinitionBook {
        let book = DefinitionBook(catalog, logger: hooks.logger)
        hooks.add(book)
        hooks.add(LegacyExtension(book: book))
        return book
    }
}

/// The legacy flow as a router extension: every intent a plugin declares `legacy` runs
/// through `LegacyFlow` (or explains that its definition is missing).
final class LegacyExtension: RouterExtension {
    let book: DefinitionBook
    /// The intents each plugin (by id) announced the one-trip `run` phase for in its last
    /// HELLO (docs/protocol.md §8.9); a restarted plugin's HELLO replaces its entry.
    private var oneTrip: [String: Set<String>] = [:]

    init(book: DefinitionBook) { self.book = book }

    func checkHello(_ plugin: any PluginView, _ hello: JSON) -> String? {
        let intents = HelloIntents.phases(hello["intents"]).filter { $0.value.contains(.run) }.keys
        oneTrip[plugin.spec.id] = Set(intents)
        return nil
    }

    func flow(style: HandlerStyle, exchange: Exchange, plugin: any PluginView) -> (any ExchangeFlow)? {
        guard style == .legacy else { return nil }
        // The client's `locale` picks an `.intentdefinition`'s translation (docs/definitions.md).
        let locale = exchange.options["locale"]?.stringValue
        guard let definition = book.catalog.definition(of: exchange.intent, plugin: plugin.spec.id, locale: locale) else {
            return MissingDefinitionFlow(pluginId: plugin.spec.id)
        }
        // Run-once keys only the handle delivery (docs/protocol.md §4.10): a keyed request
        // keeps the phased flow, so that a run that stops early can't spend the key.
        let announced = oneTrip[plugin.spec.id]?.contains(exchange.intent) ?? false
        return LegacyFlow(definition: definition, pluginId: plugin.spec.id,
                          oneTrip: announced && exchange.options["run_key"] == nil)
    }

    /// A legacy intent whose plugin announced `run` for it, with a definition, may take the
    /// relay lane: its requests carry no run key there (no header but a timeout), so their
    /// flow is one-trip (`LegacyLaneCheck`).
    func laneCheck(intent: String, style: HandlerStyle, plugin: any PluginView) -> (any LaneRequestCheck)? {
        guard style == .legacy, oneTrip[plugin.spec.id]?.contains(intent) ?? false,
              let definition = book.catalog.definition(of: intent, plugin: plugin.spec.id, locale: nil) else { return nil }
        return LegacyLaneCheck(intent: intent, definition: definition, pluginId: plugin.spec.id,
                               translated: book.catalog.localized[plugin.spec.id]?[intent]?.isEmpty == false)
    }
}
