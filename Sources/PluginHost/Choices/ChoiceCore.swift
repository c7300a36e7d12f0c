import Foundation
import IntentBusCore
import IntentBusStore
import IntentBusManifest

/// What the choice logic needs of the core (docs/choices.md): the plugins (the fleet,
/// read-only), the remembered choices, the host's presets and choice context, whether
/// clients are authenticated and the rights of a change, and the host-intent table the
/// choice host intents register in. `RouterCore` is the one conformer
/// (RouterCore+ChoiceIntents.swift); `ChoiceIntents` holds it unowned.
protocol ChoiceCore: AnyObject {
    var manifest: Manifest { get }
    var logger: Logger { get }
    var fleet: PluginFleet { get }
    var choiceBook: ChoiceBook { get }
    var clientKeysRequired: Bool { get }
    var hostIntents: HostIntents { get set }
    /// Why this client may not change remembered choices (RouterCore+Rights.swift), or nil.
    func choiceChangeProblem(_ request: ControlRequest) -> BusError?
}

/// Choosing the plugin for a request when several claim its intent: the policy decides
/// (ChoicePolicy.swift), `ChoiceDefaults` finds the default that applies, the fleet
/// retries a failed spawn, and "always" choices are stored in the `ChoiceBook`. Written
/// against `ChoiceCore` alone, so it reads nothing else of the core (on `RouterCore`,
/// a concrete type, the calls are direct).
///
/// Everything here runs on the router thread. Uncontested intents never get here past
/// the first two checks of `choosePlugin`, and build no policy.
extension ChoiceCore {
    /// The policy over the current plugins for `candidates` of `intent`.
    func choicePolicy(_ intent: String, _ candidates: [Int]) -> ChoicePolicy {
        ChoicePolicy(intent: intent, candidates: candidates, slots: fleet.slots)
    }

    /// The defaults that apply now (Choices/ChoiceDefaults.swift).
    var choiceDefaults: ChoiceDefaults {
        ChoiceDefaults(book: choiceBook, presets: manifest.host.presetDefaults, slots: fleet.slots, disabledClaims: fleet.disabledClaims,
                       retryFailedSpawn: { [unowned fleet] in fleet.retryFailedSpawn($0) })
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
        if candidates.count == 1, fleet.disabledClaims[intent] == nil || !choiceDefaults.defaultIsDisabled(intent, client: client) {
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
}
