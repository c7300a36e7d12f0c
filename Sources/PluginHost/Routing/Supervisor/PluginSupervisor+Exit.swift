import Foundation
import IntentBusCore
import IntentBusManifest
import IntentBusProcess

/// Stops, hangs, limit breaches, exits, backoff and the breaker (docs/lifecycle.md).
extension PluginSupervisor {
    /// What an exit needs to know about the host and the slot around it.
    struct ExitContext {
        /// The host is shutting down: nothing starts again.
        var hostStopping = false
        /// SIGTERM came: open requests may finish, a hung plugin is not restarted.
        var draining = false
        /// Requests wait for the plugin (a stopped one starts again for them).
        var hasWaiting = false
        var lifecycle = PluginLifecycle()
        /// `cpu_limit`, which SIGXCPU reports.
        var cpuLimit: Duration?
    }

    // MARK: - Stopping on purpose

    /// Stops the running process: DISCONNECT when `graceful` (it may finish and exit),
    /// then SIGTERM, then SIGKILL. Its exit is `exited` (a hang's counts as a crash).
    mutating func stop(why: StopReason, graceful: Bool) -> [Action] {
        guard let running else { return [] }
        var actions: [Action] = []
        if let identity {
            actions.append(.forget(identity))
            if graceful { actions.append(.disconnect(identity)) }
        }
        state = .stopping(running, why: why)
        let pid = running.pid
        actions.append(graceful ? .arm(.stopStopping(pid: pid, signal: SIGTERM), after: 2_000_000_000) : .signal(pid, SIGTERM))
        actions.append(.arm(.stopStopping(pid: pid, signal: SIGKILL), after: graceful ? 4_000_000_000 : 1_000_000_000))
        return actions
    }

    /// Silent for 1.5 heartbeat intervals (`silence` and `heartbeat` as text). A remote
    /// plugin's connection is forgotten; a spawned one is stopped and started again.
    mutating func hung(silence: String, heartbeat: String, draining: Bool) -> [Action] {
        lastError = .other("hung: silent for \(silence)")
        if case .remote(let identity?) = state {
            state = .remote(identity: nil)
            return [.log(.error, "remote plugin \(id) stopped answering heartbeats (silent for \(silence)); waiting for it to connect again"),
                    .forget(identity),
                    .failInFlight(BusError(.pluginHung, "remote plugin \(id) stopped answering heartbeats (silent for \(silence)) while handling this request",
                                           details: ["plugin": .string(id)]))]
        }
        let pid = self.pid ?? 0
        let why = "plugin \(id) (pid \(pid)) stopped answering heartbeats (silent for \(silence), heartbeat \(heartbeat))"
        return [.log(.error, "\(why): it is hung; stopping it (SIGTERM, then SIGKILL after 1 s)\(draining ? "" : " and starting it again")"),
                .retryIdempotent(pid: pid, why: "hung"),
                .failInFlight(BusError(.pluginHung, "\(why) while handling this request; it is being restarted",
                                       details: ["plugin": .string(id)]))]
            + stop(why: .hung, graceful: false)
    }

    /// A limit check found the ready process over its `memory_limit`: it is killed, and
    /// its exit is reported as that breach.
    mutating func limitBreached(_ breach: String) -> [Action] {
        guard case .ready(var running, let identity) = state else { return [] }
        running.breach = breach
        state = .ready(running, identity: identity)
        return [.log(.error, "plugin \(id) (pid \(running.pid)): \(breach); killing it (SIGKILL)"), .signal(running.pid, SIGKILL)]
    }

    // MARK: - Exits

    /// Process `pid` exited with `status` at `now`. A previous process of the plugin (its
    /// pid no longer named) changes nothing.
    mutating func exited(pid: pid_t, status: ExitStatus, now: UInt64, _ context: ExitContext) -> [Action] {
        guard let running, running.pid == pid else { return [] }
        let identity = self.identity
        var actions: [Action] = identity.map { [.forget($0)] } ?? []
        if context.hostStopping {
            state = isRetired ? .disabled(.removed) : isDisabledAtRunTime ? .disabled(.runTime) : .stopped
            return actions + [.log(.info, "plugin \(id) (pid \(pid)) stopped: \(status)")]
        }
        if case .stopping(_, let why) = state, why != .hung {
            return actions + stoppedOnPurpose(pid: pid, why: why, status: status, context)
        }
        let trial = inTrial
        let how = "\(status)\(limitNote(running, status, cpuLimit: context.cpuLimit))"
        let window = context.lifecycle.crashWindow.nanoseconds
        crashTimes = crashTimes.filter { now &- $0 < window } + [now]
        // A refused HELLO is the real story; the exit that follows is its consequence.
        if case .handshakeRejected(let rejection) = lastError, identity == nil {
            lastError = .handshakeRejected("\(rejection); pid \(pid) then \(how)")
        } else if case .stopping(_, .hung) = state {
            lastError = .other("pid \(pid) hung and was stopped (\(status))")
        } else {
            lastError = .other("pid \(pid) \(how)")
        }
        var wasHung = false
        if case .stopping(_, .hung) = state { wasHung = true }
        state = .backoff(trial: trial)
        actions += [.log(.error, "plugin \(id) (pid \(pid)) \(how)"),
                    .retryIdempotent(pid: pid, why: status.description),
                    .failInFlight(BusError(.pluginCrashed, "plugin \(id) (pid \(pid)) \(how) while handling this request",
                                           details: ["plugin": .string(id), "exit": status.json]))]
        // Found hung while the host drains: its requests have their answers, and nothing
        // new will come for it; a restart would only be stopped again.
        if context.draining, wasHung, !context.hasWaiting {
            state = .stopped
            return actions + [.log(.info, "plugin \(id) is not restarted: the host is stopping")]
        }
        if crashTimes.count >= context.lifecycle.crashLimit {
            return actions + openBreaker(last: status, context.lifecycle)
        }
        let delay = min(UInt64(100_000_000) << UInt64(min(crashTimes.count - 1, 6)), 5_000_000_000)
        restarts += 1
        return actions + [.arm(.restart, after: delay)]
    }

    /// A process stopped on purpose has exited: not a crash.
    private mutating func stoppedOnPurpose(pid: pid_t, why: StopReason, status: ExitStatus, _ context: ExitContext) -> [Action] {
        var actions: [Action] = [
            .log(.info, "plugin \(id) (pid \(pid)) stopped (\(why.word)): \(status)"),
            .failInFlight(BusError(.pluginUnavailable, "plugin \(id) was stopped (\(why.word)) while handling this request",
                                   details: ["plugin": .string(id)])),
        ]
        switch why {
        case .disable, .manifestDisable, .removed:
            state = .disabled(why == .disable ? .runTime : why == .removed ? .removed : .manifest)
            actions.append(.failWaiting(BusError(.pluginUnavailable, "plugin \(id) was disabled", details: ["plugin": .string(id)])))
        case .restart:
            state = .stopped
            restarts += 1
            actions.append(.spawn)
        case .idle, .hung:
            state = .stopped
            if context.hasWaiting { actions.append(.spawn) }  // a request came while it stopped
        }
        return actions
    }

    /// What to add to a crash report when the process broke a limit: the memory breach
    /// the host found, or SIGXCPU, which only `cpu_limit` sends.
    private func limitNote(_ running: Running, _ status: ExitStatus, cpuLimit: Duration?) -> String {
        if let breach = running.breach { return ": \(breach)" }
        if case .signalled(SIGXCPU) = status, let cpuLimit {
            return ": cpu_limit exceeded (\(cpuLimit.humanText) of CPU time)"
        }
        return ""
    }

    /// Too many crashes in the window: no restarts for the cool-down; requests fail fast
    /// with the reason. Then one start is tried (half-open); its HELLO closes it.
    private mutating func openBreaker(last status: ExitStatus, _ life: PluginLifecycle) -> [Action] {
        let reason = "crashed \(crashTimes.count) times within \(life.crashWindow.humanText) (last: \(status)); circuit open, next try in \(life.breakerCooldown.humanText)"
        state = .breakerOpen(reason: reason)
        return [.log(.error, "plugin \(id) \(reason)"),
                .failWaiting(BusError(.pluginUnavailable, "plugin \(id) is unavailable: \(reason)", details: ["plugin": .string(id)])),
                .arm(.breakerRetry, after: life.breakerCooldown.nanoseconds)]
    }
}
