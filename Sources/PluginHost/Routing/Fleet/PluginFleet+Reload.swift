import Foundation
import IntentBusCore
import IntentBusManifest

/// The plugins' part of a hot reload (docs/lifecycle.md, "Hot reload"; the manifest and
/// the extensions' part is RouterCore+Reload.swift): only the plugins whose entries
/// changed are started, stopped or restarted. Requests to the others are not touched.
///
/// A plugin's slot keeps its index for the life of the host (exchanges and timers hold
/// it): a removed plugin's slot is retired, a new plugin gets a new slot at the end, and
/// an id that comes back takes its old slot again.
extension PluginFleet {
    /// Brings the slots and the routes in line with the new manifest's entries, noting
    /// what changed in `report`. Returns the slots to start once the core has taken the
    /// new manifest on (`start(_:)`).
    func reload(_ plugins: [PluginSpec], report: inout ReloadReport) -> [PluginSlot] {
        var toStart: [PluginSlot] = []
        var seen: Set<String> = []
        for spec in plugins {
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
        return toStart
    }

    /// Starts what `reload` said should start, unless it is running already.
    func start(_ toStart: [PluginSlot]) {
        for slot in toStart where slot.pid == nil { startPlugin(slot) }
    }

    /// The entries in force (not retired), for the manifest the core keeps.
    var specsInForce: [PluginSpec] { slots.filter { !$0.retired }.map(\.spec) }

    /// One entry of the new manifest.
    private func apply(_ spec: PluginSpec, report: inout ReloadReport, toStart: inout [PluginSlot]) {
        guard let slot = slots.first(where: { $0.spec.id == spec.id && $0.primaryIndex == nil }) else {
            if let hostKeys = cannotAdd(spec) {
                report.needsRestart.append("plugins[\(spec.id)] (new, with \(hostKeys))")
                return
            }
            let slot = PluginSlot(index: slots.count, spec: spec)
            append(slot)  // its instances, if any: syncInstances
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
    private func replace(_ slot: PluginSlot, with spec: PluginSpec, toStart: inout [PluginSlot]) {
        slot.spec = spec
        let again = spec.lifecycle.activation == .eager || !slot.waiting.isEmpty
        let (actions, startable) = slot.life.replaced(enabled: spec.enabled, again: again)
        perform(actions, slot)
        if startable, startsEagerly(slot) || !slot.waiting.isEmpty { toStart.append(slot) }
    }

    /// A plugin gone from the manifest: its requests end now with a clear error (they
    /// are not drained: its process is being stopped), and it is stopped and forgotten.
    private func retire(_ slot: PluginSlot) {
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
