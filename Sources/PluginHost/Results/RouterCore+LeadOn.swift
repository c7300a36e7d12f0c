import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// Carrying out a result that leads on (LeadOn.swift decides): the exchange ends through
/// `complete` with a non-final `RESULT`, and the opened intent starts with `startRequest`
/// under the client's request id, so "exactly one final answer" needs no new path.
///
/// Runs on the router thread; `finish` calls `resultTakesOver` for every flow's REPLY.
extension RouterCore {
    /// Returns true when it has ended the exchange itself: a bad view or opening
    /// (`plugin_error`), a chain that is too long, or an opened intent now under way.
    func resultTakesOver(_ exchange: Exchange, header: JSON, body: JSON) -> Bool {
        let pluginIndex = exchange.pluginIndex
        let leadOn = LeadOn(intent: exchange.intent, pluginId: slots[pluginIndex].spec.id, options: exchange.options,
                            openedBy: exchange.openedBy) { [routes] in routes[$0]?.contains(pluginIndex) == true }
        switch leadOn.decide(header: header, body: body) {
        case .ordinary:
            return false
        case .fault(let error):
            fail(exchange, error)
            return true
        case .opens(let intent, let resultHeader, let request, let chain):
            logger.info("request \(exchange.clientRequestId): \(exchange.intent) (\(leadOn.pluginId)) opens \(intent)",
                        [("request", exchange.clientRequestId)])
            pipeline.complete(exchange, WireMessage(kind: .result, requestId: exchange.clientRequestId, intent: exchange.intent,
                                           header: .object(resultHeader), body: body))
            startRequest(exchange.client, WireMessage(kind: .request, requestId: exchange.clientRequestId, intent: intent,
                                                      header: request.header, body: request.parameters))
            if let next = book.open(client: exchange.client.identity, requestId: exchange.clientRequestId) {
                next.openedBy = chain
            }
            return true
        }
    }
}
