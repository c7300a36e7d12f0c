import Foundation
import IntentBusCore
import IntentBusManifest

/// The core's side of `MajordomoCore` (MajordomoRoutes.swift), what the Majordomo endpoint
/// needs of it (docs/mdp.md): an `mdp_worker` entry's stand-in connection comes and goes
/// with its workers, a stand-in client gets its grant, and the endpoint asks about routes
/// (`mmi.service`, a full plugin) through a `MajordomoRoutes` value.
///
/// An `mdp_worker` slot is a remote-style slot (`.remote`) the host never starts. While it
/// is not attached its requests wait in `slot.waiting` with their own deadlines, as for a
/// remote plugin that has not connected yet.
extension RouterCore: MajordomoCore {
    /// The entry at `index` has its first MDP worker: it is ready, as after a HELLO, and
    /// the requests waiting for it go out. Every intent it lists is served plain.
    func majordomoAttach(_ index: Int, identity: Data) {
        assertConfined()
        let slot = slots[index]
        guard slot.spec.mdpWorker, slot.life.workerAttached(identity: identity) else { return }
        slot.styles = Dictionary(uniqueKeysWithValues: slot.spec.intentsSupported.map { ($0, HandlerStyle.plain) })
        slot.lastHeard = effects.now()
        fleet.bind(identity, to: index)
        logger.info("plugin \(slot.spec.id) is ready: MDP workers serve \(slot.spec.intentsSupported.joined(separator: ", "))")
        let waiting = slot.waiting
        slot.waiting.removeAll()
        for hostId in waiting {
            if let exchange = book[hostId] { begin(exchange, slot) }
        }
    }

    /// The entry at `index` has no workers left and holds nothing: it waits again.
    func majordomoDetach(_ index: Int) {
        assertConfined()
        let slot = slots[index]
        guard slot.spec.mdpWorker, slot.inFlight == 0, let identity = slot.life.workerDetached() else { return }
        fleet.unbind(identity)
        logger.info("plugin \(slot.spec.id) is waiting: no MDP worker is connected")
    }

    /// The routes to ask about (MajordomoRoutes.swift), as they stand now.
    var majordomoRoutes: MajordomoRoutes {
        assertConfined()
        return MajordomoRoutes(routes: routes, slots: slots, hostIntents: hostIntents, isFull: { [unowned self] in isFull($0) })
    }

    /// Gives the stand-in client `identity` its grant when clients are authenticated: the
    /// one its MDP connection's key names (tcp with CURVE), else, for a local (ipc) MDP
    /// socket, a grant named `mdp` for every intent but the restricted ones. A CURVE
    /// connection without a client's User-Id gets none (every request: `forbidden`).
    func majordomoGrant(_ identity: Data, user: String?, local: Bool) {
        guard clientKeysRequired else { return }
        let state = book.clients.state(for: identity)
        if local {
            state.grant = ClientGrant(name: "mdp", publicKey: "")
        } else if let user, user.hasPrefix("client:") {
            let name = String(user.dropFirst("client:".count))
            state.grant = manifest.host.clients.first { $0.name == name }
            if state.grant != nil { state.rates = book.clients.rates(for: name) }
        } else {
            state.grant = nil
        }
    }
}
