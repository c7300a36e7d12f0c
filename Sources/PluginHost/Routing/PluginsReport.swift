import Foundation
import IntentBusCore

/// The answer to `ib.plugins` (docs/protocol.md §6): every plugin that is not retired and
/// not an instance, and every intent claimed by more than one plugin. Read only, over the
/// core's slots and routes as they stand when asked.
struct PluginsReport {
    let slots: [PluginSlot]
    /// Intent → the slots claiming it (`RouterCore.routes`).
    let routes: [String: [Int]]
    /// A plugin's instances (`PluginFleet.instancesSummary`).
    let instances: (PluginSlot) -> JSON

    var json: JSON {
        ["plugins": .array(slots.filter { !$0.retired && $0.primaryIndex == nil }.map(summary)), "conflicts": conflicts]
    }

    func summary(_ slot: PluginSlot) -> JSON {
        var o: [String: JSON] = [
            "id": .string(slot.spec.id), "name": .string(slot.spec.name), "state": .string(slot.stateName),
            "intents": .array(slot.spec.intentsSupported.map { .string($0) }),
            "styles": .object(slot.styles.mapValues { .string($0.rawValue) }),
            "restarts": .int(Int64(slot.restarts)), "in_flight": .int(Int64(slot.inFlight)),
            "exec": .string(slot.spec.exec.path),
        ]
        if let pid = slot.pid { o["pid"] = .int(Int64(pid)) }
        if slot.packedLink { o["packed_link"] = true }  // its HELLO asked for the packed form (§5.1)
        // Clients that know several hosts resend these after losing a host (docs/protocol.md).
        if !slot.spec.idempotentIntents.isEmpty { o["idempotent"] = .array(slot.spec.idempotentIntents.sorted().map { .string($0) }) }
        if !slot.instanceSlots.isEmpty { o["instances"] = instances(slot) }
        if let reason = slot.failureReason { o["reason"] = .string(reason) }
        if let e = slot.lastError { o["last_error"] = .string(e) }
        if !slot.spec.intentsRestrictedWhileLocked.isEmpty {
            o["restricted"] = .array(slot.spec.intentsRestrictedWhileLocked.map { .string($0) })
        }
        return .object(o)
    }

    /// Every intent claimed by more than one plugin, with the claimants' ids.
    var conflicts: JSON {
        var out: [String: JSON] = [:]
        for (intent, indices) in routes where indices.count > 1 {
            out[intent] = .array(indices.map { .string(slots[$0].spec.id) })
        }
        return .object(out)
    }
}
