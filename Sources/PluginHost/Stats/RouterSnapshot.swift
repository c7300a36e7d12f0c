import Foundation
import IntentBusCore

/// What `ib.status` and `ib.metrics` read of the router, as a value taken when they are
/// asked (`RouterView.snapshot`): the plugins in force and their states, and how many
/// requests are open where. The report (HostStats+Report.swift) is built from this alone,
/// so the stats never hold the core, and a report can be tested from a value.
///
/// Taken on the router thread, on a status or metrics request (the metrics file asks on
/// a timer), never per request.
struct RouterSnapshot: Equatable {
    /// One plugin slot in force (retired ones are left out).
    struct Plugin: Equatable {
        /// Its slot index, which the per-plugin counters use.
        var index: Int
        var id: String
        /// `PluginSupervisor.stateName`.
        var state: String
        var restarts: Int
        /// Requests delivered and not yet answered.
        var inFlight: Int
        /// Open requests for it, wherever they are (waiting, delivered, in the relay lane).
        var open: Int
        var pid: pid_t?
    }

    var plugins: [Plugin] = []
    /// The slots there are, retired ones included: counters made at start may be fewer.
    var slotCount = 0
    /// Open requests: the core's exchanges and the relay lane's.
    var openRequests = 0
    var clientsWithOpenRequests = 0
    /// Where this host listens for clients, and the other hosts it knows (`host.peers`).
    var frontend = ""
    var peers: [String] = []
    /// The Majordomo endpoint's counters (`host.mdp`), as `ib.status` shows them.
    var majordomo: JSON?
}

extension RouterSnapshot {
    /// Counts what is open now in `core`. The relay lane's requests are counted where
    /// they are, not promoted (ib.metrics runs on a timer and must not push them off the
    /// fast path).
    init(_ core: RouterCore) {
        var clients = Set<Data>()
        var openByPlugin = [Int](repeating: 0, count: core.slots.count)
        let open = core.book.all
        for exchange in open {
            clients.insert(exchange.client.identity)
            if case .choosing = exchange.stage { continue }
            if exchange.pluginIndex < openByPlugin.count { openByPlugin[exchange.pluginIndex] += 1 }
        }
        var laneOpen = 0
        core.relayLane?.forEachOpen { identity, slot in
            laneOpen += 1
            clients.insert(Data(identity))
            if slot < openByPlugin.count { openByPlugin[slot] += 1 }
        }
        plugins = core.slots.filter { !$0.retired }.map { slot in
            Plugin(index: slot.index, id: slot.spec.id, state: slot.stateName, restarts: slot.restarts,
                   inFlight: slot.inFlight, open: openByPlugin[slot.index], pid: slot.pid)
        }
        slotCount = core.slots.count
        openRequests = open.count + laneOpen
        clientsWithOpenRequests = clients.count
        frontend = core.manifest.host.frontend
        peers = core.manifest.host.peers
        majordomo = core.majordomoCounters?.json
    }
}
