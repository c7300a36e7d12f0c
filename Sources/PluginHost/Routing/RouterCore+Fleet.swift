import Foundation
import IntentBusCore
import IntentBusWire

/// The core and its plugin fleet (Fleet/PluginFleet.swift): read-only views of the
/// fleet's tables for admission, routing and the lane. Only the fleet writes its tables;
/// the request side's answers to the fleet (`FleetHost`) are the pipeline's
/// (Pipeline/RequestPipeline.swift).
extension RouterCore {
    // MARK: - The fleet's tables, read-only

    var slots: [PluginSlot] { _read { yield fleet.slots } }
    var routes: [String: [Int]] { _read { yield fleet.routes } }
    var disabledClaims: [String: [Int]] { _read { yield fleet.disabledClaims } }
    var identities: [Data: Int] { _read { yield fleet.identities } }
    var routingEpoch: UInt64 { fleet.routingEpoch }

    // Forwarders for admission, routing and the lane.
    func retryFailedSpawn(_ slot: PluginSlot) -> Bool { fleet.retryFailedSpawn(slot) }
    func isFull(_ slot: PluginSlot) -> Bool { fleet.isFull(slot) }
    @inline(__always) func noteBusy(_ slot: PluginSlot) { fleet.noteBusy(slot) }
}
