import Foundation
import IntentBusCore
import IntentBusManifest

/// An `mdp_worker` entry's stand-in connection (docs/mdp.md): a remote-style slot the host
/// never starts, ready while the Majordomo endpoint has a worker for it. Its state is the
/// slot's supervisor's, as for every plugin; the core's side of `MajordomoCore`
/// (Majordomo/RouterCore+Majordomo.swift) calls these.
extension PluginFleet {
    /// The entry at `index` has its first MDP worker: it is ready, as after a HELLO, and
    /// the requests waiting for it go out (`FleetHost.beginWaiting`). Every intent it
    /// lists is served plain.
    func attachWorker(_ index: Int, identity: Data) {
        let slot = slots[index]
        guard slot.spec.mdpWorker, slot.life.workerAttached(identity: identity) else { return }
        slot.styles = Dictionary(uniqueKeysWithValues: slot.spec.intentsSupported.map { ($0, HandlerStyle.plain) })
        slot.lastHeard = effects.now()
        bind(identity, to: index)
        logger.info("plugin \(slot.spec.id) is ready: MDP workers serve \(slot.spec.intentsSupported.joined(separator: ", "))")
        host.beginWaiting(slot)
    }

    /// The entry at `index` has no workers left and holds nothing: it waits again.
    func detachWorker(_ index: Int) {
        let slot = slots[index]
        guard slot.spec.mdpWorker, slot.inFlight == 0, let identity = slot.life.workerDetached() else { return }
        unbind(identity)
        logger.info("plugin \(slot.spec.id) is waiting: no MDP worker is connected")
    }

    /// The routes as the Majordomo endpoint asks about them (MajordomoRoutes.swift), now.
    func majordomoRoutes(hostIntents: HostIntents) -> MajordomoRoutes {
        MajordomoRoutes(routes: routes, slots: slots, hostIntents: hostIntents, isFull: { [unowned self] in isFull($0) })
    }
}
