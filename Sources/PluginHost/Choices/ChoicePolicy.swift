import Foundation
import IntentBusCore
import IntentBusStore
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

/// How a default is decided for a contested intent, without side effects on the
/// client: used for routing and, unchanged, for `ib.explain`.
struct ChoiceDecision {
    enum Outcome: Equatable {
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

/// Choosing among the plugins that claim an intent (docs/choices.md), as a value: given
/// the candidates, the default that applies (remembered or preset, and whether its plugin
/// can serve) and the request's options, it answers with a decision (route to a slot, ask
/// the client with these options, an error) that the core carries out
/// (Choices/RouterCore+ChoicePolicy.swift). It changes nothing: the core looks up the
/// remembered choice, retries a failed spawn, stores "always" and sends the prompt.
///
/// `slots` is the core's array (a reference count, not a copy of the plugins); the policy
/// only reads them. Unit-tested in ChoicePolicyTests.
struct ChoicePolicy {
    /// The header's `choice`: what happens when nobody decides.
    enum Mode: String, CaseIterable {
        case ask, fail, `default`

        /// The mode a request's header asks for: `ask` when it names none (or not as a
        /// string); nil for an unknown one.
        init?(header choice: JSON?) { self.init(rawValue: choice?.stringValue ?? "ask") }
    }

    /// The default that applies to a request, if any: a remembered choice (the client's
    /// own, else everyone's), else the manifest's preset.
    struct Default {
        let plugin: String
        /// The remembered choice, or nil for the manifest's preset.
        let remembered: RememberedChoice?
        /// Why the plugin can't serve the intent now (`ChoiceDefaults.unavailability`), or nil.
        let unavailable: String?
    }

    /// What the client's answer to a `plugin_choice` PROMPT leads to.
    enum AnswerOutcome {
        /// Its pick, remembered when it said "always".
        case chosen(Int, always: Bool)
        /// Unusable: ask again with this prompt (the problem named in it).
        case askAgain(JSON)
        /// Too many unusable answers: the request ends with this.
        case failure(BusError)
    }

    /// Most unusable answers to one plugin-choice prompt before the request fails.
    static let maximumBadAnswers = 3

    let intent: String
    /// The claimants the request may go to (slot indices, sorted by plugin id).
    let candidates: [Int]
    let slots: [PluginSlot]

    // MARK: - Routing

    /// The header's `plugin`, which wins over everything else (`remember: true` is
    /// stored by the core before dispatch).
    func named(_ named: String) -> PluginChoice {
        if let index = candidates.first(where: { slots[$0].spec.id == named }) { return .plugin(index) }
        if let slot = slots.first(where: { $0.spec.id == named }), !slot.spec.enabled,
           slot.spec.intentsSupported.contains(intent) {
            return .failure(BusError(.pluginUnavailable, "plugin \(named) is disabled in the manifest (enabled: false)",
                details: ["plugin": .string(named), "candidates": candidateList]))
        }
        let exists = slots.contains { $0.spec.id == named }
        return .failure(BusError(.unknownPlugin, exists ? "plugin \(named) does not claim \(intent)" : "there is no plugin \"\(named)\"",
                                 details: ["candidates": candidateList]))
    }

    /// The answer to a header whose `choice` is not a mode.
    static func badMode(_ choice: JSON?) -> BusError {
        BusError(.badFrame, "the header's \"choice\" is ask, fail or default, not \(choice?.canonicalString ?? "")")
    }

    /// Decides who handles the contested intent under `mode`, in this order: the default
    /// (remembered, else preset), then, only with `choice: default`, the highest
    /// `priority`. A default whose plugin is gone or failing stops the search: the host
    /// asks again (or fails) and says why, and never routes elsewhere silently.
    func decide(_ mode: Mode, default fallback: Default?) -> ChoiceDecision {
        let nobody: ChoiceDecision.Outcome = mode == .ask ? .ask : .fail
        let nobodyRule = mode == .ask ? "prompt" : "choice_required"
        if let fallback {
            // A plugin that is not among the candidates for any reason is unavailable too.
            let found = candidates.first { slots[$0].spec.id == fallback.plugin }
            let why = fallback.unavailable ?? (found == nil ? "not a candidate for \(intent)" : nil)
            guard why == nil, let index = found else {
                let stale = fallback.remembered == nil
                    ? "The manifest's default for \(intent), \(fallback.plugin), is not available (\(why ?? ""))"
                    : "Your default for \(intent), \(fallback.plugin), is no longer available (\(why ?? ""))"
                let then = mode != .ask ? "the request fails with choice_required"
                    : fallback.remembered == nil ? "the client is asked to choose" : "the client is asked to choose again"
                return ChoiceDecision(outcome: nobody, rule: nobodyRule, explanation: "\(stale): \(then)", staleReason: stale)
            }
            guard let remembered = fallback.remembered else {
                return ChoiceDecision(outcome: .plugin(index), rule: "preset",
                                      explanation: "\(fallback.plugin) is the manifest's preset default (host.defaults), and nobody chose otherwise",
                                      staleReason: nil)
            }
            let whose = remembered.client.map { "client \($0)" } ?? "every client"
            return ChoiceDecision(outcome: .plugin(index), rule: "remembered",
                                  explanation: "\(remembered.plugin) is the remembered default for \(whose) (set by \(remembered.source) on \(Self.timestamp(remembered.setAt)))",
                                  staleReason: nil)
        }
        if mode == .default, let top = candidates.map({ slots[$0].spec.priority }).max() {
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
                              explanation: mode == .ask
                                ? "no remembered or preset default: the client is asked to choose (plugin_choice prompt)"
                                : "no remembered or preset default: the request fails with choice_required",
                              staleReason: nil)
    }

    /// What the core does with a decision: route, send the `plugin_choice` PROMPT, or
    /// end the request with `choice_required`.
    func choice(_ decision: ChoiceDecision) -> PluginChoice {
        switch decision.outcome {
        case .plugin(let index):
            return .plugin(index)
        case .ask:
            return .ask(prompt(staleReason: decision.staleReason, problem: nil))
        case .fail:
            var message = "\(candidates.count) plugins claim \(intent) (\(candidates.map { slots[$0].spec.id }.joined(separator: ", "))); name one with the header's \"plugin\""
            var details: [String: JSON] = ["candidates": candidateList]
            if let stale = decision.staleReason {
                message = "\(stale); " + message
                details["reason"] = .string(stale)
            }
            return .failure(BusError(.choiceRequired, message, details: .object(details)))
        }
    }

    // MARK: - The prompt and its answer

    /// The `plugin_choice` PROMPT body (docs/protocol.md §4.4).
    func prompt(staleReason: String?, problem: String?) -> JSON {
        var dialog = "\(candidates.count) plugins can handle \(intent). Which one do you want to use?"
        if let staleReason { dialog = "\(staleReason); choose again." }
        if let problem { dialog = "\(problem). Which plugin should handle \(intent)?" }
        var body: [String: JSON] = [
            "kind": PromptKind.pluginChoice.json, "intent": .string(intent), "dialog": .string(dialog),
            "options": candidateList, "remember": ["once", "always"],
        ]
        if let staleReason { body["reason"] = .string(staleReason) }
        if let problem { body["error"] = .string(problem) }
        return .object(body)
    }

    /// The client's answer to the prompt (its body, nil when unreadable), after
    /// `badAnswers` unusable ones: its pick and whether to remember it, or the prompt
    /// again naming the problem, or the end once too many were unusable.
    func answer(_ body: JSON?, badAnswers: Int, staleReason: String?) -> AnswerOutcome {
        let ids = candidates.map { slots[$0].spec.id }
        var problem: String?
        var chosen: Int?
        var always = false
        if let value = body?["value"]?.stringValue {
            chosen = candidates.first { slots[$0].spec.id == value }
            if chosen == nil { problem = "\"\(value)\" is not one of the choices (\(ids.joined(separator: ", ")))" }
        } else {
            problem = "The answer needs \"value\": one of \(ids.joined(separator: ", "))"
        }
        switch body?["remember"] {
        case nil, .string("once")?, .bool(false)?: break
        case .string("always")?, .bool(true)?: always = true
        case let other?: problem = problem ?? "\"remember\" is \"once\" or \"always\", not \(other.canonicalString)"
        }
        guard let problem else { return .chosen(chosen!, always: always) }
        guard badAnswers + 1 < Self.maximumBadAnswers else {
            return .failure(BusError(.choiceRequired, "no usable plugin choice after \(badAnswers + 1) answers (last: \(problem))",
                                     details: ["candidates": candidateList]))
        }
        return .askAgain(prompt(staleReason: staleReason, problem: problem))
    }

    /// The candidates as the client sees them: id, display name (`name` and `title`, the
    /// key disambiguation options use), handler style and state.
    var candidateList: JSON {
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
