import Foundation
import IntentBusCore
import IntentBusStore

/// `ib.shortcuts.list|add|edit|delete`: phrases users record ("Add to Siri").
extension ShortcutCenter {
    /// User phrases, and with `{"all": true}` every app and legacy phrase too.
    func listShortcuts(_ request: ControlRequest) -> Result<JSON, BusError> {
        let all: Bool
        switch ShortcutInput.flag(request.body, "all", fallback: false) {
        case .failure(let e): return .failure(e)
        case .success(let b): all = b
        }
        let scope = ownerScope(request)
        let visible = userPhrases.keys.sorted().compactMap { userPhrases[$0] }.filter { Self.mayUse($0, scope: scope) }
        var body: [String: JSON] = ["user": .array(visible.map { json($0) })]
        body["store"] = writer != nil ? ["persistent": true, "path": .string(storePath)]
                                      : ["persistent": false, "problem": .string(storeProblem ?? "stopped")]
        if all {
            body["app"] = .array(catalog.all.map { p in
                var o = p.json(applicationName: catalog.applicationName(p.plugin)).objectValue ?? [:]
                o["available"] = .bool(serves(p.plugin, p.intent))
                return .object(o)
            })
            let conflicts = Set(catalog.all.map(\.plugin)).sorted().flatMap { catalog.conflicts(of: $0) }
            body["conflicts"] = .array(conflicts.map { .string($0) })
        }
        return .success(.object(body))
    }

    /// Records a phrase: `{"phrase", "intent", "parameters", "plugin"}`, or
    /// `{"donation": identifier}` to take the intent, parameters and (unless `phrase` is
    /// given) the suggested phrase of that donation (looked up on the store's thread).
    func addShortcut(_ request: ControlRequest, then: @escaping (Result<JSON, BusError>) -> Void) {
        let body = request.body
        var phrase: String?, intent: String?, plugin: String?, donation: String?, parameters: JSON
        switch (ShortcutInput.text(body, "phrase"), ShortcutInput.text(body, "intent"), ShortcutInput.text(body, "plugin"),
                ShortcutInput.text(body, "donation"), ShortcutInput.parameters(body)) {
        case (.failure(let e), _, _, _, _), (_, .failure(let e), _, _, _), (_, _, .failure(let e), _, _),
             (_, _, _, .failure(let e), _), (_, _, _, _, .failure(let e)):
            return then(.failure(e))
        case (.success(let ph), .success(let i), .success(let p), .success(let d), .success(let params)):
            phrase = ph; intent = i; plugin = p; donation = d; parameters = params
        }
        let client = requester(request)
        let scope = ownerScope(request)
        guard let donation else {
            guard let phrase, let intent else {
                return then(.failure(BusError(.invalidParameters, "ib.shortcuts.add needs \"phrase\" and \"intent\" (or \"donation\")")))
            }
            return record(phrase: phrase, intent: intent, parameters: parameters, plugin: plugin, client: client, scope: scope, then: then)
        }
        guard intent == nil else {
            return then(.failure(BusError(.invalidParameters, "give \"donation\" or \"intent\", not both")))
        }
        // The donation is read where the donations are: on the store's thread.
        submit({ store in
            do {
                // Only the requester's own donation, when it may not see everyone's.
                guard let found = try store.donations().first(where: { $0.identifier == donation && (scope == nil || $0.client == scope) }) else {
                    return .failure(BusError(.invalidParameters, "there is no donation with identifier \"\(donation)\""))
                }
                return .success(found.json)
            } catch { return .failure(Self.failure(error)) }
        }, then: { [unowned self] result in
            switch result {
            case .failure(let e): then(.failure(e))
            case .success(let found):
                guard let intent = found["intent"]?.stringValue,
                      let said = phrase ?? found["suggested_phrase"]?.stringValue else {
                    return then(.failure(BusError(.invalidParameters, "donation \"\(donation)\" has no suggested phrase; give \"phrase\"")))
                }
                record(phrase: said, intent: intent, parameters: found["parameters"] ?? .object([:]),
                       plugin: plugin ?? found["plugin"]?.stringValue, client: client, scope: scope, then: then)
            }
        })
    }

    /// Checks and stores a new user phrase; answers after the commit.
    private func record(phrase: String, intent: String, parameters: JSON, plugin: String?, client: String?,
                        scope: String?, then: @escaping (Result<JSON, BusError>) -> Void) {
        if let problem = checkTarget(intent: intent, plugin: plugin) { return then(.failure(problem)) }
        if let taken = owner(of: phrase, intent: intent, except: nil, scope: scope) { return then(.failure(taken)) }
        guard userPhrases.count < ShortcutStore.maximumUserPhrases else {
            return then(.failure(BusError(.invalidParameters,
                "\(userPhrases.count) user phrases are stored, the most there may be (\(ShortcutStore.maximumUserPhrases)); delete some first")))
        }
        let now = clock()
        let entry = UserPhrase(phrase: phrase, intent: intent, parameters: parameters, plugin: plugin,
                               client: client, createdAt: now, updatedAt: now)
        change(to: entry, replacing: nil, then: then) { [unowned self] in
            logger.info("user phrase “\(phrase)” → \(intent) \(parameters.canonicalString)")
            return ["shortcut": json(entry)]
        }
    }

    /// Changes a phrase: `{"phrase": old, "new_phrase"?, "intent"?, "parameters"?, "plugin"?}`.
    func editShortcut(_ request: ControlRequest, then: @escaping (Result<JSON, BusError>) -> Void) {
        let body = request.body
        let old: String, renamed: String?, intent: String?, plugin: String?
        switch (ShortcutInput.text(body, "phrase", required: true), ShortcutInput.text(body, "new_phrase"),
                ShortcutInput.text(body, "intent"), ShortcutInput.text(body, "plugin")) {
        case (.failure(let e), _, _, _), (_, .failure(let e), _, _), (_, _, .failure(let e), _), (_, _, _, .failure(let e)):
            return then(.failure(e))
        case (.success(let o), .success(let n), .success(let i), .success(let p)):
            old = o!; renamed = n; intent = i; plugin = p
        }
        let scope = ownerScope(request)
        guard let existing = userPhrases[PhraseText.normalised(old)], Self.mayUse(existing, scope: scope) else {
            return then(.failure(BusError(.invalidParameters, "there is no user phrase “\(old)”")))
        }
        if let scope, !Self.mayChange(existing, scope: scope) { return then(.failure(Self.notYours(old, scope: scope))) }
        var parameters = existing.parameters
        if body["parameters"] != nil {
            switch ShortcutInput.parameters(body) {
            case .failure(let e): return then(.failure(e))
            case .success(let p): parameters = p
            }
        }
        let updated = UserPhrase(phrase: renamed ?? existing.phrase, intent: intent ?? existing.intent, parameters: parameters,
                                 plugin: body["plugin"]?.isNull == true ? nil : (plugin ?? existing.plugin),
                                 client: existing.client, createdAt: existing.createdAt, updatedAt: clock())
        if let problem = checkTarget(intent: updated.intent, plugin: updated.plugin) { return then(.failure(problem)) }
        if let taken = owner(of: updated.phrase, intent: updated.intent, except: existing.key, scope: scope) { return then(.failure(taken)) }
        change(to: updated, replacing: existing, then: then) { [unowned self] in
            ["shortcut": json(updated), "previous": json(existing)]
        }
    }

    /// Deletes a phrase: `{"phrase": …}`.
    func deleteShortcut(_ request: ControlRequest, then: @escaping (Result<JSON, BusError>) -> Void) {
        guard case .success(let phrase?) = ShortcutInput.text(request.body, "phrase", required: true) else {
            return then(.failure(BusError(.invalidParameters, "ib.shortcuts.delete needs \"phrase\": a non-empty string of at most \(Self.maximumTextLength) characters")))
        }
        let scope = ownerScope(request)
        guard let existing = userPhrases[PhraseText.normalised(phrase)], Self.mayUse(existing, scope: scope) else {
            return then(.failure(BusError(.invalidParameters, "there is no user phrase “\(phrase)”")))
        }
        if let scope, !Self.mayChange(existing, scope: scope) { return then(.failure(Self.notYours(phrase, scope: scope))) }
        change(to: nil, replacing: existing, then: then) { ["deleted": .string(phrase)] }
    }

    /// Applies a change to the router thread's phrases at once (so that a second request
    /// sees it), commits it on the store's thread, and answers after the commit; a failed
    /// commit puts the phrases back as they were.
    private func change(to entry: UserPhrase?, replacing old: UserPhrase?, then: @escaping (Result<JSON, BusError>) -> Void,
                        answer: @escaping () -> JSON) {
        if let old { userPhrases.removeValue(forKey: old.key) }
        if let entry { userPhrases[entry.key] = entry }
        submit({ store in
            do {
                if let entry {
                    try store.save(entry, replacing: old?.key)
                } else if let old {
                    _ = try store.deleteUserPhrase(key: old.key)
                }
                return .success(.null)
            } catch { return .failure(Self.failure(error)) }
        }, then: { [unowned self] result in
            switch result {
            case .success: then(.success(answer()))
            case .failure(let e):
                if let entry, userPhrases[entry.key] == entry { userPhrases.removeValue(forKey: entry.key) }
                if let old { userPhrases[old.key] = old }
                then(.failure(e))
            }
        })
    }

    // MARK: - Helpers

    /// Why a phrase can't run `intent` (on `plugin`): nobody claims it, or the plugin
    /// doesn't.
    private func checkTarget(intent: String, plugin: String?) -> BusError? {
        let claimants = claimants(intent)
        guard !claimants.isEmpty else {
            return BusError(.unknownIntent, "no plugin claims intent \"\(intent)\"")
        }
        if let plugin, !claimants.contains(plugin) {
            return BusError(.unknownPlugin, "plugin \(plugin) does not serve \(intent)",
                            details: ["candidates": .array(claimants.map { .string($0) })])
        }
        return nil
    }

    /// The error naming who already owns `phrase`: another user phrase (other than the one
    /// stored under `except`), or an app or legacy phrase of another intent that it
    /// would match. A phrase of the same intent may be refined with fixed parameters
    /// ("Show my cart" → ada's cart), since the user phrase is matched first.
    private func owner(of phrase: String, intent: String, except: String?, scope: String?) -> BusError? {
        let key = PhraseText.normalised(phrase)
        guard !key.isEmpty else { return BusError(.invalidParameters, "the phrase has no words") }
        if key != except, let existing = userPhrases[key], let scope, !Self.mayUse(existing, scope: scope) {
            // Another client's phrase: say it is taken, not what it runs.
            return BusError(.invalidParameters, "“\(phrase)” is already taken by another client's user phrase")
        }
        if key != except, let existing = userPhrases[key] {
            return BusError(.invalidParameters, "“\(phrase)” is already taken by the user phrase “\(existing.phrase)” for \(existing.intent)",
                            details: ["owner": ["source": "user", "intent": .string(existing.intent)]])
        }
        if let taken = catalog.match(phrase, usable: { $0.intent != intent }).first {
            let name = catalog.applicationName(taken.phrase.plugin)
            return BusError(.invalidParameters,
                "“\(phrase)” is already taken by \(name) (plugin \(taken.phrase.plugin)): its phrase “\(taken.phrase.template.display(applicationName: name))” runs \(taken.phrase.intent)",
                details: ["owner": ["source": .string(taken.phrase.source.rawValue), "plugin": .string(taken.phrase.plugin),
                                    "intent": .string(taken.phrase.intent)]])
        }
        return nil
    }

    func json(_ p: UserPhrase) -> JSON {
        ["phrase": .string(p.phrase), "intent": .string(p.intent), "parameters": p.parameters,
         "plugin": p.plugin.map { .string($0) } ?? .null, "client": p.client.map { .string($0) } ?? .null,
         "created_at": .string(ShortcutTime.text(p.createdAt)), "updated_at": .string(ShortcutTime.text(p.updatedAt))]
    }
}
