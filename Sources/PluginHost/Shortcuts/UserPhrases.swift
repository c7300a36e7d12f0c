import Foundation
import IntentBusCore
import IntentBusStore

/// What the user phrases need of the shortcut center: the store's thread, which plugins
/// serve an intent, the phrase catalog, the clock and the log, the store's state (for
/// `ib.shortcuts.list`) and whom a request acts for (ShortcutCenter+Ownership.swift).
protocol UserPhraseHost: AnyObject {
    var catalog: ShortcutCatalog { get }
    var logger: Logger { get }
    var clock: () -> Date { get }
    /// `{"persistent": true, "path"}`, or `{"persistent": false, "problem"}`.
    var storeStatus: JSON { get }
    /// Runs `job` on the store's thread; `then` gets its result on the router thread.
    func submit(_ job: @escaping @Sendable (ShortcutStore) -> Result<JSON, BusError>,
                then: @escaping (Result<JSON, BusError>) -> Void)
    func claimants(_ intent: String) -> [String]
    func serves(_ plugin: String, _ intent: String) -> Bool
    func requester(_ request: ControlRequest) -> String?
    func ownerScope(_ request: ControlRequest) -> String?
}

/// The phrases users record ("Add to Siri", docs/shortcuts.md): the store's, as the router
/// thread knows them (changed when a change is submitted, put back if its commit fails),
/// who may use and change each, and `ib.shortcuts.list|add|edit|delete` over them. Owned
/// by the `ShortcutCenter`, on the router thread; `say` asks it first.
final class UserPhrases {
    unowned let host: any UserPhraseHost
    /// The phrases by their words (`PhraseText.normalised`).
    private var byKey: [String: UserPhrase] = [:]

    init(host: any UserPhraseHost) {
        self.host = host
    }

    /// Takes the store's phrases as they are now (at start, or after another host
    /// changed them).
    func replace(_ phrases: [UserPhrase]) {
        byKey = Dictionary(phrases.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
    }

    /// The phrase whose words are `key`, if a client limited to `scope` may say it.
    func phrase(forKey key: String, scope: String?) -> UserPhrase? {
        guard let phrase = byKey[key], Self.mayUse(phrase, scope: scope) else { return nil }
        return phrase
    }

    /// The first phrase (by its words) that runs `intent` with `parameters` and that a
    /// client limited to `scope` may say.
    func first(intent: String, parameters: JSON, scope: String?) -> UserPhrase? {
        byKey.keys.sorted().lazy.compactMap { self.byKey[$0] }
            .first { $0.intent == intent && $0.parameters == parameters && Self.mayUse($0, scope: scope) }
    }

    // MARK: - Who may use and change a phrase

    /// Whether a client limited to `scope` may see, change or say `phrase`: its own, or
    /// one made without a client.
    static func mayUse(_ phrase: UserPhrase, scope: String?) -> Bool {
        guard let scope else { return true }
        return phrase.client == nil || phrase.client == scope
    }

    /// Whether a client limited to `scope` may change `phrase`: its own only.
    static func mayChange(_ phrase: UserPhrase, scope: String?) -> Bool {
        guard let scope else { return true }
        return phrase.client == scope
    }

    /// The refusal for a phrase that belongs to another client; it names neither the
    /// owner nor what the phrase runs.
    static func notYours(_ phrase: String, scope: String) -> BusError {
        BusError(.forbidden, "the user phrase “\(phrase)” belongs to another client; client \(scope) may change only its own",
                 details: ["client": .string(scope)])
    }

    // MARK: - ib.shortcuts.*

    /// User phrases, and with `{"all": true}` every app and legacy phrase too.
    func list(_ request: ControlRequest) -> Result<JSON, BusError> {
        let all: Bool
        switch ShortcutInput.flag(request.body, "all", fallback: false) {
        case .failure(let e): return .failure(e)
        case .success(let b): all = b
        }
        let scope = host.ownerScope(request)
        let visible = byKey.keys.sorted().compactMap { byKey[$0] }.filter { Self.mayUse($0, scope: scope) }
        var body: [String: JSON] = ["user": .array(visible.map { json($0) })]
        body["store"] = host.storeStatus
        if all {
            body["app"] = .array(host.catalog.all.map { p in
                var o = p.json(applicationName: host.catalog.applicationName(p.plugin)).objectValue ?? [:]
                o["available"] = .bool(host.serves(p.plugin, p.intent))
                return .object(o)
            })
            let conflicts = Set(host.catalog.all.map(\.plugin)).sorted().flatMap { host.catalog.conflicts(of: $0) }
            body["conflicts"] = .array(conflicts.map { .string($0) })
        }
        return .success(.object(body))
    }

    /// Records a phrase: `{"phrase", "intent", "parameters", "plugin"}`, or
    /// `{"donation": identifier}` to take the intent, parameters and (unless `phrase` is
    /// given) the suggested phrase of that donation (looked up on the store's thread).
    func add(_ request: ControlRequest, then: @escaping (Result<JSON, BusError>) -> Void) {
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
        let client = host.requester(request)
        let scope = host.ownerScope(request)
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
        host.submit({ store in
            do {
                // Only the requester's own donation, when it may not see everyone's.
                guard let found = try store.donations().first(where: { $0.identifier == donation && (scope == nil || $0.client == scope) }) else {
                    return .failure(BusError(.invalidParameters, "there is no donation with identifier \"\(donation)\""))
                }
                return .success(found.json)
            } catch { return .failure(ShortcutCenter.failure(error)) }
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
        guard byKey.count < ShortcutStore.maximumUserPhrases else {
            return then(.failure(BusError(.invalidParameters,
                "\(byKey.count) user phrases are stored, the most there may be (\(ShortcutStore.maximumUserPhrases)); delete some first")))
        }
        let now = host.clock()
        let entry = UserPhrase(phrase: phrase, intent: intent, parameters: parameters, plugin: plugin,
                               client: client, createdAt: now, updatedAt: now)
        change(to: entry, replacing: nil, then: then) { [unowned self] in
            host.logger.info("user phrase “\(phrase)” → \(intent) \(parameters.canonicalString)")
            return ["shortcut": json(entry)]
        }
    }

    /// Changes a phrase: `{"phrase": old, "new_phrase"?, "intent"?, "parameters"?, "plugin"?}`.
    func edit(_ request: ControlRequest, then: @escaping (Result<JSON, BusError>) -> Void) {
        let body = request.body
        let old: String, renamed: String?, intent: String?, plugin: String?
        switch (ShortcutInput.text(body, "phrase", required: true), ShortcutInput.text(body, "new_phrase"),
                ShortcutInput.text(body, "intent"), ShortcutInput.text(body, "plugin")) {
        case (.failure(let e), _, _, _), (_, .failure(let e), _, _), (_, _, .failure(let e), _), (_, _, _, .failure(let e)):
            return then(.failure(e))
        case (.success(let o), .success(let n), .success(let i), .success(let p)):
            old = o!; renamed = n; intent = i; plugin = p
        }
        let scope = host.ownerScope(request)
        guard let existing = byKey[PhraseText.normalised(old)], Self.mayUse(existing, scope: scope) else {
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
                                 client: existing.client, createdAt: existing.createdAt, updatedAt: host.clock())
        if let problem = checkTarget(intent: updated.intent, plugin: updated.plugin) { return then(.failure(problem)) }
        if let taken = owner(of: updated.phrase, intent: updated.intent, except: existing.key, scope: scope) { return then(.failure(taken)) }
        change(to: updated, replacing: existing, then: then) { [unowned self] in
            ["shortcut": json(updated), "previous": json(existing)]
        }
    }

    /// Deletes a phrase: `{"phrase": …}`.
    func delete(_ request: ControlRequest, then: @escaping (Result<JSON, BusError>) -> Void) {
        guard case .success(let phrase?) = ShortcutInput.text(request.body, "phrase", required: true) else {
            return then(.failure(BusError(.invalidParameters, "ib.shortcuts.delete needs \"phrase\": a non-empty string of at most \(ShortcutCenter.maximumTextLength) characters")))
        }
        let scope = host.ownerScope(request)
        guard let existing = byKey[PhraseText.normalised(phrase)], Self.mayUse(existing, scope: scope) else {
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
        if let old { byKey.removeValue(forKey: old.key) }
        if let entry { byKey[entry.key] = entry }
        host.submit({ store in
            do {
                if let entry {
                    try store.save(entry, replacing: old?.key)
                } else if let old {
                    _ = try store.deleteUserPhrase(key: old.key)
                }
                return .success(.null)
            } catch { return .failure(ShortcutCenter.failure(error)) }
        }, then: { [unowned self] result in
            switch result {
            case .success: then(.success(answer()))
            case .failure(let e):
                if let entry, byKey[entry.key] == entry { byKey.removeValue(forKey: entry.key) }
                if let old { byKey[old.key] = old }
                then(.failure(e))
            }
        })
    }

    // MARK: - Helpers

    /// Why a phrase can't run `intent` (on `plugin`): nobody claims it, or the plugin
    /// doesn't.
    private func checkTarget(intent: String, plugin: String?) -> BusError? {
        let claimants = host.claimants(intent)
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
        if key != except, let existing = byKey[key], let scope, !Self.mayUse(existing, scope: scope) {
            // Another client's phrase: say it is taken, not what it runs.
            return BusError(.invalidParameters, "“\(phrase)” is already taken by another client's user phrase")
        }
        if key != except, let existing = byKey[key] {
            return BusError(.invalidParameters, "“\(phrase)” is already taken by the user phrase “\(existing.phrase)” for \(existing.intent)",
                            details: ["owner": ["source": "user", "intent": .string(existing.intent)]])
        }
        if let taken = host.catalog.match(phrase, usable: { $0.intent != intent }).first {
            let name = host.catalog.applicationName(taken.phrase.plugin)
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
