import Foundation
import IntentBusCore
import IntentBusManifest
import IntentBusStore

/// The host side of shortcuts (docs/shortcuts.md): the phrase catalog, the store of user
/// phrases and donations, and the host intents over them; the user phrases themselves
/// and `ib.shortcuts.*` are `UserPhrases`'. A router extension: it sees the router
/// read-only (`RouterView`) and runs on the router thread.
final class ShortcutCenter: RouterExtension, UserPhraseHost {
    /// Longest phrase, identifier, title or group accepted from outside, in characters.
    static let maximumTextLength = 200
    /// Largest parameters object accepted in a user phrase or donation (canonical JSON).
    static let maximumParametersBytes = 16_384
    /// Most words a said text may have: phrases are short, and matching costs grow with it.
    static let maximumSaidWords = 32

    let catalog: ShortcutCatalog
    let logger: Logger
    unowned let view: any RouterView
    /// Runs the store on its own thread; nil when the store could not be opened
    /// (`storeProblem` says why).
    private(set) var writer: ShortcutWriter?
    let storePath: String
    let storeProblem: String?
    /// The user phrases and `ib.shortcuts.*` (UserPhrases.swift).
    private(set) lazy var phrases = UserPhrases(host: self)
    /// What to do when each submitted job has finished, by job id.
    private var pending: [UInt64: (Result<JSON, BusError>) -> Void] = [:]
    private var nextJob: UInt64 = 0
    var clock: () -> Date = Date.init
    /// Plugin id → the intents its HELLO declares `requires_authentication` (never
    /// donated by the host); a plugin with none has no entry.
    var authenticated: [String: Set<String>] = [:]
    /// The request bodies of open multi-phase exchanges (as the client sent them), by
    /// host id, for their donation; removed when the exchange ends, so it holds at most
    /// the open exchanges. Parsed on the writer's thread, not here (DonationMerger).
    var openParameters: [UInt64: Data] = [:]
    /// The definitions in force: legacy phrases are read from them, again at each reload.
    let definitions: DefinitionBook?
    /// Entity types whose phrases' slots take the plugin's entities (EntityLists.swift).
    var entityLists = EntityLists()

    /// Opens the store and reads the user phrases (before routing starts), then hands
    /// the store to its writer thread. `state`: the shared PostgreSQL state
    /// (`host.state`), or nil for the file in `stateDirectory`.
    init(view: any RouterView, stateDirectory: String, state: String? = nil, definitions: DefinitionBook? = nil) {
        self.view = view
        self.definitions = definitions
        logger = view.logger
        catalog = ShortcutCatalog(manifest: view.manifest)
        storePath = state ?? (stateDirectory as NSString).appendingPathComponent(ShortcutStore.fileName)
        var loaded: [UserPhrase] = []
        do {
            let opened = try state.map { ShortcutStore(postgres: try PostgresDatabase.forState($0)) }
                ?? ShortcutStore(directory: stateDirectory)
            if let note = opened.recoveryNote { view.logger.warning(note) }
            switch Result(catching: { () throws(ShortcutStoreError) in try opened.userPhrases() }) {
            case .success(let phrases):
                loaded = phrases
            case .failure(let error) where error.code == .stateUnavailable:
                // The shared database is away: the state listener loads the phrases once it is back.
                view.logger.warning("shortcut store: \(error); user phrases load once the shared state is back")
            case .failure(let error):
                throw error
            }
            writer = ShortcutWriter(store: opened, logger: view.logger, post: view.post)
            storeProblem = nil
        } catch {
            view.logger.error("shortcut store: \(error); user phrases and donations are unavailable")
            storeProblem = "\(error)"
        }
        phrases.replace(loaded)
    }

    /// Another host changed the user phrases: take them as they are now.
    func stateReloaded(_ reload: StateReload) {
        guard let reloaded = reload.userPhrases else { return }
        phrases.replace(reloaded)
    }

    /// Registers every plugin's legacy phrases from the definitions in force, warning
    /// about phrases left out and phrases that repeat another plugin's.
    func registerLegacyPhrases(_ manifest: Manifest) {
        guard let definitions else { return }
        catalog.rename(manifest)
        for spec in manifest.plugins {
            let outcome = ShortcutRules.legacyPhrases(plugin: spec.id, intents: spec.intentsSupported, definitions: definitions.catalog,
                                                      context: catalog.context(for: spec.id))
            for warning in outcome.warnings { logger.warning(warning) }
            catalog.setLegacy(outcome.phrases, plugin: spec.id)
        }
        for spec in manifest.plugins {
            for conflict in catalog.conflicts(of: spec.id) { logger.warning(conflict) }
        }
    }

    /// A reload was applied: the legacy phrases of the plugins now in the manifest, from
    /// the definitions the reload read (a plugin added in `plugins.d/` brings its own).
    func reloaded(_ new: Manifest) {
        let gone = Set(catalog.names.keys).subtracting(new.plugins.map(\.id))
        for id in gone { catalog.setLegacy([], plugin: id) }
        registerLegacyPhrases(new)
    }

    /// Runs `job` on the store's thread; `then` gets its result on the router thread.
    func submit(_ job: @escaping @Sendable (ShortcutStore) -> Result<JSON, BusError>,
                then: @escaping (Result<JSON, BusError>) -> Void) {
        guard let writer else { return then(.failure(unavailable)) }
        nextJob += 1
        let id = nextJob
        pending[id] = then
        if !writer.submit(.work(id: id, run: job)) {
            pending.removeValue(forKey: id)
            then(.failure(BusError(.busy, "the shortcut store is behind with its writes; try again later")))
        }
    }

    func finished(id: UInt64, result: Result<JSON, BusError>) {
        pending.removeValue(forKey: id)?(result)
    }

    /// Sends `plugin` a request of the host's own (`RouterView.queryPlugin`); `then` gets
    /// its answer on the router thread. Nil when it could not be sent.
    func askPlugin(_ plugin: String, intent: String, body: JSON, then: @escaping (Result<JSON, BusError>) -> Void) -> UInt64? {
        nextJob += 1
        let id = nextJob
        guard view.queryPlugin(plugin, intent: intent, body: body, id: id) else { return nil }
        pending[id] = then
        return id
    }

    /// Gives up on an `askPlugin` query: its answer, if it still comes, is dropped.
    func forgetAsk(_ id: UInt64) {
        pending.removeValue(forKey: id)
        view.forgetQuery(id: id)
    }

    /// Runs `work` on the router thread once the current event is handled (after the
    /// WELCOME that follows an accepted HELLO).
    func soon(_ work: @escaping () -> Void) {
        nextJob += 1
        let id = nextJob
        pending[id] = { _ in work() }
        view.post(.extensionFinished(id: id, result: .success(.null)))
    }

    /// The host's donations of lane requests (`laneRequestSucceeded`) are gathered, and go
    /// to the writer's thread together at the end of the router's round.
    var seesLaneSuccesses: Bool { true }
    func roundEnded() { writer?.handOver() }

    func stop() {
        writer?.stop()
        writer = nil
    }

    var storeStatus: JSON {
        writer != nil ? ["persistent": true, "path": .string(storePath)]
                      : ["persistent": false, "problem": .string(storeProblem ?? "stopped")]
    }

    var unavailable: BusError {
        BusError(.internalError, "the shortcut store is unavailable: \(storeProblem ?? "stopped")")
    }

    /// A store failure as clients see it.
    static func failure(_ error: any Error) -> BusError {
        if let error = error as? ShortcutStoreError, error.code == .stateUnavailable {
            return BusError(.stateUnavailable, "the shared state is unavailable, nothing was changed: \(error.detail); try again later")
        }
        return BusError(.internalError, "the shortcut store failed: \((error as? ShortcutStoreError)?.detail ?? "\(error)")")
    }

    // MARK: - Which plugins count

    /// The enabled plugins claiming `intent`, by id.
    func claimants(_ intent: String) -> [String] {
        // A Set: a plugin with several instances has a slot per process.
        Set(view.plugins.filter { $0.spec.enabled && $0.spec.intentsSupported.contains(intent) }.map(\.spec.id)).sorted()
    }

    /// Whether `plugin` can serve `intent` now: enabled, and claiming it.
    func serves(_ plugin: String, _ intent: String) -> Bool { claimants(intent).contains(plugin) }

    /// Checks a plugin's app shortcuts at HELLO; returns the problem that refuses it.
    func checkHello(_ plugin: any PluginView, _ hello: JSON) -> String? {
        let id = plugin.spec.id
        let section = hello["metadata"]?["new_style"]
        let (newStyle, _) = NewStyleCatalog.parse(hello: hello)
        let outcome = ShortcutRules.check(newStyle: section, catalog: newStyle, context: catalog.context(for: id))
        guard outcome.errors.isEmpty else { return "invalid app shortcuts: " + outcome.errors.joined(separator: "; ") }
        for warning in outcome.warnings { logger.warning("plugin \(id): \(warning)") }
        for conflict in catalog.setApp(outcome.phrases, plugin: id) { logger.warning(conflict) }
        declareEntityLists(plugin: id, phrases: outcome.phrases, entities: newStyle.entities)
        var needsAuthentication: Set<String> = []
        for intent in newStyle.intents.values where intent.authentication == .requiresAuthentication {
            needsAuthentication.insert(intent.identifier)
            if let legacy = intent.migratedFrom { needsAuthentication.insert(legacy) }
        }
        // Only plugins with such intents are kept: most have none, and a request then
        // looks nothing up (laneRequestSucceeded).
        authenticated[id] = needsAuthentication.isEmpty ? nil : needsAuthentication
        return nil
    }

    /// A plain REPLY whose header names a donation is recorded (exchangeEnded), so the
    /// relay lane must not forward it unseen.
    func needsToSee(replyHeader: UnsafeRawBufferPointer) -> Bool { Self.mentionsDonation(replyHeader) }

    var hostIntents: [String: HostIntent] {
        [
            "ib.say": .handOn { [unowned self] in say($0) },
            "ib.say.match": .answer { [unowned self] in sayMatch($0) },
            "ib.shortcuts.list": .answer { [unowned self] in phrases.list($0) },
            "ib.shortcuts.add": .later { [unowned self] in phrases.add($0, then: $1) },
            "ib.shortcuts.edit": .later { [unowned self] in phrases.edit($0, then: $1) },
            "ib.shortcuts.delete": .later { [unowned self] in phrases.delete($0, then: $1) },
            "ib.donate": .later { [unowned self] in donate($0, then: $1) },
            "ib.donations.list": .later { [unowned self] in listDonations($0, then: $1) },
            "ib.donations.delete": .later { [unowned self] in deleteDonations($0, then: $1) },
            "ib.suggestions": .later { [unowned self] in suggestions($0, then: $1) },
        ]
    }

    // MARK: - Saying

    /// What a said text runs: a user phrase first, then the app and legacy phrases.
    /// `scope`: a CURVE client's name, whose own phrases (and those made without a
    /// client) alone it may say (ShortcutCenter+Ownership.swift); nil for everyone's.
    /// `context`: the request's (docs/protocol.md §4.1), for phrases that require or
    /// exclude some of it.
    func resolve(_ text: String, scope: String? = nil, context: [String: JSON] = [:]) -> Result<(HandOn, JSON), BusError> {
        let key = PhraseText.normalised(text)
        guard !key.isEmpty else { return .failure(BusError(.invalidParameters, "say what? The text has no words")) }
        let count = key.split(separator: " ").count
        guard count <= Self.maximumSaidWords else {
            return .failure(BusError(.invalidParameters, "the text has \(count) words; a phrase has at most \(Self.maximumSaidWords)"))
        }
        if let user = phrases.phrase(forKey: key, scope: scope) {
            let via: JSON = ["source": "user", "phrase": .string(user.phrase), "intent": .string(user.intent),
                             "parameters": user.parameters, "plugin": user.plugin.map { .string($0) } ?? .null]
            return .success((HandOn(intent: user.intent, parameters: user.parameters, plugin: user.plugin), via))
        }
        let usable: (ShortcutPhrase) -> Bool = { [unowned self] in serves($0.plugin, $0.intent) }
        let candidates = catalog.match(text, context: context, usable: usable)
        guard let first = candidates.first else {
            let closest = catalog.closest(to: text, usable: usable)
            let hint = closest.isEmpty ? "" : "; closest: " + closest.map { "“\($0)”" }.joined(separator: ", ")
            return .failure(BusError(.unknownIntent, "no phrase matches “\(text)”\(hint)",
                                     details: ["closest": .array(closest.map { .string($0) })]))
        }
        let runs = Dictionary(grouping: candidates) { "\($0.phrase.intent) \(JSON.object($0.parameters).canonicalString)" }
        if runs.count > 1 {
            let options = candidates.map { c -> JSON in
                ["plugin": .string(c.phrase.plugin), "intent": .string(c.phrase.intent),
                 "phrase": .string(c.phrase.template.display(applicationName: catalog.applicationName(c.phrase.plugin)))]
            }
            let list = candidates.map { "\($0.phrase.intent) (\($0.phrase.plugin))" }.joined(separator: ", ")
            return .failure(BusError(.choiceRequired, "“\(text)” matches phrases of different intents: \(list); say it more specifically",
                                     details: ["candidates": .array(options)]))
        }
        // One intent with the same parameters. Several plugins declaring it is the usual
        // contested intent: the usual choice decides (remembered, preset, or a prompt).
        let plugins = Set(candidates.map(\.phrase.plugin)).sorted()
        let plugin: String? = plugins.count == 1 && claimants(first.phrase.intent).count > 1 ? plugins[0] : nil
        let via: JSON = ["source": .string(first.phrase.source.rawValue),
                         "phrase": .string(first.phrase.template.display(applicationName: catalog.applicationName(first.phrase.plugin))),
                         "intent": .string(first.phrase.intent), "parameters": .object(first.parameters),
                         "plugins": .array(plugins.map { .string($0) })]
        return .success((HandOn(intent: first.phrase.intent, parameters: .object(first.parameters), plugin: plugin), via))
    }

    func say(_ request: ControlRequest) -> Result<HandOn, BusError> {
        switch ShortcutInput.text(request.body, "text", required: true) {
        case .failure(let e): return .failure(e)
        case .success(let text):
            return resolve(text!, scope: ownerScope(request), context: RequestContext.of(request.options)).map { handOn, via in
                logger.info("say “\(text!)” → \(handOn.intent) \(handOn.parameters.canonicalString) (\(via["source"]?.displayText ?? ""))")
                return handOn
            }
        }
    }

    func sayMatch(_ request: ControlRequest) -> Result<JSON, BusError> {
        switch ShortcutInput.text(request.body, "text", required: true) {
        case .failure(let e): return .failure(e)
        case .success(let text):
            return resolve(text!, scope: ownerScope(request), context: RequestContext.of(request.options)).map { $0.1 }
        }
    }
}
