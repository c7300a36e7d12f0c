import Foundation
import IntentBusCore
import IntentBusWire
import IntentBusProcess

/// A plugin's life beyond spawn and crash (docs/lifecycle.md): heartbeats and hang
/// detection, on-demand start and idle stop, the circuit breaker, stops on purpose, and
/// the host's own drain at shutdown.
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
            return hung(slot, pid: pid, silentFor: silent)
        }
        if overMemoryLimit(slot, pid: pid) { return }
        _ = effects.sendToPlugin(identity, WireMessage(kind: .heartbeat, header: nil, body: nil).frames)
        scheduleHeartbeat(slot)
    }

    private func hung(_ slot: PluginSlot, pid: pid_t, silentFor silent: UInt64) {
        let silence = Duration.nanoseconds(Int64(min(silent, UInt64(Int64.max)))).humanText
        if case .remote(let identity?) = slot.state {
            // No process of ours to stop: forget the connection and wait for it to come back.
            logger.error("remote plugin \(slot.spec.id) stopped answering heartbeats (silent for \(silence)); waiting for it to connect again")
            identities.removeValue(forKey: identity)
            slot.state = .remote(identity: nil)
            slot.lastError = "hung: silent for \(silence)"
            return failInFlight(slot, BusError(.pluginHung, "remote plugin \(slot.spec.id) stopped answering heartbeats (silent for \(silence)) while handling this request",
                                               details: ["plugin": .string(slot.spec.id)]))
        }
        let why = "plugin \(slot.spec.id) (pid \(pid)) stopped answering heartbeats (silent for \(silence), heartbeat \(slot.spec.lifecycle.heartbeat.humanText))"
        logger.error("\(why): it is hung; stopping it (SIGTERM, then SIGKILL after 1 s)\(draining ? "" : " and starting it again")")
        slot.lastError = "hung: silent for \(silence)"
        retryIdempotent(slot, pid: pid, why: "hung")
        failInFlight(slot, BusError(.pluginHung, "\(why) while handling this request; it is being restarted",
                                    details: ["plugin": .string(slot.spec.id)]))
        stop(slot, pid: pid, why: .hung, graceful: false)
    }

    // MARK: - Stopping on purpose

    /// Stops a running plugin: DISCONNECT when `graceful` (it may finish and exit), then
    /// SIGTERM, then SIGKILL. Its exit is handled by `stoppedOnPurpose` (or, when hung,
    /// as a crash). Requests that arrive meanwhile wait for the next start.
    func stop(_ slot: PluginSlot, pid: pid_t, why: PluginSlot.StopReason, graceful: Bool) {
        if let identity = slot.identity {
            identities.removeValue(forKey: identity)
            if graceful { _ = effects.sendToPlugin(identity, WireMessage(kind: .disconnect, header: nil, body: nil).frames) }
        }
        slot.state = .stopping(pid: pid, why: why)
        if graceful {
            timers.schedule(at: deadline(after: 2_000_000_000), .stopStopping(index: slot.index, pid: pid, signal: SIGTERM))
        } else {
            effects.signal(pid, SIGTERM)
        }
        timers.schedule(at: deadline(after: graceful ? 4_000_000_000 : 1_000_000_000),
                        .stopStopping(index: slot.index, pid: pid, signal: SIGKILL))
    }

    /// The timer of a stop: signal the process if it has not exited yet (a reaped pid is
    /// never signalled: the slot no longer names it).
    func stopStoppingDue(_ slot: PluginSlot, pid: pid_t, signal: Int32) {
        guard case .stopping(let current, _) = slot.state, current == pid else { return }
        logger.warning("plugin \(slot.spec.id) (pid \(pid)) is still running; sending \(signal == SIGKILL ? "SIGKILL" : "SIGTERM")")
        effects.signal(pid, signal)
    }

    /// A plugin stopped on purpose has exited: not a crash.
    func stoppedOnPurpose(_ slot: PluginSlot, pid: pid_t, why: PluginSlot.StopReason, status: ExitStatus) {
        logger.info("plugin \(slot.spec.id) (pid \(pid)) stopped (\(why.rawValue)): \(status)")
        failInFlight(slot, BusError(.pluginUnavailable, "plugin \(slot.spec.id) was stopped (\(why.rawValue)) while handling this request",
                                    details: ["plugin": .string(slot.spec.id)]))
        switch why {
        case .disable, .removed:
            slot.state = .disabled
            failWaiting(slot, BusError(.pluginUnavailable, "plugin \(slot.spec.id) was disabled", details: ["plugin": .string(slot.spec.id)]))
        case .restart:
            slot.restarts += 1
            startPlugin(slot)
        case .idle, .hung:
            slot.state = .stopped
            if !slot.waiting.isEmpty { startPlugin(slot) }  // a request came while it stopped
        }
    }

    // MARK: - On demand

    /// A request needs a plugin that is not running: start an on-demand one now. The
    /// request waits for the handshake within its own deadline.
    func activateIfNeeded(_ slot: PluginSlot) {
        guard case .stopped = slot.state, !stopping, !slot.disabledAtRunTime else { return }
        logger.info("plugin \(slot.spec.id) is started on demand")
        startPlugin(slot)
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
              case .ready(let pid, _) = slot.state else { return }
        logger.info("plugin \(slot.spec.id) (pid \(pid)) has been idle for \(slot.spec.lifecycle.idleTimeout?.humanText ?? "?"); stopping it until the next request")
        stop(slot, pid: pid, why: .idle, graceful: true)
    }

    // MARK: - The breaker

    /// Too many crashes in the window: no restarts for the cool-down; requests fail fast
    /// with the reason. Then one start is tried (half-open); its handshake closes it.
    func openBreaker(_ slot: PluginSlot, last status: ExitStatus) {
        let life = slot.spec.lifecycle
        let reason = "crashed \(slot.crashTimes.count) times within \(life.crashWindow.humanText) (last: \(status)); circuit open, next try in \(life.breakerCooldown.humanText)"
        slot.state = .failed(reason: reason)
        slot.breakerOpen = true
        logger.error("plugin \(slot.spec.id) \(reason)")
        failWaiting(slot, BusError(.pluginUnavailable, "plugin \(slot.spec.id) is unavailable: \(reason)",
                                   details: ["plugin": .string(slot.spec.id)]))
        timers.schedule(at: deadline(after: life.breakerCooldown.nanoseconds), .breakerRetry(index: slot.index))
    }

    func breakerRetryDue(_ slot: PluginSlot) {
        guard slot.breakerOpen, case .failed = slot.state, !stopping, !slot.disabledAtRunTime else { return }
        logger.info("plugin \(slot.spec.id): the breaker's cool-down is over; trying one start (half-open)")
        startPlugin(slot)
    }

    /// A handshake succeeded: a half-open breaker closes, and the crash count starts over.
    func closeBreaker(_ slot: PluginSlot) {
        guard slot.breakerOpen else { return }
        slot.breakerOpen = false
        slot.crashTimes.removeAll()
        logger.info("plugin \(slot.spec.id) started again: circuit closed")
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
