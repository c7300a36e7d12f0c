import Foundation
import IntentBusCore
import IntentBusManifest

/// What the Majordomo endpoint needs of the core (docs/mdp.md): an `mdp_worker` entry's
/// stand-in connection comes and goes with its workers, and `mmi.service` asks whether
/// anything serves a name.
///
/// An `mdp_worker` slot is a remote-style slot (`.remote`) the host never starts. While it
/// is not attached its requests wait in `slot.waiting` with their own deadlines, as for a
/// remote plugin that has not connected yet.
extension RouterCore {
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

    /// `mmi.service` (RFC 8): whether `name` is served now — a host intent, or an intent
    /// with a claimant that is neither disabled nor failing, nor waiting for a connection
    /// (a remote plugin that is not connected, an `mdp_worker` entry without a worker for
    /// that service: `workers` counts them). The endpoint asks only for names the MDP
    /// client may call.
    func majordomoServes(_ name: String, workers: (String) -> Int) -> Bool {
        assertConfined()
        if name.hasPrefix("ib.") { return hostIntents[name] != nil }
        for index in routes[name] ?? [] {
            let slot = slots[index]
            if slot.disabledAtRunTime { continue }
            if slot.spec.mdpWorker {
                if workers(name) > 0 { return true }
                continue
            }
            switch slot.state {
            case .spawnFailed, .breakerOpen, .rejected, .disabled, .remote(nil): continue
            default: return true
            }
        }
        return false
    }

    /// Whether only `mdp_worker` entries claim `intent`: its MDP requests may then carry
    /// any number of opaque body frames, which reach the worker unchanged.
    func majordomoWorkersOnly(_ intent: String) -> Bool {
        guard let claimants = routes[intent], !claimants.isEmpty else { return false }
        return claimants.allSatisfy { slots[$0].spec.mdpWorker }
    }

    /// Whether every claimant of `intent` is at its `max_in_flight`: an MDP request for
    /// it then waits in the endpoint's queue instead of getting `busy`.
    func majordomoFull(_ intent: String) -> Bool {
        guard let claimants = routes[intent], !claimants.isEmpty else { return false }
        return claimants.allSatisfy { isFull(slots[$0]) }
    }

    /// The first claimant of `intent`: its id and timeout (how long a queued MDP request
    /// for it may wait).
    func majordomoClaimant(_ intent: String) -> (plugin: String, timeout: UInt64)? {
        guard let first = routes[intent]?.first else { return nil }
        return (slots[first].spec.id, slots[first].spec.timeout.nanoseconds)
    }

    /// The claimants of `intent` that do not mark it `idempotent` (with
    /// `mdp_only_idempotent`, MDP clients may not call it: an MDP/0.1 client resends).
    func majordomoNotIdempotent(_ intent: String) -> [String] {
        (routes[intent] ?? []).map { slots[$0].spec }.filter { !$0.idempotentIntents.contains(intent) }.map(\.id)
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
