import Foundation
import IntentBusCore
import IntentBusManifest

/// Several processes of one plugin (`instances: N`, docs/lifecycle.md "Instances").
///
/// Each process has a slot of its own (its pid, connection, heartbeats, crashes and
/// breaker are its own). Only the first slot, the primary, is in the routing table and
/// in `ib.plugins`; a request routed to it goes to the least loaded ready instance at
/// dispatch. The others carry `primaryIndex` and `INTENTBUS_INSTANCE=n` in their
/// environment.
extension PluginFleet {
    // MARK: - Slots

    /// Adds the slots of `primary`'s further instances (at start, or for a new entry).
    func addInstanceSlots(_ primary: PluginSlot) {
        while primary.instanceSlots.count < primary.spec.instances - 1 {
            let number = primary.instanceSlots.count + 1
            let slot = PluginSlot(index: slots.count, spec: instanceSpec(primary.spec, number: number))
            slot.primaryIndex = primary.index
            append(slot)
            primary.instanceSlots.append(slot.index)
        }
    }

    /// The entry of instance `number` (1…): the plugin's, with its number in the environment.
    func instanceSpec(_ spec: PluginSpec, number: Int) -> PluginSpec {
        var copy = spec
        copy.environment["INTENTBUS_INSTANCE"] = String(number)
        return copy
    }

    /// The slot a HELLO comes from: the one of this id whose process has this token (an
    /// instance), else the first of this id (its token check then says what is wrong).
    func helloSlot(id: String, token: String?) -> PluginSlot? {
        var first: PluginSlot?
        for slot in slots where slot.spec.id == id && !slot.retired {
            if let token, case .starting = slot.state, constantTimeEquals(token, slot.token) { return slot }
            if first == nil { first = slot }
        }
        return first ?? slots.first { $0.spec.id == id }
    }

    /// The primary and its instances still in use.
    func instanceGroup(_ primary: PluginSlot) -> [PluginSlot] {
        [primary] + primary.instanceSlots.map { slots[$0] }.filter { !$0.retired }
    }

    // MARK: - Spreading

    /// The ready instance of `primary` with the fewest requests in flight or waiting;
    /// when none is ready, one that is starting, else the primary (on demand: every
    /// stopped instance is started). The core moves the request to it
    /// (`RouterCore.leastLoadedInstance(of:for:excluding:)`).
    func leastLoadedInstance(of primary: PluginSlot, excluding: PluginSlot? = nil) -> PluginSlot {
        let group = instanceGroup(primary).filter { $0 !== excluding && !$0.disabledAtRunTime }
        var best: PluginSlot?
        for slot in group where slot.identity != nil {
            if best.map({ slot.inFlight + slot.waiting.count < $0.inFlight + $0.waiting.count }) ?? true { best = slot }
        }
        if best == nil {
            for slot in group {
                guard case .starting = slot.state else { continue }
                if best.map({ slot.waiting.count < $0.waiting.count }) ?? true { best = slot }
            }
            for slot in group { activateIfNeeded(slot) }
        }
        return best ?? group.first ?? excluding ?? primary
    }

    /// Whether `slot` (for a primary: every ready instance, or every instance when none
    /// is ready) already holds `max_in_flight` requests.
    func isFull(_ slot: PluginSlot) -> Bool {
        func full(_ s: PluginSlot) -> Bool { s.inFlight + s.waiting.count >= s.spec.maxInFlight }
        guard !slot.instanceSlots.isEmpty else { return full(slot) }
        let group = instanceGroup(slot)
        let ready = group.filter { $0.identity != nil }
        return (ready.isEmpty ? group : ready).allSatisfy(full)
    }

    // MARK: - ib.plugins

    /// Each instance's pid, state, requests in flight and restarts.
    func instancesSummary(_ primary: PluginSlot) -> JSON {
        .array(instanceGroup(primary).enumerated().map { number, slot in
            var o: [String: JSON] = ["instance": .int(Int64(number)), "state": .string(slot.stateName),
                                     "in_flight": .int(Int64(slot.inFlight)), "restarts": .int(Int64(slot.restarts))]
            if let pid = slot.pid { o["pid"] = .int(Int64(pid)) }
            return .object(o)
        })
    }
}
