import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// Hot reload (docs/lifecycle.md, "Hot reload"): on SIGHUP, `ib.reload`, or a change in
/// `plugins.d/`, the manifest is read again and only the plugins whose entries changed
/// are started, stopped or restarted (the fleet's part: Fleet/PluginFleet+Reload.swift).
/// Requests to the others are not touched.
extension RouterCore {
    func installReload() {
        hostIntents["ib.reload"] = .answer { [unowned self] _ in
            let report = reload(trigger: "ib.reload")
            return .success(report.json)
        }
    }

    /// Reads the manifest again and applies what changed; an invalid manifest changes
    /// nothing. Runs on the router thread: reading a few small files takes milliseconds.
    @discardableResult
    func reload(trigger: String) -> ReloadReport {
        promoteAll()  // slots, routes and limits may change under the lane's requests
        var report = ReloadReport(trigger: trigger)
        guard !draining, !stopping else {
            report.errors = ["the host is shutting down"]
            return report
        }
        let new: Manifest
        do {
            new = try ManifestLoader.load(path: manifest.path, curveAvailable: CurveKeyPair.isAvailable)
        } catch {
            report.errors = error.diagnostics.map(\.description)
            logger.error("reload (\(trigger)): \(manifest.path) has \(report.errors.count) error(s); the running configuration stays:\n\(error.description)")
            return report
        }
        // Extensions read what they need of it first (the definition files): one with
        // problems refuses the reload as an invalid manifest does.
        let problems = extensions.flatMap { $0.reloadProblems(new) }
        guard problems.isEmpty else {
            report.errors = problems
            logger.error("reload (\(trigger)): \(problems.count) error(s); the running configuration stays:\n\(problems.joined(separator: "\n"))")
            return report
        }
        report.applied = true
        report.needsRestart = new.host.changedKeys(from: manifest.host)
        report.warnings = new.warnings.map(\.description)
        let toStart = fleet.reload(new.plugins, report: &report)
        var updated = manifest
        updated.plugins = fleet.specsInForce
        updated.warnings = new.warnings
        updated.files = new.files
        manifest = updated
        for ext in extensions { ext.reloaded(updated) }
        fleet.start(toStart)
        logger.info("reload (\(trigger)): \(report.summary)")
        for key in report.needsRestart {
            logger.warning("reload (\(trigger)): \(key) changed, which takes effect only when the host restarts")
        }
        return report
    }
}
