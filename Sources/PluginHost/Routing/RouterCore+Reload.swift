import Foundation
import IntentBusCore

/// The core's side of a hot reload (HotReload.swift; the plugins' part is the fleet's):
/// `ib.reload`, and what the reload needs of the core (`ReloadCore`).
extension RouterCore: ReloadCore {
    func installReload() {
        hostIntents["ib.reload"] = .answer { [unowned self] _ in
            let report = reload(trigger: "ib.reload")
            return .success(report.json)
        }
    }

    /// Reads the manifest again and applies what changed (`HotReload.run`).
    @discardableResult
    func reload(trigger: String) -> ReloadReport { HotReload.run(trigger: trigger, self) }
}
