import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// What the conversation part needs of the core: the open requests it looks up, the
/// exchange-ending and plugin-sending calls that keep the one-final-answer rule, and the
/// limits in force. Implemented by `RouterCore` (RouterCore+Conversation.swift).
protocol ConversationHost: AnyObject {
    var manifest: Manifest { get }
    var stats: HostStats? { get }
    /// Clients connect with CURVE keys (`host.clients`).
    var clientKeysRequired: Bool { get }
    /// Binds a client's routing id to the User-Id of its connection
    /// (`bindClient`, Pipeline/RequestPipeline+Plugins.swift).
    func bindClient(_ identity: Data, user: String?)
    /// The client's open request `requestId` (`ExchangeBook.open(client:requestId:)`).
    func openExchange(client identity: Data, requestId: String) -> Exchange?
    /// Whether the client has a request open under `requestId`, in its own table.
    func clientHasOpen(_ identity: Data, requestId: String) -> Bool
    /// Whether `exchange` is still the open exchange under its host id.
    func isOpen(_ exchange: Exchange) -> Bool
    /// The slot of the exchange's plugin.
    func plugin(of exchange: Exchange) -> PluginSlot
    func complete(_ exchange: Exchange, _ final: WireMessage)
    func fail(_ exchange: Exchange, _ error: BusError)
    func cancelAtPlugin(_ exchange: Exchange, reason: String)
    func sendToPlugin(_ slot: PluginSlot, _ msg: WireMessage, exchange: Exchange?)
    func armDeadline(_ exchange: Exchange)
    func armConversationExpiry(_ exchange: Exchange)
    /// A final result that opens another request (Results/LeadOn.swift) took over.
    func resultTakesOver(_ exchange: Exchange, header: JSON, body: JSON) -> Bool
    /// The client answered the plugin-choice prompt (Choices/).
    func pluginChoiceAnswer(_ msg: WireMessage, _ exchange: Exchange)
}

/// The client's side of a request once it is taken, and the client boundary's refusals: a
/// REQUEST's rejection, a message refused without ending anything, an ANSWER, a CANCEL,
/// the PROMPT and PROGRESS sent to the client (docs/protocol.md §3, §4.8). It owns the
/// refusal summary; it reaches the core only through `ConversationHost`. The flows talk
/// to it through `flows` (FlowDriver.swift), never to the core.
///
/// Confined to the router thread, like the core that holds it (`RouterCore.conversation`).
final class Conversation {
    let logger: Logger
    /// The shell's effects (the core's, unowned for the same reason).
    unowned(unsafe) let effects: any RouterEffects
    /// The core, set right after it has built this part.
    unowned(unsafe) var host: (any ConversationHost)!
    /// What the flows may do (FlowDriver.swift).
    private(set) var flows: FlowDriver!
    /// Rejected requests and refused messages, which any client can cause at will: one
    /// line, then a count every 10 s.
    private var refusals = RefusalSummary(subject: "clients", level: .info)

    init(logger: Logger, effects: any RouterEffects) {
        self.logger = logger
        self.effects = effects
        flows = FlowDriver(self)
    }

    // MARK: - The client's messages

    /// A message a client sent (its frames, identity first). An ANSWER, a CANCEL, a
    /// HEARTBEAT, what can't be decoded and what a client may not send are handled here;
    /// a REQUEST is returned, for the core to start.
    func clientFrames(_ frames: [Frame]) -> (RoutingEnvelope, WireMessage)? {
        guard let (envelope, rest) = RoutingEnvelope.split(frames) else { return nil }
        let msg: WireMessage
        do { msg = try WireMessage.decode(rest) } catch {
            undecodable(envelope, rest, error)
            return nil
        }
        if host.clientKeysRequired, frames.count > 1 { host.bindClient(envelope.identity, user: frames[1].property("User-Id")) }
        switch msg.kind {
        case .request: return (envelope, msg)
        case .answer: clientAnswer(envelope, msg)
        case .cancel: clientCancel(envelope, msg)
        case .heartbeat:
            // A client may ask whether the host is there: one HEARTBEAT answers (§3).
            effects.sendToClient(envelope, WireMessage(kind: .heartbeat, requestId: "", intent: ""))
        default:
            refuse(envelope, kind: msg.kind.rawValue, requestId: msg.requestId, intent: msg.intent,
                   BusError(.badFrame, "clients may send REQUEST, ANSWER, CANCEL or HEARTBEAT, not \(msg.kind.rawValue)"))
        }
        return nil
    }

    // MARK: - Refusals

    /// A REQUEST's final answer when the host can't take it: an ERROR under its id.
    func reject(_ envelope: RoutingEnvelope, _ msg: WireMessage, _ error: BusError) {
        // Every one at debug; at info, one line and then counts (RefusalSummary).
        logger.debug("request \(msg.requestId) for \(msg.intent): \(error)", [("request", msg.requestId)])
        refusals.refused("\(error.code.rawValue)", detail: "request \(msg.requestId) for \(msg.intent): \(error)",
                         metadata: [("request", msg.requestId)], now: effects.now(), logger: logger)
        host.stats?.rejected(error, intent: msg.intent)
        effects.sendToClient(envelope, WireMessage(kind: .error, requestId: msg.requestId, intent: msg.intent,
                                                   header: nil, body: error.json))
    }

    /// Refuses one message without ending anything: `REFUSED` is never final, so a request
    /// open under `requestId` goes on and still gets its one final answer.
    /// The header names the refused kind when it could be read.
    func refuse(_ envelope: RoutingEnvelope, kind: String?, requestId: String, intent: String, _ error: BusError) {
        logger.debug("refused \(kind ?? "a message") \(requestId.isEmpty ? "" : "for request \(requestId) ")from a client: \(error)")
        refusals.refused("refused \(kind ?? "message"): \(error.code.rawValue)",
                         detail: "refused \(kind ?? "a message") \(requestId.isEmpty ? "" : "for request \(requestId) ")from a client: \(error)",
                         now: effects.now(), logger: logger)
        effects.sendToClient(envelope, WireMessage(kind: .refused, requestId: requestId, intent: intent,
                                                   header: kind.map { ["refused": .string($0)] }, body: error.json))
    }

    /// A client message that could not be decoded. A REQUEST under an id that is not open
    /// gets its final ERROR (the request ends before it began); anything else, including
    /// a REQUEST reusing an open id, is refused.
    func undecodable(_ envelope: RoutingEnvelope, _ rest: ArraySlice<Frame>, _ error: WireError) {
        logger.warning("malformed message from a client: \(error.message)")
        let frames = Array(rest.prefix(4))
        let kind = frames.count > 1 ? MessageKind(frame: frames[1]) : nil
        // An id the protocol forbids (too long, not UTF-8) is never echoed.
        var requestId = ""
        if frames.count > 2, frames[2].count <= WireProtocol.maxNameLength, let id = frames[2].validUTF8 { requestId = id }
        let isOpen = host.clientHasOpen(envelope.identity, requestId: requestId)
        if kind == .request, !requestId.isEmpty, !isOpen {
            return effects.sendToClient(envelope, WireMessage(kind: .error, requestId: requestId, intent: "",
                                                              header: nil, body: error.busError.json))
        }
        refuse(envelope, kind: kind?.rawValue, requestId: requestId, intent: "", error.busError)
    }

    func clientAnswer(_ envelope: RoutingEnvelope, _ msg: WireMessage) {
        guard let exchange = host.openExchange(client: envelope.identity, requestId: msg.requestId) else {
            return refuse(envelope, kind: "ANSWER", requestId: msg.requestId, intent: msg.intent, BusError(.conversationExpired,
                "no open conversation \"\(msg.requestId)\": it has ended or expired, or never existed"))
        }
        guard exchange.isAwaitingClient else {
            return refuse(envelope, kind: "ANSWER", requestId: msg.requestId, intent: msg.intent, BusError(.unexpectedAnswer,
                "request \"\(msg.requestId)\" is not waiting for an answer (no question is open); the request goes on"))
        }
        let limit = host.manifest.host.limits.maxMessageSize
        if msg.header.count + msg.body.count > limit {
            return refuse(envelope, kind: "ANSWER", requestId: msg.requestId, intent: msg.intent, BusError(.tooLarge,
                "the answer is \(msg.header.count + msg.body.count) bytes; this host takes at most \(limit); answer again"))
        }
        if exchange.choosing != nil { return host.pluginChoiceAnswer(msg, exchange) }
        exchange.stage = .delivered
        if let flow = exchange.flow {
            // The flow's next step arms the deadline itself (a message to the plugin, a
            // new question); only a step that does neither is armed here, so an answer
            // arms it once, not twice.
            let armed = exchange.generation
            flow.clientAnswer(msg, exchange, flows)
            if exchange.generation == armed, host.isOpen(exchange) { host.armDeadline(exchange) }
            return
        }
        host.armDeadline(exchange)
        host.sendToPlugin(host.plugin(of: exchange), WireMessage(kind: .answer, requestId: exchange.wireId, intent: exchange.intent,
                                                                 header: Frame(), body: msg.body), exchange: exchange)
    }

    func clientCancel(_ envelope: RoutingEnvelope, _ msg: WireMessage) {
        guard let exchange = host.openExchange(client: envelope.identity, requestId: msg.requestId) else {
            // Already ended (its final answer was sent: a second CANCEL too), or never open.
            return refuse(envelope, kind: "CANCEL", requestId: msg.requestId, intent: msg.intent, BusError(.conversationExpired,
                "no open request \"\(msg.requestId)\" to cancel: it has ended (its final answer was sent) or never existed"))
        }
        host.cancelAtPlugin(exchange, reason: "cancelled by the client")
        host.fail(exchange, BusError(.cancelled, "the client cancelled the request"))
    }

    // MARK: - To the client

    /// Sends a PROMPT to the client; the plugin timeout pauses until the answer.
    func promptClient(_ exchange: Exchange, prompt: JSON) {
        if exchange.isDelivered { exchange.stage = .prompting }  // a plugin choice stays `choosing`
        host.armConversationExpiry(exchange)
        effects.sendToClient(exchange.client, WireMessage(kind: .prompt, requestId: exchange.clientRequestId,
                                                          intent: exchange.intent, header: nil, body: prompt))
    }

    /// Sends a PROGRESS update to the client (not to a REQ client, which must alternate).
    func progressToClient(_ exchange: Exchange, body: JSON) {
        guard !exchange.client.isRequestReply else { return }
        effects.sendToClient(exchange.client, WireMessage(kind: .progress, requestId: exchange.clientRequestId,
                                                          intent: exchange.intent, header: nil, body: body))
    }
}
