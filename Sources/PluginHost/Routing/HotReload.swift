import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// What a hot reload needs of the core: the manifest in force (which it replaces), whether
/// the host is shutting down, the extensions (their problems with the new manifest, then
/// the news), the fleet (its plugins' part), and the lane's requests promoted first.
/// `RouterCore` is the one conformer (RouterCore+Reload.swift).
protocol ReloadCore: AnyObject {
    var manifest: Manifest { get set }
    var logger: Logger { get }
    var draining: Bool { get }
    var stopping: Bool { get }
    var extensions: [any RouterExtension] { get }
    var fleet: PluginFleet { get }
    func promoteAll()
}

/// Hot reload (docs/lifecycle.md, "Hot reload"): on SIGHUP, `ib.reload`, or a change in
/// `plugins.d/`, the manifest is read again and only the plugins whose entries changed
/// are started, stopped or restarted (the fleet's part: Fleet/PluginFleet+Reload.swift).
/// Requests to the others are not touched. No state of its own: the manifest in force is
/// the core's. Runs on the router thread: reading a few small files takes milliseconds.
enum HotReload {
    /// Reads the manifest again and applies what changed; an invalid manifest changes
    /// nothing.
    static func run<Core: ReloadCore>(trigger: String, _ core: Core) -> ReloadReport {
        core.promoteAll()  // slots, routes and limits may change under the lane's requests
        var report = ReloadReport(trigger: trigger)
        guard !core.draining, !core.stopping else {
            report.errors = ["the host is shutting down"]
            return report
        }
        let manifest = core.manifest, logger = core.logger
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
        let problems = core.extensions.flatMap { $0.reloadProblems(new) }
        guard problems.isEmpty else {
            report.errors = problems
            logger.error("reload (\(trigger)): \(problems.count) error(s); the running configuration stays:\n\(problems.joined(separator: "\n"))")
            return report
        }
        report.applied = true
        report.needsRestart = new.host.changedKeys(from: manifest.host)
        report.warnings = new.warnings.map(\.description)
        let toStart = core.fleet.reload(new.plugins, report: &report)
        var updated = manifest
        updated.plugins = core.fleet.specsInForce
        updated.warnings = new.warnings
        updated.files = new.files
        core.manifest = updated
        for ext in core.extensions { ext.reloaded(updated) }
        core.fleet.start(toStart)
        logger.info("reload (\(trigger)): \(report.summary)")
        for key in report.needsRestart {
            logger.warning("reload (\(trigger)): \(key) changed, which takes effect only when the host restarts")
        }
        return report
    }
}
