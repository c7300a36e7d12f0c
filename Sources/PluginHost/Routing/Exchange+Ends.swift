import Foundation
import IntentBusCore

extension Exchange {
    /// The final error when its deadline passes: no Majordomo worker answered, the plugin
    /// did not answer, or it did not become ready (its state and last error said), within
    /// the exchange's timeout. A value of the exchange and its plugin's slot.
    func timeoutError(_ slot: PluginSlot) -> BusError {
        let waited = Duration.nanoseconds(Int64(timeout))
        let why = slot.spec.mdpWorker
            ? "no Majordomo worker of \(slot.spec.id) answered \(intent) within \(waited.humanText) (none was free for it, or the one that took it went silent)"
            : isDelivered
            ? "plugin \(slot.spec.id) did not answer within \(waited.humanText)"
            : "plugin \(slot.spec.id) did not become ready within \(waited.humanText) (\(slot.stateName)\(slot.lastError.map { ": \($0)" } ?? ""))"
        return BusError(.timeout, why, details: ["plugin": .string(slot.spec.id), "timeout_ms": .int(Int64(timeout / 1_000_000))])
    }
}
