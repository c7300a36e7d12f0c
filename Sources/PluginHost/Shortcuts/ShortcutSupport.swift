import Foundation
import IntentBusCore
import IntentBusManifest
import IntentBusDefinitions

/// Installs shortcuts into a host (docs/shortcuts.md): app shortcuts checked at HELLO,
/// legacy phrases from the definitions, the store of user phrases and donations, and
/// the host intents `ib.say`, `ib.say.match`, `ib.shortcuts.*`, `ib.donate`,
/// `ib.donations.*` and `ib.suggestions`.
package enum ShortcutSupport {
    /// Called by `IntentHost` before routing starts, after `NewStyleSupport.install`
    /// (its metadata check runs first).
    package static func install(_ hooks: IntentRouterHooks, definitions: DefinitionBook) {
        let manifest = hooks.manifest
        let center = ShortcutCenter(view: hooks.view, stateDirectory: manifest.host.stateDirectory,
                                    state: manifest.host.state, definitions: definitions)
        center.registerLegacyPhrases(manifest)
        // After NewStyleSupport: its metadata check runs first (the router checks in order).
        hooks.add(center)
    }
}

/// The app-shortcut checks, for `intentbus validate` (the host applies the same at
/// HELLO, plus the repeats of other plugins' phrases).
package enum ShortcutValidation {
    /// Errors and warnings for a HELLO body's app shortcuts, for plugin `plugin` named
    /// `names` (manifest name and synonyms) among `others` (plugin id → names).
    package static func check(hello: JSON, plugin: String, names: [String], others: [String: [String]]) -> (errors: [String], warnings: [String]) {
        let (catalog, _) = NewStyleCatalog.parse(hello: hello)
        let outcome = ShortcutRules.check(newStyle: hello["metadata"]?["new_style"], catalog: catalog,
                                          context: .init(plugin: plugin, applicationNames: names, otherPlugins: others))
        return (outcome.errors, outcome.warnings)
    }

    /// The plugin's app phrases that repeat another plugin's legacy phrase for another
    /// intent (the host warns about them at HELLO; app phrases of other new-style
    /// plugins are only known at their HELLO).
    package static func repeats(hello: JSON, plugin: String, manifest: Manifest, definitions: DefinitionCatalog) -> [String] {
        let catalog = ShortcutCatalog(manifest: manifest)
        for spec in manifest.plugins {
            catalog.setLegacy(ShortcutRules.legacyPhrases(plugin: spec.id, intents: spec.intentsSupported, definitions: definitions,
                                                          context: catalog.context(for: spec.id)).phrases, plugin: spec.id)
        }
        let (newStyle, _) = NewStyleCatalog.parse(hello: hello)
        let outcome = ShortcutRules.check(newStyle: hello["metadata"]?["new_style"], catalog: newStyle,
                                          context: catalog.context(for: plugin))
        return catalog.setApp(outcome.phrases, plugin: plugin)
    }
}
