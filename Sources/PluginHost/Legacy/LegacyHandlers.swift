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

    init(book: DefinitionBook) { self.book = book }

    func flow(style: HandlerStyle, exchange: Exchange, plugin: any PluginView) -> (any ExchangeFlow)? {
        guard style == .legacy else { return nil }
        // The client's `locale` picks an `.intentdefinition`'s translation (docs/definitions.md).
        let locale = exchange.options["locale"]?.stringValue
        guard let definition = book.catalog.definition(of: exchange.intent, plugin: plugin.spec.id, locale: locale) else {
            return MissingDefinitionFlow(pluginId: plugin.spec.id)
        }
        return LegacyFlow(definition: definition, pluginId: plugin.spec.id)
    }
}
