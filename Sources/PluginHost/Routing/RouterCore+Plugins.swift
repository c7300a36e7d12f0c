import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// Messages from plugins: what concerns a request goes to its exchange (the plain path,
/// or its flow); a HELLO or a DISCONNECT goes to the fleet (Fleet/PluginFleet.swift).
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
        guard let index = identities[envelope.identity] else {
            if msg.kind == .hello {
                return fleet.handshake(envelope, msg, user: frames.count > 1 ? frames[1].property("User-Id") : nil)
            }
            logger.warning("\(msg.kind.rawValue) from a peer that has not said HELLO; rejected")
            _ = effects.sendToPlugin(envelope.identity, WireMessage(kind: .reject, header: nil,
                body: ["code": "handshake_required", "reason": "say HELLO first"]).frames)
            return
        }
        let slot = slots[index]
        slot.lastHeard = effects.now()  // any message is a sign of life
        switch msg.kind {
        case .reply, .error, .prompt, .progress:
            if !hostQueries.isEmpty, let id = hostQueries[msg.requestId] { return hostQueryAnswered(id, msg, slot) }
            guard let exchange = book[wireId: msg.requestId], exchange.pluginIndex == index, exchange.isDelivered else {
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
                flow.pluginMessage(msg, exchange, self)
            } else {
                relayPlain(msg, exchange)
            }
        case .disconnect:
            logger.info("plugin \(slot.spec.id) said DISCONNECT")
            fleet.connectionLost(slot, envelope.identity)
        case .hello:
            fleet.handshake(envelope, msg, user: frames.count > 1 ? frames[1].property("User-Id") : nil)
        case .heartbeat:
            break
        default:
            logger.warning("plugin \(slot.spec.id) sent \(msg.kind.rawValue), which plugins may not send")
        }
    }

    /// The plain path: forward the plugin's message itself to the client, under the client's
    /// request id and intent, moving its frames.
    func relayPlain(_ msg: WireMessage, _ exchange: Exchange) {
        let slot = slots[exchange.pluginIndex]
        if let problem = pluginMessageProblem(msg, slot) {
            logger.warning("plugin \(slot.spec.id) broke the protocol on request \(exchange.clientRequestId): \(problem)")
            if msg.kind == .progress { return }  // not needed: dropped
            if msg.kind == .prompt { cancelAtPlugin(exchange, reason: "invalid prompt") }
            return fail(exchange, BusError(.pluginError, "plugin \(slot.spec.id) sent an invalid answer: \(problem)",
                                           details: ["plugin": .string(slot.spec.id)]))
        }
        nameReplyPlugin(msg, slot)
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
