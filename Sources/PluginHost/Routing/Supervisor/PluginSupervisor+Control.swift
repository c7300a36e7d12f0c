import Foundation
import IntentBusCore

/// Acting on a plugin on purpose: `ib.plugins.restart`, `enable` and `disable`, a hot
/// reload's new entry or removal, and an `mdp_worker` entry's workers coming and going.
extension PluginSupervisor {
    // MARK: - ib.plugins.*

    /// `ib.plugins.restart`: the breaker and the crash count start over; a running
    /// process is stopped and started again, a stopped one started. Returns what was done.
    mutating func restart() -> (done: String, actions: [Action]) {
        if isDisabledAtRunTime { return ("disabled; enable it first", []) }
        crashTimes.removeAll()
        if running != nil { return ("restarting", stop(why: .restart, graceful: true)) }
        state = .stopped  // out of an open breaker, a backoff or a failure
        return ("starting", [.spawn])
    }

    /// `ib.plugins.enable`: a plugin disabled at run time may run again (`eager`: at once).
    mutating func enable(eager: Bool) -> (done: String, actions: [Action]) {
        switch state {
        case .disabled(.runTime):
            state = .stopped
            return ("enabled", eager ? [.spawn] : [])
        case .stopping(let running, .disable):
            // Still exiting from the disable: it starts again once it is gone.
            state = .stopping(running, why: eager ? .restart : .idle)
            return ("enabled", [])
        default:
            return ("already enabled", [])
        }
    }

    /// `ib.plugins.disable`: the waiting requests fail, a running process is stopped, and
    /// nothing starts it again until `enable`.
    mutating func disable() -> (done: String, actions: [Action]) {
        if isDisabledAtRunTime { return ("already disabled", []) }
        let failWaiting = Action.failWaiting(BusError(.pluginUnavailable, "plugin \(id) was disabled", details: ["plugin": .string(id)]))
        if running != nil { return ("disabled; stopping", [failWaiting] + stop(why: .disable, graceful: true)) }
        state = .disabled(.runTime)
        return ("disabled", [failWaiting])
    }

    // MARK: - Hot reload

    /// A reload gave the slot an entry that needs a new process (`enabled`: its
    /// `enabled:`; `again`: start the new one once the old has exited). The breaker and
    /// the crash count start over. `startable`: it is stopped now and may be started.
    mutating func replaced(enabled: Bool, again: Bool) -> (actions: [Action], startable: Bool) {
        crashTimes.removeAll()
        if case .backoff = state { state = .backoff(trial: false) }
        guard enabled else {
            var actions: [Action] = [.failWaiting(BusError(.pluginUnavailable, "plugin \(id) was disabled in the manifest (reload)",
                                                           details: ["plugin": .string(id)]))]
            if running != nil {
                actions.append(.failInFlight(BusError(.pluginUnavailable, "plugin \(id) was disabled in the manifest (reload) while handling this request",
                                                      details: ["plugin": .string(id)])))
                actions += stop(why: .manifestDisable, graceful: true)
            } else {
                state = .disabled(.manifest)
            }
            return (actions, false)
        }
        if running != nil {
            let failing = Action.failInFlight(BusError(.pluginUnavailable, "plugin \(id) is being restarted for its changed manifest entry (reload) while handling this request",
                                                       details: ["plugin": .string(id)]))
            // ib.plugins.disable still holds for the new entry.
            return ([failing] + stop(why: isDisabledAtRunTime ? .disable : again ? .restart : .idle, graceful: true), false)
        }
        switch state {
        case .backoff:
            return ([], false)  // its restart timer starts the new entry
        case .remote(let identity):
            // It must say HELLO again for its new intents: ask it to reconnect.
            state = .remote(identity: nil)
            guard let identity else { return ([], false) }
            return ([.failInFlight(BusError(.pluginUnavailable, "remote plugin \(id) must connect again for its changed manifest entry (reload)",
                                            details: ["plugin": .string(id)])),
                     .forget(identity), .disconnect(identity)], false)
        case .disabled(.runTime):
            return ([], false)  // ib.plugins.disable still holds
        default:
            state = .stopped
            return ([], true)
        }
    }

    /// Gone from the manifest: its requests end now with a clear error (they are not
    /// drained: its process is being stopped), and it is stopped and retired.
    mutating func retire() -> [Action] {
        var actions: [Action] = [
            .failWaiting(BusError(.pluginUnavailable, "plugin \(id) was removed from the manifest (reload)", details: ["plugin": .string(id)])),
            .failInFlight(BusError(.pluginUnavailable, "plugin \(id) was removed from the manifest (reload) while handling this request",
                                   details: ["plugin": .string(id)])),
        ]
        if case .remote(let identity?) = state {
            actions += [.forget(identity), .disconnect(identity)]
        } else if running != nil {
            return actions + stop(why: .removed, graceful: true)
        }
        state = .disabled(.removed)
        return actions
    }

    /// Back in the manifest (`replaced` follows): not retired any more; disabled at run
    /// time when `disabledAtRunTime` (an instance of a plugin disabled so).
    mutating func unretire(disabledAtRunTime: Bool) {
        switch state {
        case .disabled(.removed): state = disabledAtRunTime ? .disabled(.runTime) : .stopped
        case .stopping(let running, .removed): state = .stopping(running, why: disabledAtRunTime ? .disable : .idle)
        default: break
        }
    }

    // MARK: - Majordomo workers

    /// An `mdp_worker` entry's first worker came, as stand-in connection `identity`:
    /// ready, as after a HELLO. False when the entry is not waiting (disabled, connected).
    mutating func workerAttached(identity: Data) -> Bool {
        guard case .remote(nil) = state else { return false }
        state = .remote(identity: identity)
        lastError = nil
        return true
    }

    /// Its last worker left: it waits again. Returns the connection it had, or nil.
    mutating func workerDetached() -> Data? {
        guard case .remote(let identity?) = state else { return nil }
        state = .remote(identity: nil)
        return identity
    }
}
