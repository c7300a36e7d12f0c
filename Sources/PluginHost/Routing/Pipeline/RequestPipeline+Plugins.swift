import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// A plugin's message for a request (the core has had the fleet sort it: its slot comes
/// with it) goes to its exchange: the plain path, or its flow. And a client connection
/// that has gone: its exchanges end.
extension RequestPipeline {
    /// A REPLY, ERROR, PROMPT or PROGRESS that `slot` sent for a request.
    func pluginMessage(_ msg: WireMessage, _ slot: PluginSlot) {
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
            flow.pluginMessage(msg, exchange, host.flows)
        } else {
            relayPlain(msg, exchange)
        }
    }

    /// The plain path: forward the plugin's message itself to the client, under the client's
    /// request id and intent, moving its frames.
    func relayPlain(_ msg: WireMessage, _ exchange: Exchange) {
        let slot = slots[exchange.pluginIndex]
        if let problem = PluginOutput.problem(msg, slot, limit: host.limits.maxMessageSize) {
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

    // MARK: - A client connection bound to its identity

    /// A client message's User-Id on a CURVE frontend, checked against its routing id's.
    ///
    /// Every message is bound to the identity its connection authenticated with (CURVE and
    /// ZAP: the `User-Id` libzmq gives each message), not just to its ZeroMQ routing id.
    /// A peer may choose its own routing id (`ZMQ_ROUTING_ID`). libzmq refuses one that a
    /// live connection holds (ROUTER_HANDOVER is off), but the host is never told that a
    /// connection has gone, so a second connection could set the first one's id after it
    /// left and be taken for it: its grant, its open requests, a plugin's slot. A message
    /// whose User-Id differs from the one the routing id was first seen with therefore
    /// proves that the earlier connection is gone: what it held ends (its requests
    /// cancelled and never answered to the newcomer, a plugin's connection lost as after
    /// DISCONNECT), nothing passes to the new connection, and a warning names both.
    ///
    /// One metadata lookup per message, and only where the side is CURVE (on ipc and
    /// `insecure` tcp there is no User-Id: the file system, or the network, is the
    /// boundary; docs/security.md). The plugin side's check is the fleet's
    /// (`PluginFleet.pluginMessageBound`).
    func bindClient(_ identity: Data, user: String?) {
        let state = book.clients.state(for: identity)
        if !state.bound {
            (state.user, state.bound) = (user, true)
            return
        }
        guard state.user != user else { return }
        // Its lane requests first, so that they end with the others (their REPLY would
        // otherwise take the lane to the routing id: the newcomer).
        host.promoteLane(client: identity)
        logger.warning("a connection authenticated as \(user ?? "nobody") reused the routing id \(routingIdHex(identity)) of one authenticated as \(state.user ?? "nobody"), which has gone: its \(state.open.count) open requests are cancelled and the new connection gets nothing of it")
        let (open, fresh) = book.clientGone(state)
        (fresh.user, fresh.bound) = (user, true)
        for exchange in open {
            cancelAtPlugin(exchange, reason: "the client has gone away")
            fail(exchange, BusError(.cancelled, "the client's connection has gone"))
        }
    }
}

/// Routing ids in log lines: hex, since they are bytes a peer chose.
func routingIdHex(_ identity: Data) -> String {
    identity.prefix(32).map { String(format: "%02x", $0) }.joined()
}
