import Foundation
import IntentBusCore
import IntentBusStore
import IntentBusWire

/// What an exchange in the "choosing" stage remembers: the plugins offered, and how
/// many unusable answers the client has sent.
final class PluginChoiceStage {
    let candidates: [Int]
    /// Why the client's default no longer applies, repeated when asking again.
    let staleReason: String?
    var badAnswers = 0

    init(candidates: [Int], staleReason: String?) {
        self.candidates = candidates
        self.staleReason = staleReason
    }
}

/// Carrying out the choice policy (ChoicePolicy.swift) when several plugins claim an
/// intent (docs/choices.md): the core finds the default that applies, retries a failed
/// spawn, stores "always" choices and sends the prompt; the policy decides.
///
/// Everything here runs on the router thread. Uncontested intents never get here past
/// the first two checks of `choosePlugin`, and build no policy.
extension RouterCore {
    // MARK: - Routing

    /// The policy over the current plugins for `candidates` of `intent`.
    func choicePolicy(_ intent: String, _ candidates: [Int]) -> ChoicePolicy {
        ChoicePolicy(intent: intent, candidates: candidates, slots: slots)
    }

    /// Picks the plugin for a request. A `plugin` named in the header wins (and is
    /// remembered with `remember: true`); a single claimant is taken; otherwise the
    /// policy applies the remembered or preset default and the header's `choice`.
    func choosePlugin(_ intent: String, candidates: [Int], options: JSON) -> PluginChoice {
        if let named = options["plugin"]?.stringValue { return choicePolicy(intent, candidates).named(named) }
        let client = choiceClient(options)
        if candidates.count == 1, !defaultIsDisabled(intent, client: client) { return .plugin(candidates[0]) }
        guard let mode = ChoicePolicy.Mode(header: options["choice"]) else { return .failure(ChoicePolicy.badMode(options["choice"])) }
        let policy = choicePolicy(intent, candidates)
        let decision = policy.decide(mode, default: applicableDefault(intent, client: client, startFailed: true))
        if case .plugin = decision.outcome { logger.debug("\(intent): \(decision.explanation)") }
        return policy.choice(decision)
    }

    /// The default that applies to `client`'s requests for `intent`: its remembered
    /// choice (its own, else everyone's), else the manifest's preset, with why its plugin
    /// can't serve now.
    ///
    /// - Parameter startFailed: whether a plugin whose binary was missing may be tried
    ///   again now (routing); `ib.explain` passes false so that asking has no effect.
    func applicableDefault(_ intent: String, client: String?, startFailed: Bool) -> ChoicePolicy.Default? {
        if let remembered = choiceBook.lookup(intent: intent, client: client) {
            return ChoicePolicy.Default(plugin: remembered.plugin, remembered: remembered,
                                        unavailable: unavailability(of: remembered.plugin, intent: intent, startFailed: startFailed))
        }
        guard let preset = manifest.host.presetDefaults[intent] else { return nil }
        return ChoicePolicy.Default(plugin: preset, remembered: nil,
                                    unavailable: unavailability(of: preset, intent: intent, startFailed: startFailed))
    }

    /// Why plugin `id` can't serve `intent` now, or nil when it can: gone from the
    /// manifest, no longer claiming the intent, or failed (a crash loop, a rejected
    /// handshake, a missing executable).
    func unavailability(of id: String, intent: String, startFailed: Bool) -> String? {
        guard let slot = slots.first(where: { $0.spec.id == id }) else { return "removed from the manifest" }
        guard slot.spec.intentsSupported.contains(intent) else { return "it no longer lists \(intent) in IntentsSupported" }
        if !slot.spec.enabled { return "disabled in the manifest" }
        if let reason = slot.failureReason {
            if startFailed, retryFailedSpawn(slot) { return nil }
            return "it is failing: \(reason)"
        }
        return nil
    }

    /// Whether the default that would apply to `client` (remembered, else preset) names a
    /// disabled plugin. Then even a single remaining claimant is not taken silently: the
    /// client is asked again and told why.
    func defaultIsDisabled(_ intent: String, client: String?) -> Bool {
        guard disabledClaims[intent] != nil else { return false }
        guard let id = choiceBook.lookup(intent: intent, client: client)?.plugin ?? manifest.host.presetDefaults[intent] else { return false }
        return slots.contains { $0.spec.id == id && !$0.spec.enabled }
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

    /// The answer to a client over its rate of remembered-choice changes.
    func choiceWriteRateError() -> BusError {
        let limits = manifest.host.limits
        return BusError(.busy, "this client changes remembered choices too often (at most \(limits.choiceWritesPerSecond) a second, host.limits.choice_writes_per_second); try again later",
                        details: ["retry_after_ms": .int(Int64(1_000 / max(1, limits.choiceWritesPerSecond)))])
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

    /// The candidates as the client sees them (`ChoicePolicy.candidateList`).
    func candidateList(_ candidates: [Int], intent: String) -> JSON { choicePolicy(intent, candidates).candidateList }
}
