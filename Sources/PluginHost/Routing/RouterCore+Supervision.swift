import Foundation
import IntentBusCore
import IntentBusWire

/// Carrying out what a slot's supervisor decides (Supervisor/PluginSupervisor.swift): the
/// supervisor holds the plugin's state and returns actions; the core has the sockets'
/// effects, the timers and the requests, and does them here, in order.
extension RouterCore {
    func perform(_ actions: [PluginSupervisor.Action], _ slot: PluginSlot) {
        for action in actions {
            switch action {
            case .spawn:
                startPlugin(slot)
            case .signal(let pid, let signal):
                effects.signal(pid, signal)
            case .disconnect(let identity):
                _ = effects.sendToPlugin(identity, WireMessage(kind: .disconnect, header: nil, body: nil).frames)
            case .forget(let identity):
                identities.removeValue(forKey: identity)
            case .arm(let timer, let after):
                timers.schedule(at: deadline(after: after), routerTimer(timer, slot.index))
            case .failInFlight(let error):
                failInFlight(slot, error)
            case .failWaiting(let error):
                failWaiting(slot, error)
            case .retryIdempotent(let pid, let why):
                retryIdempotent(slot, pid: pid, why: why)
            case .stopRejected(let pid):
                stopRejected(pid)
            case .log(let level, let line):
                logger.log(level, line)
            }
        }
    }

    private func routerTimer(_ timer: PluginSupervisor.Timer, _ index: Int) -> RouterTimer {
        switch timer {
        case .handshakeDeadline(let generation): .handshakeDeadline(index: index, generation: generation)
        case .restart: .restart(index: index)
        case .breakerRetry: .breakerRetry(index: index)
        case .stopStopping(let pid, let signal): .stopStopping(index: index, pid: pid, signal: signal)
        }
    }

    /// Stops a running plugin on purpose (`PluginSupervisor.stop`).
    func stop(_ slot: PluginSlot, why: PluginSupervisor.StopReason, graceful: Bool) {
        perform(slot.life.stop(why: why, graceful: graceful), slot)
    }
}
