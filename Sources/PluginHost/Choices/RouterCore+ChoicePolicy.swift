import Foundation
import IntentBusCore
import IntentBusWire

/// The outcome of picking a plugin among those that claim an intent.
enum PluginChoice {
    /// Route to this slot.
    case plugin(Int)
    /// Nobody decides for the client: send it this `plugin_choice` PROMPT.
    case ask(JSON)
    /// End the request with this error.
    case failure(BusError)
}

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

/// How a default is decided for a contested intent, without side effects on the
/// client: used for routing and, unchanged, for `ib.explain`.
struct ChoiceDecision {
    enum Outcome {
        /// This slot handles the request.
        case plugin(Int)
        /// The client is asked (`choice: ask`).
        case ask
        /// The request fails with `choice_required` (`choice: fail` or `default`).
        case fail
    }

    let outcome: Outcome
    /// `single`, `remembered`, `preset`, `priority`, `prompt` or `choice_required`.
    let rule: String
    /// One sentence for people.
    let explanation: String
    /// Why the remembered or preset default does not apply any more, when that is the
    /// reason nobody decides.
    let staleReason: String?
}

/// Choosing among plugins that claim the same intent (docs/choices.md): the header's
/// `plugin`, a remembered "always" choice, the manifest's preset default, priority
/// under `choice: default`, or a `plugin_choice` PROMPT. Also the host intents
/// `ib.explain` and `ib.choices.*`.
///
/// Everything here runs on the router thread. Uncontested intents never get here past
/// the first two checks of `choosePlugin`.
extension RouterCore {
    /// Most unusable answers to one plugin-choice prompt before the request fails.
    static let maximumBadChoiceAnswers = 3
    static let choicePolicies = ["ask", "fail", "default"]

    // MARK: - Routing

    /// Picks the plugin for a request. A `plugin` named in the header wins (and is
    /// remembered with `remember: true`); a single claimant is taken; otherwise
    /// `decideChoice` applies the remembered or preset default and the policy.
    func choosePlugin(_ intent: String, candidates: [Int], options: JSON) -> PluginChoice {
        if let named = options["plugin"]?.stringValue {
            guard let index = candidates.first(where: { slots[$0].spec.id == named }) else {
                if let slot = slots.first(where: { $0.spec.id == named }), !slot.spec.enabled,
                   slot.spec.intentsSupported.contains(intent) {
                    return .failure(BusError(.pluginUnavailable, "plugin \(named) is disabled in the manifest (enabled: false)",
                        details: ["plugin": .string(named), "candidates": candidateList(candidates, intent: intent)]))
                }
                let exists = slots.contains { $0.spec.id == named }
                return .failure(BusError(.unknownPlugin, exists
                    ? "plugin \(named) does not claim \(intent)"
                    : "there is no plugin \"\(named)\"",
                    details: ["candidates": candidateList(candidates, intent: intent)]))
            }
            return .plugin(index)  // `remember: true` is stored by the caller, before dispatch
        }
        let client = choiceClient(options)
        if candidates.count == 1, !defaultIsDisabled(intent, client: client) { return .plugin(candidates[0]) }
        let policy = options["choice"]?.stringValue ?? "ask"
        guard Self.choicePolicies.contains(policy) else {
            return .failure(BusError(.badFrame, "the header's \"choice\" is ask, fail or default, not \(options["choice"]?.canonicalString ?? "")"))
        }
        let decision = decideChoice(intent, candidates: candidates, client: client,
                                    policy: policy, startFailed: true)
        switch decision.outcome {
        case .plugin(let index):
            logger.debug("\(intent): \(decision.explanation)")
            return .plugin(index)
        case .ask:
            return .ask(choicePrompt(intent, candidates: candidates, staleReason: decision.staleReason, problem: nil))
        case .fail:
            var message = "\(candidates.count) plugins claim \(intent) (\(candidates.map { slots[$0].spec.id }.joined(separator: ", "))); name one with the header's \"plugin\""
            var details: [String: JSON] = ["candidates": candidateList(candidates, intent: intent)]
            if let stale = decision.staleReason {
                message = "\(stale); " + message
                details["reason"] = .string(stale)
            }
            return .failure(BusError(.choiceRequired, message, details: .object(details)))
        }
    }

    /// Decides who handles a contested intent for `client` under `policy`, in this order:
    /// the remembered choice (the client's own, else everyone's), the manifest's preset
    /// default, then — only with `choice: default` — the highest `priority`. A remembered
    /// or preset default that is gone or failing stops the search: the host asks again
    /// (or fails) and says why, and never routes elsewhere silently.
    ///
    /// - Parameter startFailed: whether a plugin whose binary was missing may be tried
    ///   again now (routing); `ib.explain` passes false so that asking has no effect.
    func decideChoice(_ intent: String, candidates: [Int], client: String?, policy: String,
                      startFailed: Bool) -> ChoiceDecision {
        let nobody: ChoiceDecision.Outcome = policy == "ask" ? .ask : .fail
        let nobodyRule = policy == "ask" ? "prompt" : "choice_required"
        if let remembered = choiceBook.lookup(intent: intent, client: client) {
            let whose = remembered.client.map { "client \($0)" } ?? "every client"
            // `unavailability` explains why a plugin is not a candidate; a plugin that is not
            // among the candidates for any other reason is unavailable too, never a crash.
            let found = candidates.first { slots[$0].spec.id == remembered.plugin }
            let why = unavailability(of: remembered.plugin, intent: intent, startFailed: startFailed)
                ?? (found == nil ? "not a candidate for \(intent)" : nil)
            guard why == nil, let index = found else {
                let stale = "Your default for \(intent), \(remembered.plugin), is no longer available (\(why ?? ""))"
                return ChoiceDecision(outcome: nobody, rule: nobodyRule,
                                      explanation: "\(stale): \(policy == "ask" ? "the client is asked to choose again" : "the request fails with choice_required")",
                                      staleReason: stale)
            }
            return ChoiceDecision(outcome: .plugin(index), rule: "remembered",
                                  explanation: "\(remembered.plugin) is the remembered default for \(whose) (set by \(remembered.source) on \(Self.timestamp(remembered.setAt)))",
                                  staleReason: nil)
        }
        if let preset = manifest.host.presetDefaults[intent] {
            let found = candidates.first { slots[$0].spec.id == preset }
            let why = unavailability(of: preset, intent: intent, startFailed: startFailed)
                ?? (found == nil ? "not a candidate for \(intent)" : nil)
            guard why == nil, let index = found else {
                let stale = "The manifest's default for \(intent), \(preset), is not available (\(why ?? ""))"
                return ChoiceDecision(outcome: nobody, rule: nobodyRule,
                                      explanation: "\(stale): \(policy == "ask" ? "the client is asked to choose" : "the request fails with choice_required")",
                                      staleReason: stale)
            }
            return ChoiceDecision(outcome: .plugin(index), rule: "preset",
                                  explanation: "\(preset) is the manifest's preset default (host.defaults), and nobody chose otherwise",
                                  staleReason: nil)
        }
        if policy == "default", let top = candidates.map({ slots[$0].spec.priority }).max() {
            let best = candidates.filter { slots[$0].spec.priority == top }
            if best.count == 1 {
                return ChoiceDecision(outcome: .plugin(best[0]), rule: "priority",
                                      explanation: "\(slots[best[0]].spec.id) has the highest priority (\(top)) and there is no remembered or preset default",
                                      staleReason: nil)
            }
            let tied = best.map { slots[$0].spec.id }.joined(separator: ", ")
            return ChoiceDecision(outcome: .fail, rule: "choice_required",
                                  explanation: "no remembered or preset default, and \(tied) share the highest priority (\(top)): the request fails with choice_required",
                                  staleReason: nil)
        }
        return ChoiceDecision(outcome: nobody, rule: nobodyRule,
                              explanation: policy == "ask"
                                ? "no remembered or preset default: the client is asked to choose (plugin_choice prompt)"
                                : "no remembered or preset default: the request fails with choice_required",
                              staleReason: nil)
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

    /// The `plugin_choice` PROMPT body (docs/protocol.md §4.4).
    func choicePrompt(_ intent: String, candidates: [Int], staleReason: String?, problem: String?) -> JSON {
        var dialog = "\(candidates.count) plugins can handle \(intent). Which one do you want to use?"
        if let staleReason { dialog = "\(staleReason); choose again." }
        if let problem { dialog = "\(problem). Which plugin should handle \(intent)?" }
        var body: [String: JSON] = [
            "kind": PromptKind.pluginChoice.json, "intent": .string(intent), "dialog": .string(dialog),
            "options": candidateList(candidates, intent: intent), "remember": ["once", "always"],
        ]
        if let staleReason { body["reason"] = .string(staleReason) }
        if let problem { body["error"] = .string(problem) }
        return .object(body)
    }

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
        let ids = stage.candidates.map { slots[$0].spec.id }
        let answer = try? msg.bodyJSON()
        var problem: String?
        var chosen: Int?
        var always = false
        if let value = answer?["value"]?.stringValue {
            chosen = stage.candidates.first { slots[$0].spec.id == value }
            if chosen == nil { problem = "\"\(value)\" is not one of the choices (\(ids.joined(separator: ", ")))" }
        } else {
            problem = "The answer needs \"value\": one of \(ids.joined(separator: ", "))"
        }
        switch answer?["remember"] {
        case nil, .string("once")?, .bool(false)?: break
        case .string("always")?, .bool(true)?: always = true
        case let other?: problem = problem ?? "\"remember\" is \"once\" or \"always\", not \(other.canonicalString)"
        }
        if let problem {
            stage.badAnswers += 1
            guard stage.badAnswers < Self.maximumBadChoiceAnswers else {
                return fail(exchange, BusError(.choiceRequired,
                    "no usable plugin choice after \(stage.badAnswers) answers (last: \(problem))",
                    details: ["candidates": candidateList(stage.candidates, intent: exchange.intent)]))
            }
            return promptClient(exchange, prompt: choicePrompt(exchange.intent, candidates: stage.candidates,
                                                               staleReason: stage.staleReason, problem: problem))
        }
        let index = chosen!
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
            if exchanges[exchange.hostId] === exchange { dispatch(exchange, slot) }
        }
    }

    /// The candidates as the client sees them: id, display name (`name` and `title`, the
    /// key disambiguation options use), handler style and state.
    func candidateList(_ candidates: [Int], intent: String) -> JSON {
        .array(candidates.map { i in
            ["id": .string(slots[i].spec.id), "name": .string(slots[i].spec.name), "title": .string(slots[i].spec.name),
             "style": .string(slots[i].style(for: intent).rawValue), "state": .string(slots[i].stateName)]
        })
    }

    /// RFC 3339 in UTC with milliseconds. One format style for every call: making an
    /// ISO8601DateFormatter per call cost ~0.1 ms, per entry of `ib.choices.list`.
    static func timestamp(_ date: Date) -> String { date.formatted(timestampStyle) }
    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
