import Foundation
import IntentBusCore
import IntentBusStore

/// The host intents for choices (docs/protocol.md §6): `ib.explain`, `ib.choices.list`,
/// `ib.choices.set` and `ib.choices.reset`. What `intentbus explain` and
/// `intentbus choices` show comes from here, so that programs get the same answers.
///
/// A part beside the core rather than more of it: it keeps no state, reads the routing
/// table and the plugins (the fleet's, read-only) and the choice policy through
/// `ChoiceCore`, and changes only the remembered choices (`ChoiceBook`). The
/// core's host-intent table holds it (its handlers capture it); it holds the core
/// unowned, through that protocol. Runs on the router thread.
final class ChoiceIntents {
    unowned let core: any ChoiceCore

    init(core: any ChoiceCore) { self.core = core }

    /// Registers the four host intents with the core.
    func install() {
        core.hostIntents["ib.explain"] = .answer { [self] in explainIntent($0) }
        core.hostIntents["ib.choices.list"] = .answer { [self] in listChoices($0) }
        core.hostIntents["ib.choices.set"] = .later { [self] in setChoice($0, then: $1) }
        core.hostIntents["ib.choices.reset"] = .later { [self] in resetChoices($0, then: $1) }
    }

    // MARK: - ib.explain

    /// "Who would handle this intent, and why?" for a client identity: the candidates,
    /// the remembered and preset defaults, and the decision under each `choice` policy.
    /// Asking changes nothing (no plugin is started).
    func explainIntent(_ request: ControlRequest) -> Result<JSON, BusError> {
        let intent: String, client: String?
        switch (requiredText(request.body, "intent"), optionalText(request.body, "client")) {
        case (.failure(let e), _), (_, .failure(let e)): return .failure(e)
        case (.success(let i), .success(let c)): intent = i; client = c ?? core.choiceClient(request.options)
        }
        var body: [String: JSON] = ["intent": .string(intent), "client": client.map { .string($0) } ?? .null]
        let claimants = core.fleet.routes[intent] ?? []
        // A plugin disabled at run time is listed, with its reason, but is no candidate.
        let candidates = claimants.filter { !core.fleet.slots[$0].disabledAtRunTime }
        let preset = core.manifest.host.presetDefaults[intent]
        let remembered = core.choiceBook.lookup(intent: intent, client: client)
        body["candidates"] = .array((claimants + (core.fleet.disabledClaims[intent] ?? [])).map { i -> JSON in
            let slot = core.fleet.slots[i]
            var o: [String: JSON] = [
                "id": .string(slot.spec.id), "name": .string(slot.spec.name),
                "style": .string(slot.style(for: intent).rawValue), "state": .string(slot.stateName),
                "priority": .int(Int64(slot.spec.priority)),
            ]
            if let reason = slot.failureReason { o["reason"] = .string(reason) }
            if !slot.spec.enabled { o["reason"] = "disabled in the manifest (enabled: false)" }
            if slot.disabledAtRunTime { o["reason"] = "disabled at run time (ib.plugins.disable)" }
            return .object(o)
        })
        body["preset"] = preset.map { .string($0) } ?? .null
        body["remembered"] = remembered.map { choiceJSON($0) } ?? .null

        if candidates.isEmpty, let disabled = core.fleet.disabledClaims[intent] {
            body["decision"] = ["rule": "disabled", "plugin": .null,
                                "explanation": .string("\(UnservedIntent.disabled(intent, disabled, core.fleet.slots).message): requests get plugin_unavailable")]
            return .success(.object(body))
        }
        if candidates.isEmpty, !claimants.isEmpty {
            body["decision"] = ["rule": "disabled", "plugin": .null,
                                "explanation": .string("\(UnservedIntent.disabledAtRunTime(intent, claimants, core.fleet.slots).message): requests get plugin_unavailable")]
            return .success(.object(body))
        }
        guard !candidates.isEmpty else {
            body["decision"] = ["rule": "unknown_intent", "plugin": .null,
                                "explanation": .string("no plugin claims \(intent): requests get unknown_intent")]
            return .success(.object(body))
        }
        var byPolicy: [String: JSON] = [:]
        for mode in ChoicePolicy.Mode.allCases {
            byPolicy[mode.rawValue] = decisionJSON(intent, candidates: candidates, client: client, mode: mode)
        }
        body["policies"] = .object(byPolicy)
        body["decision"] = byPolicy["ask"]
        return .success(.object(body))
    }

    private func decisionJSON(_ intent: String, candidates: [Int], client: String?, mode: ChoicePolicy.Mode) -> JSON {
        let decision: ChoiceDecision
        if candidates.count == 1, !core.choiceDefaults.defaultIsDisabled(intent, client: client) {
            let id = core.fleet.slots[candidates[0]].spec.id
            decision = ChoiceDecision(outcome: .plugin(candidates[0]), rule: "single",
                                      explanation: "only \(id) claims \(intent)", staleReason: nil)
        } else {
            decision = core.choicePolicy(intent, candidates).decide(mode, default: core.choiceDefaults.applicable(intent, client: client, startFailed: false))
        }
        var o: [String: JSON] = ["rule": .string(decision.rule), "explanation": .string(decision.explanation)]
        if case .plugin(let index) = decision.outcome { o["plugin"] = .string(core.fleet.slots[index].spec.id) } else { o["plugin"] = .null }
        if let stale = decision.staleReason { o["reason"] = .string(stale) }
        return .object(o)
    }

    // MARK: - ib.choices.*

    /// Every remembered choice, with whether its plugin can still serve it, and where
    /// they are stored. An optional `intent` in the body narrows the list.
    func listChoices(_ request: ControlRequest) -> Result<JSON, BusError> {
        let filter: String?
        switch optionalText(request.body, "intent") {
        case .failure(let e): return .failure(e)
        case .success(let i): filter = i
        }
        // An authenticated client without manage_choices sees its own and everyone's
        // entries, not other clients' (docs/security.md).
        let own: String? = core.clientKeysRequired && core.choiceChangeProblem(ControlRequest(intent: request.intent, options: request.options,
            body: ["all": true])) != nil ? request.options["authenticated"]?.stringValue ?? "" : nil
        let limit: Int, after: ChoiceOrder.Key?
        switch listPaging(request.body) {
        case .failure(let e): return .failure(e)
        case .success(let paging): (limit, after) = paging
        }
        let page = core.choiceBook.page(after: after, intent: filter, limit: limit) {
            own == nil || $0.client == nil || $0.client == own
        }
        let next: JSON = page.next.map { ["intent": .string($0.intent), "client": $0.client.isEmpty ? .null : .string($0.client)] } ?? .null
        return .success(["choices": .array(page.choices.map(choiceJSON)), "next": next, "store": storeJSON()])
    }

    /// Entries per page of `ib.choices.list`, at most and by default: the listing's work
    /// on the router thread is bounded by a page, not by what is stored.
    static let choicePageLimit = 1_000

    /// `limit` (1…1000) and `after` (`{"intent", "client"?}`, the `next` of the page before).
    private func listPaging(_ body: JSON) -> Result<(Int, ChoiceOrder.Key?), BusError> {
        var limit = Self.choicePageLimit
        if let value = body["limit"], !value.isNull {
            guard let n = value.intValue, (1...Int64(Self.choicePageLimit)).contains(n) else {
                return .failure(BusError(.invalidParameters, "\"limit\" must be an integer within 1…\(Self.choicePageLimit), got \(value.canonicalString)"))
            }
            limit = Int(n)
        }
        guard let after = body["after"], !after.isNull else { return .success((limit, nil)) }
        guard after.objectValue != nil, case .success(let intent?) = optionalText(after, "intent"),
              case .success(let client) = optionalText(after, "client") else {
            return .failure(BusError(.invalidParameters, "\"after\" must be the \"next\" of the previous page, {\"intent\": I, \"client\"?: C}, got \(after.canonicalString)"))
        }
        return .success((limit, ChoiceOrder.Key(intent: intent, client: client ?? "")))
    }

    /// Remembers `plugin` for `intent` (for `client`, or everyone). The plugin must claim
    /// the intent now.
    func setChoice(_ request: ControlRequest, then: @escaping (Result<JSON, BusError>) -> Void) {
        if let problem = core.choiceChangeProblem(request) { return then(.failure(problem)) }
        switch checkedChoice(request) {
        case .failure(let error): then(.failure(error))
        case .success(let (intent, plugin, client, source)):
            let previous = core.choiceBook.lookup(intent: intent, client: client)
                .flatMap { $0.client == client ? $0 : nil }
            core.choiceBook.remember(intent: intent, client: client, plugin: plugin, source: source ?? "api") { [self] result in
                switch result {
                case .success(let choice):
                    core.logger.info("remembered \(plugin) for \(intent)\(client.map { " (client \($0))" } ?? "") (\(choice.source))")
                    then(.success(["choice": choiceJSON(choice), "previous": previous.map(choiceJSON) ?? .null,
                                   "store": storeJSON()]))
                case .failure(let error):
                    then(.failure(storeFailure(error)))
                }
            }
        }
    }

    /// The body of `ib.choices.set`, checked: intent, plugin, client, source.
    private func checkedChoice(_ request: ControlRequest) -> Result<(String, String, String?, String?), BusError> {
        let intent: String, plugin: String, client: String?, source: String?
        switch (requiredText(request.body, "intent"), requiredText(request.body, "plugin"),
                optionalText(request.body, "client"), optionalText(request.body, "source")) {
        case (.failure(let e), _, _, _), (_, .failure(let e), _, _), (_, _, .failure(let e), _), (_, _, _, .failure(let e)):
            return .failure(e)
        case (.success(let i), .success(let p), .success(let c), .success(let s)):
            intent = i; plugin = p; client = c; source = s
        }
        guard let candidates = core.fleet.routes[intent], !candidates.isEmpty else {
            return .failure(BusError(.unknownIntent, "no plugin claims \(intent); there is nothing to choose"))
        }
        guard candidates.contains(where: { core.fleet.slots[$0].spec.id == plugin }) else {
            if (core.fleet.disabledClaims[intent] ?? []).contains(where: { core.fleet.slots[$0].spec.id == plugin }) {
                return .failure(BusError(.pluginUnavailable, "plugin \(plugin) is disabled in the manifest (enabled: false)",
                                         details: ["candidates": core.choicePolicy(intent, candidates).candidateList]))
            }
            let exists = core.fleet.slots.contains { $0.spec.id == plugin }
            return .failure(BusError(.unknownPlugin,
                exists ? "plugin \(plugin) does not claim \(intent)" : "there is no plugin \"\(plugin)\"",
                details: ["candidates": core.choicePolicy(intent, candidates).candidateList]))
        }
        return .success((intent, plugin, client, source))
    }

    /// Forgets choices: `{"intent": X}` every entry for X, `{"intent": X, "client": C}`
    /// only C's own, `{"all": true}` everything. The intent need not be claimed any more,
    /// so that entries for removed plugins can be cleared.
    func resetChoices(_ request: ControlRequest, then: @escaping (Result<JSON, BusError>) -> Void) {
        if let problem = core.choiceChangeProblem(request) { return then(.failure(problem)) }
        let all = request.body["all"]?.boolValue == true
        let intent: String?, client: String?
        switch (optionalText(request.body, "intent"), optionalText(request.body, "client")) {
        case (.failure(let e), _), (_, .failure(let e)): return then(.failure(e))
        case (.success(let i), .success(let c)): intent = i; client = c
        }
        if all == (intent != nil) || (all && client != nil) {
            return then(.failure(BusError(.invalidParameters,
                "ib.choices.reset takes {\"intent\": …} (optionally with \"client\") or {\"all\": true}")))
        }
        core.choiceBook.reset(intent: intent, client: client) { [self] result in
            switch result {
            case .success(let removed):
                core.logger.info("forgot \(removed) remembered choice(s)\(intent.map { " for \($0)" } ?? "")\(client.map { " (client \($0))" } ?? "")")
                then(.success(["removed": .int(Int64(removed)), "store": storeJSON()]))
            case .failure(let error):
                then(.failure(storeFailure(error)))
            }
        }
    }

    // MARK: - Helpers

    /// A remembered choice for clients, with whether its plugin can still serve it.
    func choiceJSON(_ choice: RememberedChoice) -> JSON {
        var o: [String: JSON] = [
            "intent": .string(choice.intent), "plugin": .string(choice.plugin),
            "client": choice.client.map { .string($0) } ?? .null,
            "set_at": .string(ChoicePolicy.timestamp(choice.setAt)), "source": .string(choice.source),
        ]
        if let why = core.choiceDefaults.unavailability(of: choice.plugin, intent: choice.intent, startFailed: false) {
            o["available"] = false
            o["unavailable"] = .string(why)
        } else {
            o["available"] = true
        }
        return .object(o)
    }

    private func storeJSON() -> JSON {
        var o: [String: JSON] = ["persistent": .bool(core.choiceBook.isPersistent)]
        if let path = core.choiceBook.store?.databasePath { o["path"] = .string(path) }
        if let problem = core.choiceBook.storeProblem { o["problem"] = .string(problem) }
        if let note = core.choiceBook.store?.recoveryNote { o["recovered"] = .string(note) }
        return .object(o)
    }

    private func storeFailure(_ error: ChoiceStoreError) -> BusError {
        core.logger.error("choice store: \(error)")
        if error.code == .stateUnavailable {
            return BusError(.stateUnavailable, "the shared state is unavailable, the choice was not changed: \(error.detail); try again later",
                            details: ["store": storeJSON()])
        }
        return BusError(.internalError, "the choice store failed: \(error)", details: ["store": storeJSON()])
    }

    private func requiredText(_ body: JSON, _ key: String) -> Result<String, BusError> {
        switch optionalText(body, key) {
        case .success(let value?): return .success(value)
        case .success(nil): return .failure(BusError(.invalidParameters, "\"\(key)\" is required"))
        case .failure(let e): return .failure(e)
        }
    }

    /// A non-empty string, or absent/null.
    private func optionalText(_ body: JSON, _ key: String) -> Result<String?, BusError> {
        guard let value = body[key], !value.isNull else { return .success(nil) }
        guard let text = value.stringValue, !text.isEmpty else {
            return .failure(BusError(.invalidParameters, "\"\(key)\" must be a non-empty string, got \(value.canonicalString)"))
        }
        return .success(text)
    }
}
