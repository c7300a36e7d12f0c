import Foundation
import IntentBusCore
import IntentBusStore
import IntentBusWire

/// Carrying out the choice policy (ChoicePolicy.swift) when several plugins claim an
/// intent (docs/choices.md): the policy decides, `ChoiceDefaults` finds the default that
/// applies; the core retries a failed spawn, stores "always" choices and sends the prompt.
///
/// Everything here runs on the router thread. Uncontested intents never get here past
/// the first two checks of `choosePlugin`, and build no policy.
extension RouterCore {
    // MARK: - Routing

    /// The policy over the current plugins for `candidates` of `intent`.
    func choicePolicy(_ intent: String, _ candidates: [Int]) -> ChoicePolicy {
        ChoicePolicy(intent: intent, candidates: candidates, slots: slots)
    }

    /// The defaults that apply now (Choices/ChoiceDefaults.swift).
    var choiceDefaults: ChoiceDefaults {
        ChoiceDefaults(book: choiceBook, presets: manifest.host.presetDefaults, slots: slots, disabledClaims: disabledClaims,
                       retryFailedSpawn: { [unowned self] in retryFailedSpawn($0) })
    }

    /// The remembered-choice key of a request (`ChoiceDefaults.client`).
    func choiceClient(_ options: JSON) -> String? { ChoiceDefaults.client(options, context: manifest.host.choiceContext) }

    /// Picks the plugin for a request. A `plugin` named in the header wins (and is
    /// remembered with `remember: true`); a single claimant is taken; otherwise the
    /// policy applies the remembered or preset default and the header's `choice`.
    func choosePlugin(_ intent: String, candidates: [Int], options: JSON) -> PluginChoice {
        if let named = options["plugin"]?.stringValue { return choicePolicy(intent, candidates).named(named) }
        let client = choiceClient(options)
        // The plain path builds nothing: no disabled claimant, no default to look up.
        if candidates.count == 1, disabledClaims[intent] == nil || !choiceDefaults.defaultIsDisabled(intent, client: client) {
            return .plugin(candidates[0])
        }
        guard let mode = ChoicePolicy.Mode(header: options["choice"]) else { return .failure(ChoicePolicy.badMode(options["choice"])) }
        let policy = choicePolicy(intent, candidates)
        let decision = policy.decide(mode, default: choiceDefaults.applicable(intent, client: client, startFailed: true))
        if case .plugin = decision.outcome { logger.debug("\(intent): \(decision.explanation)") }
        return policy.choice(decision)
    }

    /// Stores a choice, then calls `then` once it has committed; logs rather than failing
    /// the request when the store can't.
    func rememberChoice(intent: String, client: String?, plugin: String, source: String, then: @escaping () -> Void) {
        choiceBook.remember(intent: intent, client: client, plugin: plugin, source: source) { [logger] result in
            switch result {
            case .success(let choice):
                logger.info("remembered \(plugin) for \(intent)\(choice.client.map { " (client \($0))" } ?? "") (\(source))")
            case .failure(let error):
                logger.error("could not remember \(plugin) for \(intent): \(error); it applies to this request only")
            }
            then()
        }
    }

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
        guard always else { return dispatch(exchange, slot) }
        // Stored before the request goes on (docs/choices.md); a client over its rate of
        // changes gets its pick for this request only.
        guard exchange.clientState.takeWriteToken(now: effects.now(), perSecond: manifest.host.limits.choiceWritesPerSecond,
                                                  burst: manifest.host.limits.choiceWriteBurst) else {
            logger.warning("not remembering \(slot.spec.id) for \(exchange.intent): the client changes choices too often")
            return dispatch(exchange, slot)
        }
        armDeadline(exchange)
        rememberChoice(intent: exchange.intent, client: choiceClient(exchange.options),
                       plugin: slot.spec.id, source: "always") { [unowned self] in
            if book[exchange.hostId] === exchange { dispatch(exchange, slot) }
        }
    }
}
