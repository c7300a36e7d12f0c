import Foundation
import IntentBusCore
import IntentBusWire
import IntentBusProcess

/// A plugin's life beyond spawn and crash (docs/lifecycle.md): heartbeats and hang
/// detection, on-demand start and idle stop, the supervisor's timers, and the host's own
/// drain at shutdown. What each event does to the plugin's state is the supervisor's
/// (Supervisor/PluginSupervisor.swift); this file finds the events.
extension RouterCore {
    // MARK: - Heartbeats

    /// A plugin said HELLO: from now on it must keep answering heartbeats.
    func startHeartbeats(_ slot: PluginSlot) {
        slot.lastHeard = effects.now()
        scheduleHeartbeat(slot)
    }

    private func scheduleHeartbeat(_ slot: PluginSlot) {
        timers.schedule(at: deadline(after: slot.spec.lifecycle.heartbeat.nanoseconds / 2),
                        .heartbeat(index: slot.index, generation: slot.spawnGeneration))
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
        perform(slot.life.hung(silence: silence, heartbeat: slot.spec.lifecycle.heartbeat.humanText, draining: draining), slot)
    }

    // MARK: - The supervisor's timers

    /// The backoff after a crash is over.
    func restartDue(_ slot: PluginSlot) { perform(slot.life.restartDue(hostStopping: stopping), slot) }

    /// The spawn of `generation` has had `PluginSupervisor.handshakeTimeout` to say HELLO.
    func handshakeDeadlineDue(_ slot: PluginSlot, generation: UInt64) {
        perform(slot.life.handshakeTimedOut(generation: generation), slot)
    }

    /// A stop's timer: signal the process if it has not exited yet.
    func stopStoppingDue(_ slot: PluginSlot, pid: pid_t, signal: Int32) {
        perform(slot.life.stopTimerDue(pid: pid, signal: signal), slot)
    }

    /// The breaker's cool-down is over.
    func breakerRetryDue(_ slot: PluginSlot) { perform(slot.life.breakerRetryDue(hostStopping: stopping), slot) }

    // MARK: - On demand

    /// A request needs a plugin that is not running: start an on-demand one now. The
    /// request waits for the handshake within its own deadline.
    func activateIfNeeded(_ slot: PluginSlot) {
        perform(slot.life.activation(hostStopping: stopping), slot)
    }

    /// Work for `slot` started: an idle timer armed before is stale.
    @inline(__always) func noteBusy(_ slot: PluginSlot) { slot.idleGeneration &+= 1 }

    /// The plugin has nothing in flight or waiting: an on-demand one with an idle
    /// timeout is stopped once that much time passes without work.
    func noteIdle(_ slot: PluginSlot) {
        guard let idle = slot.spec.lifecycle.idleTimeout, slot.inFlight == 0, slot.waiting.isEmpty else { return }
        slot.idleGeneration &+= 1
        timers.schedule(at: deadline(after: idle.nanoseconds), .idle(index: slot.index, generation: slot.idleGeneration))
    }

    func idleDue(_ slot: PluginSlot, generation: UInt64) {
        guard slot.idleGeneration == generation, slot.inFlight == 0, slot.waiting.isEmpty,
              case .ready(let running, _) = slot.state else { return }
        logger.info("plugin \(slot.spec.id) (pid \(running.pid)) has been idle for \(slot.spec.lifecycle.idleTimeout?.humanText ?? "?"); stopping it until the next request")
        stop(slot, why: .idle, graceful: true)
    }

    // MARK: - Drain

    /// SIGTERM: stop admitting (new requests get `shutting_down`), let open requests
    /// finish for up to `host.drain_timeout`, then stop the plugins. A second signal, or
    /// the end of the drain, stops at once.
    func beginDrain() {
        if draining || stopping { return finishShutdown() }
        draining = true
        promoteAll()
        let open = exchanges.count
        guard open > 0 else { return finishShutdown() }
        logger.info("shutting down: \(open) open requests may finish within \(manifest.host.drainTimeout.humanText) (a second signal stops at once)")
        timers.schedule(at: deadline(after: manifest.host.drainTimeout.nanoseconds), .drainOver)
    }

    /// While draining: the last open request has ended.
    func drainProgress() {
        if draining, !stopping, exchanges.count == 0 { finishShutdown() }
    }
}
