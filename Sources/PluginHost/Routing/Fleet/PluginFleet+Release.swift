import Foundation
import IntentBusCore
import IntentBusManifest

/// What the end of an exchange gives back to its plugin (`ExchangeBook.Closing.release`),
/// carried out on the fleet's slot.
extension PluginFleet {
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
