import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// Messages from plugins: what concerns a request goes to its exchange (the plain path,
/// or its flow); the rest (HELLO, DISCONNECT, …) is the fleet's (`PluginFleet.received`).
extension RouterCore {
    /// A message a plugin sent (its frames, connection identity first).
    func pluginFrames(_ frames: [Frame]) {
        assertConfined()
        guard let (envelope, rest) = RoutingEnvelope.split(frames) else { return }
        let msg: WireMessage
        do { msg = try WireMessage.decode(rest) } catch {
            let who = identities[envelope.identity].map { slots[$0].spec.id } ?? "an unknown peer"
            logger.warning("malformed message from \(who) on the backend: \(error.message)")
            return
        }
        // HELLO, DISCONNECT, HEARTBEAT and the rest are the fleet's; it returns the slot of
        // a REPLY, ERROR, PROMPT or PROGRESS, which concerns a request.
        guard let slot = fleet.received(envelope, msg, user: { frames.count > 1 ? frames[1].property("User-Id") : nil }) else { return }
        if !hostQueries.isEmpty, let id = hostQueries[msg.requestId] { return hostQueryAnswered(id, msg, slot) }
        guard let exchange = book[wireId: msg.requestId], exchange.pluginIndex == slot.index, exchange.isDelivered else {
            logger.debug("\(msg.kind.rawValue) for request \(msg.requestId) from \(slot.spec.id) arrived after it ended; dropped")
            return
        }
        if msg.kind == .prompt, case .prompting = exchange.stage {
            // One open question per request: a plugin's 2,000 PROMPTs for one request
            // were all relayed to the client before its first answer.
            logger.warning("plugin \(slot.spec.id) asked a second question on request \(exchange.clientRequestId) before the first was answered")
            cancelAtPlugin(exchange, reason: "a second PROMPT while one was open")
            return fail(exchange, BusError(.pluginError, "plugin \(slot.spec.id) sent a PROMPT while its previous one was unanswered; a request has one open question at a time",
                                           details: ["plugin": .string(slot.spec.id)]))
        }
        if let flow = exchange.flow {
            flow.pluginMessage(msg, exchange, conversation.flows)
        } else {
            relayPlain(msg, exchange)
        }
    }

    /// The plain path: forward the plugin's message itself to the client, under the client's
    /// request id and intent, moving its frames.
    func relayPlain(_ msg: WireMessage, _ exchange: Exchange) {
        let slot = slots[exchange.pluginIndex]
        if let problem = PluginOutput.problem(msg, slot, limit: manifest.host.limits.maxMessageSize) {
            logger.warning("plugin \(slot.spec.id) broke the protocol on request \(exchange.clientRequestId): \(problem)")
            if msg.kind == .progress { return }  // not needed: dropped
            if msg.kind == .prompt { cancelAtPlugin(exchange, reason: "invalid prompt") }
            return fail(exchange, BusError(.pluginError, "plugin \(slot.spec.id) sent an invalid answer: \(problem)",
                                           details: ["plugin": .string(slot.spec.id)]))
        }
        PluginOutput.nameReplyPlugin(msg, slot)
        msg.requestId = exchange.clientRequestId
        msg.intent = exchange.intent
        switch msg.kind {
        case .reply, .error:
            complete(exchange, msg)
        case .prompt:
            exchange.stage = .prompting
            armConversationExpiry(exchange)
            effects.sendToClient(exchange.client, msg)
        case .progress:
            guard !exchange.client.isRequestReply else { return }
            effects.sendToClient(exchange.client, msg)
        default:
            break
        }
    }

}
