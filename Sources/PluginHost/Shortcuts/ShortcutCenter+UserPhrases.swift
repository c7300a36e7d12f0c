import Foundation
import IntentBus

/// `ib.shortcuts.list|add|edit|delete`: phrases users record ("Add to Siri").
extension ShortcutCenter {
    /// User phrases, and with `{"all": true}` every app and legacy phrase too.
    func listShortcuts(_ request: ControlRequest) -> Result<JSON, BusError> {
        let all: Bool
        switch ShortcutInput.flag(request.body, "all", fallback: false) {
        case .failure(let e): return .failure(e)
        case .success(let b): all = b
        }
        var body: [String: JSON] = [:]
        if let store {
            do { body["user"] = .array(try store.userPhrases().map(json)) } catch { return .failure(storeFailure(error)) }
            body["store"] = ["persistent": true, "path": .string(store.path)]
        } else {
            body["user"] = .array([])
            body["store"] = ["persistent": false, "problem": .string(storeProblem ?? "?")]
        }
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
    /// given) the suggested phrase of that donation.
    func addShortcut(_ request: ControlRequest) -> Result<JSON, BusError> {
        let store: ShortcutStore
        switch requireStore() {
        case .failure(let e): return .failure(e)
        case .success(let s): store = s
        }
        let body = request.body
        var phrase: String?, intent: String?, plugin: String?, donation: String?, parameters: JSON
        switch (ShortcutInput.text(body, "phrase"), ShortcutInput.text(body, "intent"), ShortcutInput.text(body, "plugin"),
                ShortcutInput.text(body, "donation"), ShortcutInput.parameters(body)) {
        case (.failure(let e), _, _, _, _), (_, .failure(let e), _, _, _), (_, _, .failure(let e), _, _),
             (_, _, _, .failure(let e), _), (_, _, _, _, .failure(let e)):
            return .failure(e)
        case (.success(let ph), .success(let i), .success(let p), .success(let d), .success(let params)):
            phrase = ph; intent = i; plugin = p; donation = d; parameters = params
        }
        if let donation {
            guard intent == nil else {
                return .failure(BusError(.invalidParameters, "give \"donation\" or \"intent\", not both"))
            }
            let found: Donation?
            do { found = try store.donations().first { $0.identifier == donation } } catch { return .failure(storeFailure(error)) }
            guard let found else {
                return .failure(BusError(.invalidParameters, "there is no donation with identifier \"\(donation)\""))
            }
            intent = found.intent
            parameters = found.parameters
            plugin = plugin ?? found.plugin
            phrase = phrase ?? found.phrase
            guard phrase != nil else {
                return .failure(BusError(.invalidParameters, "donation \"\(donation)\" has no suggested phrase; give \"phrase\""))
            }
        }
        guard let phrase, let intent else {
            return .failure(BusError(.invalidParameters, "ib.shortcuts.add needs \"phrase\" and \"intent\" (or \"donation\")"))
        }
        if let problem = checkTarget(intent: intent, plugin: plugin) { return .failure(problem) }
        if let taken = owner(of: phrase, intent: intent, except: nil) { return .failure(taken) }
        let now = clock()
        let client = request.body["client"]?.stringValue ?? request.options["client"]?.stringValue
        let entry = UserPhrase(phrase: phrase, intent: intent, parameters: parameters, plugin: plugin,
                               client: client, createdAt: now, updatedAt: now)
        do { try store.save(entry) } catch { return .failure(storeFailure(error)) }
        logger.info("user phrase “\(phrase)” → \(intent) \(parameters.canonicalString)")
        return .success(["shortcut": json(entry)])
    }

    /// Changes a phrase: `{"phrase": old, "new_phrase"?, "intent"?, "parameters"?, "plugin"?}`.
    func editShortcut(_ request: ControlRequest) -> Result<JSON, BusError> {
        let store: ShortcutStore
        switch requireStore() {
        case .failure(let e): return .failure(e)
        case .success(let s): store = s
        }
        let body = request.body
        let old: String, renamed: String?, intent: String?, plugin: String?
        switch (ShortcutInput.text(body, "phrase", required: true), ShortcutInput.text(body, "new_phrase"),
                ShortcutInput.text(body, "intent"), ShortcutInput.text(body, "plugin")) {
        case (.failure(let e), _, _, _), (_, .failure(let e), _, _), (_, _, .failure(let e), _), (_, _, _, .failure(let e)):
            return .failure(e)
        case (.success(let o), .success(let n), .success(let i), .success(let p)):
            old = o!; renamed = n; intent = i; plugin = p
        }
        let existing: UserPhrase?
        do { existing = try store.userPhrase(key: PhraseText.normalised(old)) } catch { return .failure(storeFailure(error)) }
        guard let existing else {
            return .failure(BusError(.invalidParameters, "there is no user phrase “\(old)”"))
        }
        var parameters = existing.parameters
        if body["parameters"] != nil {
            switch ShortcutInput.parameters(body) {
            case .failure(let e): return .failure(e)
            case .success(let p): parameters = p
            }
        }
        let updated = UserPhrase(phrase: renamed ?? existing.phrase, intent: intent ?? existing.intent, parameters: parameters,
                                 plugin: body["plugin"]?.isNull == true ? nil : (plugin ?? existing.plugin),
                                 client: existing.client, createdAt: existing.createdAt, updatedAt: clock())
        if let problem = checkTarget(intent: updated.intent, plugin: updated.plugin) { return .failure(problem) }
        if let taken = owner(of: updated.phrase, intent: updated.intent, except: existing.key) { return .failure(taken) }
        do { try store.save(updated, replacing: existing.key) } catch { return .failure(storeFailure(error)) }
        return .success(["shortcut": json(updated), "previous": json(existing)])
    }

    /// Deletes a phrase: `{"phrase": …}`.
    func deleteShortcut(_ request: ControlRequest) -> Result<JSON, BusError> {
        let store: ShortcutStore
        switch requireStore() {
        case .failure(let e): return .failure(e)
        case .success(let s): store = s
        }
        switch ShortcutInput.text(request.body, "phrase", required: true) {
        case .failure(let e): return .failure(e)
        case .success(let phrase):
            do {
                guard try store.deleteUserPhrase(key: PhraseText.normalised(phrase!)) else {
                    return .failure(BusError(.invalidParameters, "there is no user phrase “\(phrase!)”"))
                }
            } catch { return .failure(storeFailure(error)) }
            return .success(["deleted": .string(phrase!)])
        }
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
    private func owner(of phrase: String, intent: String, except: String?) -> BusError? {
        let key = PhraseText.normalised(phrase)
        guard !key.isEmpty else { return BusError(.invalidParameters, "the phrase has no words") }
        if key != except, let existing = try? store?.userPhrase(key: key) {
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
