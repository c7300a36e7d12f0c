import Foundation
import IntentBus

/// Installs shortcuts into a host (docs/shortcuts.md): app shortcuts checked at HELLO,
/// legacy phrases from the definitions, the store of user phrases and donations, and
/// the host intents `ib.say`, `ib.say.match`, `ib.shortcuts.*`, `ib.donate`,
/// `ib.donations.*` and `ib.suggestions`.
public enum ShortcutSupport {
    /// Called by `IntentHost` before routing starts, after `NewStyleSupport.install`
    /// (its metadata check runs first).
    public static func install(_ hooks: IntentRouterHooks, definitions: DefinitionCatalog) {
        let router = hooks.router
        let center = ShortcutCenter(router: router, stateDirectory: router.manifest.host.stateDirectory)
        for spec in router.manifest.plugins {
            let outcome = ShortcutRules.legacyPhrases(plugin: spec.id, intents: spec.intentsSupported, definitions: definitions,
                                                      context: center.catalog.context(for: spec.id))
            for warning in outcome.warnings { router.logger.warning(warning) }
            center.catalog.setLegacy(outcome.phrases, plugin: spec.id)
        }
        for spec in router.manifest.plugins {
            for conflict in center.catalog.conflicts(of: spec.id) { router.logger.warning(conflict) }
        }
        let previous = router.validateMetadata
        router.validateMetadata = { slot, hello in
            if let problem = previous?(slot, hello) { return problem }
            return center.checkHello(slot, hello)
        }
        router.controlHandOns["ib.say"] = { center.say($0) }
        router.controlHandlers["ib.say.match"] = { center.sayMatch($0) }
        router.controlHandlers["ib.shortcuts.list"] = { center.listShortcuts($0) }
        router.controlHandlers["ib.shortcuts.add"] = { center.addShortcut($0) }
        router.controlHandlers["ib.shortcuts.edit"] = { center.editShortcut($0) }
        router.controlHandlers["ib.shortcuts.delete"] = { center.deleteShortcut($0) }
        router.controlHandlers["ib.donate"] = { center.donate($0) }
        router.controlHandlers["ib.donations.list"] = { center.listDonations($0) }
        router.controlHandlers["ib.donations.delete"] = { center.deleteDonations($0) }
        router.controlHandlers["ib.suggestions"] = { center.suggestions($0) }
        router.flowStarting = { center.flowStarting($0) }
        router.exchangeEnded = { center.exchangeEnded($0, $1) }
    }
}

/// The app-shortcut checks, for `intentbus validate` (the host applies the same at
/// HELLO, plus the repeats of other plugins' phrases).
public enum ShortcutValidation {
    /// Errors and warnings for a HELLO body's app shortcuts, for plugin `plugin` named
    /// `names` (manifest name and synonyms) among `others` (plugin id → names).
    public static func check(hello: JSON, plugin: String, names: [String], others: [String: [String]]) -> (errors: [String], warnings: [String]) {
        let (catalog, _) = NewStyleCatalog.parse(hello: hello)
        let outcome = ShortcutRules.check(newStyle: hello["metadata"]?["new_style"], catalog: catalog,
                                          context: .init(plugin: plugin, applicationNames: names, otherPlugins: others))
        return (outcome.errors, outcome.warnings)
    }
}
