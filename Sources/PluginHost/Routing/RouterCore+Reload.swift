import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// Hot reload (docs/lifecycle.md, "Hot reload"): on SIGHUP, `ib.reload`, or a change in
/// `plugins.d/`, the manifest is read again and only the plugins whose entries changed
/// are started, stopped or restarted. Requests to the others are not touched.
///
/// A plugin's slot keeps its index for the life of the host (exchanges and timers hold
/// it): a removed plugin's slot is retired, a new plugin gets a new slot at the end, and
/// an id that comes back takes its old slot again.
extension RouterCore {
    func installReload() {
        hostIntents["ib.reload"] = .answer { [unowned self] _ in
            let report = reload(trigger: "ib.reload")
            return .success(report.json)
        }
    }

    /// Intent → claiming plugins, from the slots in force (not retired), sorted by id so
    /// that routing never depends on declaration order.
    func rebuildRoutes() {
        routes.removeAll(keepingCapacity: true)
        disabledClaims.removeAll(keepingCapacity: true)
        for slot in slots where !slot.retired && slot.primaryIndex == nil {
            for intent in slot.spec.intentsSupported {
                if slot.spec.enabled {
                    routes[intent, default: []].append(slot.index)
                } else {
                    disabledClaims[intent, default: []].append(slot.index)
                }
            }
        }
        for key in routes.keys { routes[key]!.sort { slots[$0].spec.id < slots[$1].spec.id } }
        for key in disabledClaims.keys { disabledClaims[key]!.sort { slots[$0].spec.id < slots[$1].spec.id } }
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
        var toStart: [PluginSlot] = []
        var seen: Set<String> = []
        for spec in new.plugins {
            seen.insert(spec.id)
            apply(spec, report: &report, toStart: &toStart)
        }
        for slot in slots where !slot.retired && slot.primaryIndex == nil && !seen.contains(slot.spec.id) {
            retire(slot)
            report.removed.append(slot.spec.id)
        }
        for slot in Array(slots) where slot.primaryIndex == nil {
            syncInstances(slot, restarted: report.restarted.contains(slot.spec.id), toStart: &toStart)
        }
        rebuildRoutes()
        var updated = manifest
        updated.plugins = slots.filter { !$0.retired }.map(\.spec)
        updated.warnings = new.warnings
        updated.files = new.files
        manifest = updated
        for ext in extensions { ext.reloaded(updated) }
        for slot in toStart where slot.pid == nil { startPlugin(slot) }
        logger.info("reload (\(trigger)): \(report.summary)")
        for key in report.needsRestart {
            logger.warning("reload (\(trigger)): \(key) changed, which takes effect only when the host restarts")
        }
        return report
    }

    /// One entry of the new manifest.
    private func apply(_ spec: PluginSpec, report: inout ReloadReport, toStart: inout [PluginSlot]) {
        guard let slot = slots.first(where: { $0.spec.id == spec.id && $0.primaryIndex == nil }) else {
            if let hostKeys = cannotAdd(spec) {
                report.needsRestart.append("plugins[\(spec.id)] (new, with \(hostKeys))")
                return
            }
            let slot = PluginSlot(index: slots.count, spec: spec)
            slots.append(slot)  // its instances, if any: syncInstances
            report.added.append(spec.id)
            if startsEagerly(slot) { toStart.append(slot) }
            return
        }
        if slot.retired {
            if let hostKeys = cannotAdd(spec) {
                report.needsRestart.append("plugins[\(spec.id)] (added again, with \(hostKeys))")
                return
            }
            slot.life.unretire(disabledAtRunTime: false)
            replace(slot, with: spec, toStart: &toStart)
            report.added.append(spec.id)
            return
        }
        let keys = spec.changedKeys(from: slot.spec)
        let hostKeys = keys.filter(PluginSpec.hostRestartKeys.contains)
        guard hostKeys.isEmpty else {
            report.needsRestart += hostKeys.map { "plugins[\(spec.id)].\($0)" }
            return
        }
        guard keys.contains(where: PluginSpec.restartKeys.contains) else {
            slot.spec = spec  // positions, and keys that apply to the running process
            if keys.isEmpty { report.unchanged.append(spec.id) } else { report.updated.append(spec.id) }
            if case .stopped = slot.state, startsEagerly(slot) { toStart.append(slot) }  // on-demand → eager
            return
        }
        logger.info("plugin \(spec.id): \(keys.joined(separator: ", ")) changed; restarting it")
        replace(slot, with: spec, toStart: &toStart)
        report.restarted.append(spec.id)
    }

    /// What a plugin entry has that a running host can't take on: nil when it can be added.
    private func cannotAdd(_ spec: PluginSpec) -> String? {
        var keys: [String] = []
        if spec.remoteKey != nil { keys.append("remote") }
        if spec.mdpWorker { keys.append("mdp_worker") }
        return keys.isEmpty ? nil : keys.joined(separator: ", ")
    }

    /// Whether a stopped slot should start now: enabled, spawned by the host, eager, not
    /// disabled at run time.
    func startsEagerly(_ slot: PluginSlot) -> Bool {
        slot.spec.enabled && slot.spec.isSpawned && slot.spec.lifecycle.activation == .eager
            && !slot.disabledAtRunTime && slot.pid == nil
    }

    /// Gives a slot a new entry that needs a new process: the running one (if any) is
    /// stopped, its requests in flight end with a clear error, and the new one starts
    /// (eager, or requests waiting) once it has exited.
    func replace(_ slot: PluginSlot, with spec: PluginSpec, toStart: inout [PluginSlot]) {
        slot.spec = spec
        let again = spec.lifecycle.activation == .eager || !slot.waiting.isEmpty
        let (actions, startable) = slot.life.replaced(enabled: spec.enabled, again: again)
        perform(actions, slot)
        if startable, startsEagerly(slot) || !slot.waiting.isEmpty { toStart.append(slot) }
    }

    /// A plugin gone from the manifest: its requests end now with a clear error (they
    /// are not drained: its process is being stopped), and it is stopped and forgotten.
    func retire(_ slot: PluginSlot) {
        let id = slot.spec.id
        logger.info(slot.primaryIndex == nil ? "plugin \(id) is no longer in the manifest; stopping it"
                                             : "plugin \(id) has fewer instances now; stopping one (pid \(slot.pid.map(String.init) ?? "-"))")
        perform(slot.life.retire(), slot)
    }

    /// Brings `primary`'s instance slots in line with its entry: as many as `instances`
    /// asks (more are started, fewer are stopped), restarted along with it.
    private func syncInstances(_ primary: PluginSlot, restarted: Bool, toStart: inout [PluginSlot]) {
        let wanted = primary.retired ? 0 : primary.spec.instances - 1
        for (n, index) in primary.instanceSlots.enumerated() {
            let slot = slots[index]
            guard n < wanted else {
                if !slot.retired { retire(slot) }
                continue
            }
            let spec = instanceSpec(primary.spec, number: n + 1)
            if slot.retired {
                slot.life.unretire(disabledAtRunTime: primary.disabledAtRunTime)
                replace(slot, with: spec, toStart: &toStart)
            } else if restarted {
                replace(slot, with: spec, toStart: &toStart)
            } else {
                slot.spec = spec
            }
        }
        let before = primary.instanceSlots.count
        addInstanceSlots(primary)
        for index in primary.instanceSlots.dropFirst(before) where startsEagerly(slots[index]) {
            toStart.append(slots[index])
        }
    }
}
