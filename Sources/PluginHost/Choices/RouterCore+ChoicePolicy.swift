import Foundation
import IntentBusCore
import IntentBusStore
import IntentBusWire

/// The request side of a plugin choice (docs/choices.md): the prompt to the client and
/// its answer, which routes the request (the choice itself: ChoiceCore.swift).
///
/// Everything here runs on the router thread.
extension RouterCore {
    // MARK: - The prompt

    /// Puts a new exchange in the choosing stage and asks its client.
    func askForPlugin(_ exchange: Exchange, candidates: [Int], prompt: JSON) {
        guard case .pending(let header, let body) = exchange.stage else { return }
        exchange.stage = .choosing(PluginChoiceStage(candidates: candidates, staleReason: prompt["reason"]?.stringValue),
                                   header: header, body: body)
        logger.debug("request \(exchange.clientRequestId) (\(exchange.intent)): asking the client to choose among \(candidates.map { slots[$0].spec.id })")
        promptClient(exchange, prompt: prompt)
    }

    /// The client answered the plugin-choice prompt: route to its pick (remembering it
    /// for "always"), or ask again when the answer is unusable.
    func pluginChoiceAnswer(_ msg: WireMessage, _ exchange: Exchange) {
        guard case .choosing(let stage, let header, let body) = exchange.stage else { return }
        let index: Int, always: Bool
        switch choicePolicy(exchange.intent, stage.candidates).answer(try? msg.bodyJSON(), badAnswers: stage.badAnswers,
                                                                       staleReason: stage.staleReason) {
        case .chosen(let chosen, let remember): (index, always) = (chosen, remember)
        case .askAgain(let prompt):
            stage.badAnswers += 1
            return promptClient(exchange, prompt: prompt)
        case .failure(let error):
            stage.badAnswers += 1
            return fail(exchange, error)
        }
        exchange.stage = .pending(header: header, body: body)
        exchange.pluginIndex = index
        let slot = slots[index]
        if let error = admissionError(slot, intent: exchange.intent, options: exchange.options) {
            return fail(exchange, error)
        }
        exchange.timeout = requestTimeout(slot, options: exchange.options)
        guard always else { return pipeline.dispatch(exchange, slot) }
        // Stored before the request goes on (docs/choices.md); a client over its rate of
        // changes gets its pick for this request only.
        guard exchange.clientState.takeWriteToken(now: effects.now(), perSecond: manifest.host.limits.choiceWritesPerSecond,
                                                  burst: manifest.host.limits.choiceWriteBurst) else {
            logger.warning("not remembering \(slot.spec.id) for \(exchange.intent): the client changes choices too often")
            return pipeline.dispatch(exchange, slot)
        }
        pipeline.armDeadline(exchange)
        rememberChoice(intent: exchange.intent, client: choiceClient(exchange.options),
                       plugin: slot.spec.id, source: "always") { [unowned self] in
            if book[exchange.hostId] === exchange { pipeline.dispatch(exchange, slot) }
        }
    }
}
