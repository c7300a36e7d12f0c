import Foundation
import IntentBusCore
import IntentBusWire

/// Sending the host's own queries (HostQueries.swift holds the open ones) and handing
/// their answers to the extensions.
extension RouterCore {
    func queryPlugin(_ plugin: String, intent: String, body: JSON, id: UInt64) -> Bool {
        assertConfined()
        guard !stopping, !draining, let slot = slots.first(where: { $0.spec.id == plugin && $0.identity != nil }),
              let wireId = hostQueries.open(id: id) else { return false }
        sendToPlugin(slot, WireMessage(kind: .request, requestId: wireId, intent: intent, header: nil, body: body), exchange: nil)
        return true
    }

    /// The plugin answered a host query: its REPLY body, or its ERROR as a `BusError`.
    /// PROMPT and PROGRESS are not expected (an entity query asks nothing): dropped, and
    /// a PROMPT is cancelled so that the plugin does not wait for an answer.
    func hostQueryAnswered(_: UInt64, _ msg: WireMessage, _ slot: PluginSlot) {
        guard let (id, result, cancel) = hostQueries.answered(msg, pluginId: slot.spec.id) else { return }
        if cancel {
            sendToPlugin(slot, WireMessage(kind: .cancel, requestId: msg.requestId, intent: msg.intent, header: nil,
                                           body: ["reason": "the host's own query can't answer questions"]), exchange: nil)
        }
        for ext in extensions { ext.finished(id: id, result: result) }
    }

    func forgetQuery(id: UInt64) { hostQueries.forget(id: id) }
}
