import Foundation
import IntentBusCore
import IntentBusManifest

/// The core's side of `MajordomoCore` (MajordomoRoutes.swift), what the Majordomo endpoint
/// needs of it (docs/mdp.md): an `mdp_worker` entry's stand-in connection comes and goes
/// with its workers (the fleet's: Fleet/PluginFleet+Majordomo.swift), a stand-in client
/// gets its grant (the request side's, here), and the endpoint asks about routes
/// (`mmi.service`, a full plugin) through a `MajordomoRoutes` value.
///
/// While an `mdp_worker` slot is not attached its requests wait in `slot.waiting` with
/// their own deadlines, as for a remote plugin that has not connected yet.
extension RouterCore: MajordomoCore {
    /// The entry at `index` has its first MDP worker (`PluginFleet.attachWorker`).
    func majordomoAttach(_ index: Int, identity: Data) {
        assertConfined()
        fleet.attachWorker(index, identity: identity)
    }

    /// The entry at `index` has no workers left (`PluginFleet.detachWorker`).
    func majordomoDetach(_ index: Int) {
        assertConfined()
        fleet.detachWorker(index)
    }

    var majordomoRoutes: MajordomoRoutes {
        assertConfined()
        return fleet.majordomoRoutes(hostIntents: hostIntents)
    }

    /// Gives the stand-in client `identity` its grant when clients are authenticated: the
    /// one its MDP connection's key names (tcp with CURVE), else, for a local (ipc) MDP
    /// socket, a grant named `mdp` for every intent but the restricted ones. A CURVE
    /// connection without a client's User-Id gets none (every request: `forbidden`).
    func majordomoGrant(_ identity: Data, user: String?, local: Bool) {
        guard clientKeysRequired else { return }
        let state = pipeline.book.clients.state(for: identity)
        if local {
            state.grant = ClientGrant(name: "mdp", publicKey: "")
        } else if let user, user.hasPrefix("client:") {
            let name = String(user.dropFirst("client:".count))
            state.grant = manifest.host.clients.first { $0.name == name }
            if state.grant != nil { state.rates = pipeline.book.clients.rates(for: name) }
        } else {
            state.grant = nil
        }
    }
}
