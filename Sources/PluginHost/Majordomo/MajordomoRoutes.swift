import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusManifest

/// What the Majordomo endpoint needs of the core (docs/mdp.md), and no more: the core's
/// manifest and the counters it reports, the two entries for frames (as from a client, as
/// from a plugin connection), a stand-in's worker coming and going, a stand-in client's
/// grant, and the read-only questions about routes (`MajordomoRoutes`). `RouterCore` is
/// the one conformer (RouterCore+Majordomo.swift); the endpoint holds this, not the core.
protocol MajordomoCore: AnyObject {
    var manifest: Manifest { get }
    /// The endpoint's counters, for ib.status `mdp`.
    var majordomoCounters: MajordomoCounters? { get set }
    func clientFrames(_ frames: [Frame])
    func pluginFrames(_ frames: [Frame])
    func majordomoAttach(_ index: Int, identity: Data)
    func majordomoDetach(_ index: Int)
    func majordomoGrant(_ identity: Data, user: String?, local: Bool)
    /// The routes as they stand now, to ask about.
    var majordomoRoutes: MajordomoRoutes { get }
}

/// The core's routes as the Majordomo endpoint asks about them: read only, made when
/// asked (a few references: the routing table, the slots, the host intents).
struct MajordomoRoutes {
    /// Intent → the slots claiming it (`RouterCore.routes`).
    let routes: [String: [Int]]
    let slots: [PluginSlot]
    let hostIntents: HostIntents
    /// Whether a plugin (or its group of instances) is at its `max_in_flight`.
    let isFull: (PluginSlot) -> Bool

    /// `mmi.service` (RFC 8): whether `name` is served now — a host intent, or an intent
    /// with a claimant that is neither disabled nor failing, nor waiting for a connection
    /// (a remote plugin that is not connected, an `mdp_worker` entry without a worker for
    /// that service: `workers` counts them). The endpoint asks only for names the MDP
    /// client may call.
    func serves(_ name: String, workers: (String) -> Int) -> Bool {
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
    func workersOnly(_ intent: String) -> Bool {
        guard let claimants = routes[intent], !claimants.isEmpty else { return false }
        return claimants.allSatisfy { slots[$0].spec.mdpWorker }
    }

    /// Whether every claimant of `intent` is at its `max_in_flight`: an MDP request for
    /// it then waits in the endpoint's queue instead of getting `busy`.
    func full(_ intent: String) -> Bool {
        guard let claimants = routes[intent], !claimants.isEmpty else { return false }
        return claimants.allSatisfy { isFull(slots[$0]) }
    }

    /// The first claimant of `intent`: its id and timeout (how long a queued MDP request
    /// for it may wait).
    func claimant(_ intent: String) -> (plugin: String, timeout: UInt64)? {
        guard let first = routes[intent]?.first else { return nil }
        return (slots[first].spec.id, slots[first].spec.timeout.nanoseconds)
    }

    /// The claimants of `intent` that do not mark it `idempotent` (with
    /// `mdp_only_idempotent`, MDP clients may not call it: an MDP/0.1 client resends).
    func notIdempotent(_ intent: String) -> [String] {
        (routes[intent] ?? []).map { slots[$0].spec }.filter { !$0.idempotentIntents.contains(intent) }.map(\.id)
    }
}
