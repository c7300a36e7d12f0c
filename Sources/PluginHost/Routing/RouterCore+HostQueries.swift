import Foundation
import IntentBusCore
import IntentBusWire

/// Requests the host sends a plugin on its own behalf, for an extension (the shortcuts
/// extension's entity lists, docs/sentences.md): no client, no exchange. The plugin sees an
/// ordinary REQUEST whose id starts with `h-` (exchange ids are base 36, without `-`),
/// answers it like any other, and the answer goes to the extensions' `finished(id:result:)`.
extension RouterCore {
    /// At most this many open at once: a plugin that never answers can't grow the table.
    static let maximumHostQueries = 256

    func queryPlugin(_ plugin: String, intent: String, body: JSON, id: UInt64) -> Bool {
        assertConfined()
        guard hostQueries.count < Self.maximumHostQueries, !stopping, !draining,
              let slot = slots.first(where: { $0.spec.id == plugin && $0.identity != nil }) else { return false }
        let wireId = "h-\(id)"
        hostQueries[wireId] = id
        sendToPlugin(slot, WireMessage(kind: .request, requestId: wireId, intent: intent, header: nil, body: body), exchange: nil)
        return true
    }

    /// The plugin answered a host query: its REPLY body, or its ERROR as a `BusError`.
    /// PROMPT and PROGRESS are not expected (an entity query asks nothing): dropped, and
    /// a PROMPT is cancelled so that the plugin does not wait for an answer.
    func hostQueryAnswered(_ id: UInt64, _ msg: WireMessage, _ slot: PluginSlot) {
        switch msg.kind {
        case .reply:
            hostQueries.removeValue(forKey: msg.requestId)
            let result: Result<JSON, BusError>
            do { result = .success(try msg.bodyJSON()) } catch {
                result = .failure(BusError(.pluginError, "plugin \(slot.spec.id) answered with a body that is not JSON: \(error.message)"))
            }
            for ext in extensions { ext.finished(id: id, result: result) }
        case .error:
            hostQueries.removeValue(forKey: msg.requestId)
            let body = (try? msg.bodyJSON()) ?? .object([:])
            let message = body["message"]?.stringValue ?? "plugin \(slot.spec.id) failed the host's query"
            for ext in extensions { ext.finished(id: id, result: .failure(BusError(.pluginError, message))) }
        case .prompt:
            hostQueries.removeValue(forKey: msg.requestId)
            sendToPlugin(slot, WireMessage(kind: .cancel, requestId: msg.requestId, intent: msg.intent, header: nil,
                                           body: ["reason": "the host's own query can't answer questions"]), exchange: nil)
            for ext in extensions {
                ext.finished(id: id, result: .failure(BusError(.pluginError, "plugin \(slot.spec.id) asked a question in reply to the host's query")))
            }
        default:
            break
        }
    }

    /// Forgets a host query the extension gave up on (no answer in time): a late answer
    /// is then dropped like any stray one, and the table can't fill with dead queries.
    func forgetQuery(id: UInt64) {
        hostQueries.removeValue(forKey: "h-\(id)")
    }
}
