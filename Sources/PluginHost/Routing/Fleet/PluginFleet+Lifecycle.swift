import Foundation
import IntentBusCore
import IntentBusWire
import IntentBusProcess

/// A plugin's life beyond spawn and crash (docs/lifecycle.md): heartbeats and hang
/// detection, `memory_limit`, on-demand start and idle stop. What each event does to the
/// plugin's state is the supervisor's (Supervisor/PluginSupervisor.swift); this file
/// finds the events.
extension PluginFleet {
    // MARK: - Heartbeats

    /// A plugin said HELLO: from now on it must keep answering heartbeats.
    func startHeartbeats(_ slot: PluginSlot) {
        slot.lastHeard = effects.now()
        scheduleHeartbeat(slot)
    }

    private func scheduleHeartbeat(_ slot: PluginSlot) {
        host.arm(.heartbeat(index: slot.index, generation: slot.spawnGeneration),
                 after: slot.spec.lifecycle.heartbeat.nanoseconds / 2)
    }

    /// Every half interval: a plugin silent for 1.5 intervals is hung; otherwise it gets
    /// a HEARTBEAT, which the SDKs answer from their socket thread (a busy handler does not
    /// delay it). So a frozen plugin is found within two intervals.
    func heartbeatDue(_ slot: PluginSlot, generation: UInt64) {
        guard slot.spawnGeneration == generation, let identity = slot.identity else { return }
        let pid = slot.pid ?? 0
        let interval = slot.spec.lifecycle.heartbeat.nanoseconds
        let silent = effects.now() &- slot.lastHeard
        if silent > interval + interval / 2 {
            return hung(slot, silentFor: silent)
        }
        if overMemoryLimit(slot, pid: pid) { return }
        _ = effects.sendToPlugin(identity, WireMessage(kind: .heartbeat, header: nil, body: nil).frames)
        scheduleHeartbeat(slot)
    }

    private func hung(_ slot: PluginSlot, silentFor silent: UInt64) {
        let silence = Duration.nanoseconds(Int64(min(silent, UInt64(Int64.max)))).humanText
        perform(slot.life.hung(silence: silence, heartbeat: slot.spec.lifecycle.heartbeat.humanText, draining: host.draining), slot)
    }

    // MARK: - Limits

    /// At a heartbeat check: a process whose resident memory is above its `memory_limit`
    /// is killed, and its exit is reported as that breach (the supervisor keeps it with
    /// the process). True when it was. The `sha256` check and the rlimits happen where the
    /// shell spawns (Supervision/ProcessGuards.swift); `cpu_limit` shows in the exit.
    func overMemoryLimit(_ slot: PluginSlot, pid: pid_t) -> Bool {
        guard let limit = slot.spec.guards.memoryLimit, pid > 0, let resident = effects.residentBytes(pid),
              resident > limit else { return false }
        let breach = "memory_limit exceeded: \(Self.mebibytes(resident)) resident, the limit is \(Self.mebibytes(limit))"
        perform(slot.life.limitBreached(breach), slot)
        return true
    }

    static func mebibytes(_ bytes: UInt64) -> String {
        "\((Double(bytes) / 1_048_576 * 10).rounded() / 10) MiB"
    }

    // MARK: - On demand

    /// A request needs a plugin that is not running: start an on-demand one now. The
    /// request waits for the handshake within its own deadline.
    func activateIfNeeded(_ slot: PluginSlot) {
        perform(slot.life.activation(hostStopping: host.stopping), slot)
    }

    /// Work for `slot` started: an idle timer armed before is stale.
    @inline(__always) func noteBusy(_ slot: PluginSlot) { slot.idleGeneration &+= 1 }

    /// The plugin has nothing in flight or waiting: an on-demand one with an idle
    /// timeout is stopped once that much time passes without work.
    func noteIdle(_ slot: PluginSlot) {
        guard let idle = slot.spec.lifecycle.idleTimeout, slot.inFlight == 0, slot.waiting.isEmpty else { return }
        slot.idleGeneration &+= 1
        host.arm(.idle(index: slot.index, generation: slot.idleGeneration), after: idle.nanoseconds)
    }

    func idleDue(_ slot: PluginSlot, generation: UInt64) {
        guard slot.idleGeneration == generation, slot.inFlight == 0, slot.waiting.isEmpty,
              case .ready(let running, _) = slot.state else { return }
        logger.info("plugin \(slot.spec.id) (pid \(running.pid)) has been idle for \(slot.spec.lifecycle.idleTimeout?.humanText ?? "?"); stopping it until the next request")
        stop(slot, why: .idle, graceful: true)
    }
}

extension RouterEffects {
    func residentBytes(_ pid: pid_t) -> UInt64? { ProcessGuards.residentBytes(pid) }
}
