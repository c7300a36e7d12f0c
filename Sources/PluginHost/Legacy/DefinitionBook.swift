import Foundation
import IntentBusCore
import IntentBusManifest
import IntentBusDefinitions

/// The intent definitions in force, shared by the legacy flow, the new-style
/// migrations and the legacy phrases. Loaded before the host starts; read again at each
/// reload (docs/lifecycle.md, "Hot reload"), so that a legacy plugin added in
/// `plugins.d/` with its `definitions:` is served without a host restart.
///
/// A router extension, installed before the ones that read it: at a reload it loads the
/// new manifest's definition files first, and a file with errors refuses the whole
/// reload (the running configuration stays). Router thread only.
package final class DefinitionBook: RouterExtension {
    /// The catalog in force.
    package private(set) var catalog: DefinitionCatalog
    /// The catalog a reload being applied loaded (`reloadProblems`), until `reloaded`.
    private var staged: DefinitionCatalog?
    private let logger: Logger

    package init(_ catalog: DefinitionCatalog, logger: Logger) {
        self.catalog = catalog
        self.logger = logger
    }

    func reloadProblems(_ new: Manifest) -> [String] {
        do {
            staged = try DefinitionLoader.load(manifest: new)
            return []
        } catch {
            staged = nil
            return error.diagnostics.map(\.description)
        }
    }

    func reloaded(_ new: Manifest) {
        guard let staged else { return }
        self.staged = nil
        for warning in staged.warnings where !catalog.warnings.contains(where: { $0.description == warning.description }) {
            logger.warning("\(warning)")
        }
        catalog = staged
    }
}
