import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// The core's side of the conversation part (Conversation/Conversation.swift), and the
/// calls other parts of the core make on the client's side and on the rules that are now
/// parts' own (Authentication, PluginFleet's claims).
extension RouterCore: ConversationHost {
    func openExchange(client identity: Data, requestId: String) -> Exchange? {
        book.open(client: identity, requestId: requestId)
    }

    // The exchanges' ends, deadlines and plugin messages are the pipeline's.
    func complete(_ exchange: Exchange, _ final: WireMessage) { pipeline.complete(exchange, final) }
    func fail(_ exchange: Exchange, _ error: BusError) { pipeline.fail(exchange, error) }
    func cancelAtPlugin(_ exchange: Exchange, reason: String) { pipeline.cancelAtPlugin(exchange, reason: reason) }
    func sendToPlugin(_ slot: PluginSlot, _ msg: WireMessage, exchange: Exchange?) { pipeline.sendToPlugin(slot, msg, exchange: exchange) }
    func armDeadline(_ exchange: Exchange) { pipeline.armDeadline(exchange) }
    func armConversationExpiry(_ exchange: Exchange) { pipeline.armConversationExpiry(exchange) }
    /// Binds a client's routing id to its connection's User-Id (`RequestPipeline.bindClient`).
    func bindClient(_ identity: Data, user: String?) { pipeline.bindClient(identity, user: user) }

    func clientHasOpen(_ identity: Data, requestId: String) -> Bool {
        book.clients.existing(identity)?.open[requestId] != nil
    }

    func isOpen(_ exchange: Exchange) -> Bool { book[exchange.hostId] === exchange }

    func plugin(of exchange: Exchange) -> PluginSlot { slots[exchange.pluginIndex] }

    /// A REQUEST's final ERROR when the host can't take it (`Conversation.reject`).
    func reject(_ envelope: RoutingEnvelope, _ msg: WireMessage, _ error: BusError) {
        conversation.reject(envelope, msg, error)
    }

    /// A client message the shell could not read (`Conversation.undecodable`).
    func undecodable(_ envelope: RoutingEnvelope, _ rest: ArraySlice<Frame>, _ error: WireError) {
        conversation.undecodable(envelope, rest, error)
    }

    /// Sends a PROMPT to the client (`Conversation.promptClient`).
    func promptClient(_ exchange: Exchange, prompt: JSON) { conversation.promptClient(exchange, prompt: prompt) }

    /// Changing remembered choices beyond one's own needs `manage_choices`
    /// (`Authentication.choiceChangeProblem`).
    func choiceChangeProblem(_ request: ControlRequest) -> BusError? { authentication.choiceChangeProblem(request) }
}
