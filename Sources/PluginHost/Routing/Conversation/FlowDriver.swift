import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// What a flow may do (`FlowOperations`), as a type of its own: the flows (Legacy/,
/// NewStyle/) are handed this, not the core. It reaches the core through its
/// conversation's `ConversationHost`, which keeps the one-final-answer rule.
///
/// Built and owned by its `Conversation`; confined to the router thread.
final class FlowDriver: FlowOperations {
    /// The conversation that owns this driver (it outlives it).
    unowned(unsafe) let conversation: Conversation

    init(_ conversation: Conversation) { self.conversation = conversation }

    private var host: any ConversationHost { conversation.host }

    var logger: Logger { conversation.logger }

    func sendToPlugin(_ exchange: Exchange, kind: MessageKind, header: JSON?, body: JSON?) {
        sendToPlugin(exchange, kind: kind, header: header, forwarding: body.map { Frame(json: $0) } ?? Frame())
    }

    func sendToPlugin(_ exchange: Exchange, kind: MessageKind, header: JSON?, forwarding body: Frame) {
        let host = host
        host.armDeadline(exchange)
        host.sendToPlugin(host.plugin(of: exchange), WireMessage(kind: kind, requestId: exchange.wireId, intent: exchange.intent,
                                                                 header: header.map { Frame(json: $0) } ?? Frame(), body: body),
                          exchange: exchange)
    }

    func promptClient(_ exchange: Exchange, prompt: JSON) { conversation.promptClient(exchange, prompt: prompt) }

    func progressToClient(_ exchange: Exchange, body: JSON) { conversation.progressToClient(exchange, body: body) }

    func finish(_ exchange: Exchange, header: JSON, body: JSON) {
        if host.resultTakesOver(exchange, header: header, body: body) { return }
        host.complete(exchange, WireMessage(kind: .reply, requestId: exchange.clientRequestId, intent: exchange.intent,
                                            header: header, body: body))
    }

    func finish(_ exchange: Exchange, forwarding message: WireMessage) {
        if LeadOn.mayLeadOn(message.body) {
            let body = (try? message.bodyJSON()) ?? .object([:])
            if host.resultTakesOver(exchange, header: (try? message.headerJSON()) ?? .object([:]), body: body) { return }
        }
        message.requestId = exchange.clientRequestId
        message.intent = exchange.intent
        host.complete(exchange, message)
    }

    func fail(_ exchange: Exchange, _ error: BusError) { host.fail(exchange, error) }

    func pluginSpec(of exchange: Exchange) -> PluginSpec { host.plugin(of: exchange).spec }
}
