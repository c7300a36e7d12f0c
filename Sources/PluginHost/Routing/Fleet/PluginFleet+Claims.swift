import Foundation
import IntentBusCore
import IntentBusManifest

/// Who may take a request for an intent, read from the fleet's tables: the claimants that
/// are candidates, or the final error that says why none is (unknown, disabled in the
/// manifest, disabled at run time: PluginFleet+Errors.swift). And what the end of an
/// exchange gives back to its plugin.
extension PluginFleet {
    /// The candidates for a request for `intent`, or why there is none. `named`: the
    /// request names its plugin, so one disabled at run time stays in (it then says so).
    func candidates(for intent: String, named: Bool) -> Result<[Int], BusError> {
        guard let claimants = routes[intent], !claimants.isEmpty else {
            if let disabled = disabledClaims[intent] { return .failure(disabledError(intent, disabled)) }
            return .failure(unknownIntentError(intent))
        }
        // A plugin disabled at run time is no candidate (unless named: it then says so).
        let candidates = named ? claimants : claimants.filter { !slots[$0].disabledAtRunTime }
        guard !candidates.isEmpty else { return .failure(disabledAtRunTimeError(intent, claimants)) }
        return .success(candidates)
    }

    /// An exchange of `slot` closed (`ExchangeBook.Closing.release`): one fewer in flight
    /// (noting the slot idle when it has an idle timeout), or off its waiting queue.
    func release(_ slot: PluginSlot, _ release: ExchangeBook.Release, hostId: UInt64) {
        switch release {
        case .inFlight:
            slot.inFlight -= 1
            if slot.inFlight == 0, slot.spec.lifecycle.idleTimeout != nil { noteIdle(slot) }
        case .waiting:
            if let i = slot.waiting.firstIndex(of: hostId) { slot.waiting.remove(at: i) }
        case .nothing:
            break
        }
    }
}
