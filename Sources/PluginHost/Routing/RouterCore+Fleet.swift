import Foundation
import IntentBusCore
import IntentBusWire

/// The core and its plugin fleet (Fleet/PluginFleet.swift): read-only views of the
/// fleet's tables for the request side, and the request side's answers to the fleet
/// (`FleetHost`). Only the fleet writes its tables.
extension RouterCore: FleetHost {
    // MARK: - The fleet's tables, read-only

    var slots: [PluginSlot] { _read { yield fleet.slots } }
    var routes: [String: [Int]] { _read { yield fleet.routes } }
    var disabledClaims: [String: [Int]] { _read { yield fleet.disabledClaims } }
    var identities: [Data: Int] { _read { yield fleet.identities } }
    var routingEpoch: UInt64 { fleet.routingEpoch }

    // Forwarders for the request side's callers (admission, routing, the lane).
    func retryFailedSpawn(_ slot: PluginSlot) -> Bool { fleet.retryFailedSpawn(slot) }
    func isFull(_ slot: PluginSlot) -> Bool { fleet.isFull(slot) }
    @inline(__always) func noteBusy(_ slot: PluginSlot) { fleet.noteBusy(slot) }

    /// The least loaded instance of `primary` (`PluginFleet.leastLoadedInstance`), which
    /// `exchange` moves to.
    func leastLoadedInstance(of primary: PluginSlot, for exchange: Exchange, excluding: PluginSlot? = nil) -> PluginSlot {
        let chosen = fleet.leastLoadedInstance(of: primary, excluding: excluding)
        exchange.pluginIndex = chosen.index
        return chosen
    }

    // MARK: - FleetHost

    func arm(_ timer: RouterTimer, after nanoseconds: UInt64) {
        book.schedule(timer, at: deadline(after: nanoseconds))
    }

    func helloProblem(_ slot: PluginSlot, _ hello: JSON) -> String? {
        extensions.lazy.compactMap { $0.checkHello(slot, hello) }.first
    }

    func beginWaiting(_ slot: PluginSlot) {
        let waiting = slot.waiting
        slot.waiting.removeAll()
        for hostId in waiting {
            if let exchange = book[hostId] { begin(exchange, slot) }
        }
    }

    // `failInFlight` and `failWaiting`: RouterCore+Completion.swift; `retryIdempotent`:
    // RouterCore+Retry.swift.
}
