import Foundation
import IntentBus

/// The host side of shortcuts (docs/shortcuts.md): the phrase catalog, the store of user
/// phrases and donations, and the host intents over them. `install` wires it into the
/// router through narrow hooks; everything here then runs on the router thread.
final class ShortcutCenter {
    /// Longest phrase, identifier, title or group accepted from outside, in characters.
    static let maximumTextLength = 200
    /// Largest parameters object accepted in a user phrase or donation (canonical JSON).
    static let maximumParametersBytes = 16_384
    /// Most words a said text may have: phrases are short, and matching costs grow with it.
    static let maximumSaidWords = 32

    let catalog: ShortcutCatalog
    let logger: Logger
    unowned let router: IntentRouter
    /// Nil when the store could not be opened; `storeProblem` says why.
    let store: ShortcutStore?
    let storeProblem: String?
    var clock: () -> Date = Date.init

    init(router: IntentRouter, stateDirectory: String) {
        self.router = router
        logger = router.logger
        catalog = ShortcutCatalog(manifest: router.manifest)
        do {
            let opened = try ShortcutStore(directory: stateDirectory)
            if let note = opened.recoveryNote { router.logger.warning(note) }
            store = opened
            storeProblem = nil
        } catch {
            router.logger.error("shortcut store: \(error); user phrases and donations are unavailable")
            store = nil
            storeProblem = error.description
        }
    }

    // MARK: - Which plugins count

    /// Whether `plugin` can serve `intent` now: enabled, and claiming it.
    func serves(_ plugin: String, _ intent: String) -> Bool {
        (router.routes[intent] ?? []).contains { router.slots[$0].spec.id == plugin }
    }

    /// Checks a plugin's app shortcuts at HELLO; returns the problem that refuses it.
    func checkHello(_ slot: PluginSlot, _ hello: JSON) -> String? {
        let section = hello["metadata"]?["new_style"]
        let (newStyle, _) = NewStyleCatalog.parse(hello: hello)
        let outcome = ShortcutRules.check(newStyle: section, catalog: newStyle, context: catalog.context(for: slot.spec.id))
        guard outcome.errors.isEmpty else { return "invalid app shortcuts: " + outcome.errors.joined(separator: "; ") }
        for warning in outcome.warnings { logger.warning("plugin \(slot.spec.id): \(warning)") }
        for conflict in catalog.setApp(outcome.phrases, plugin: slot.spec.id) { logger.warning(conflict) }
        return nil
    }

    // MARK: - Saying

    /// What a said text runs: a user phrase first, then the app and legacy phrases.
    func resolve(_ text: String) -> Result<(HandOn, JSON), BusError> {
        let key = PhraseText.normalised(text)
        guard !key.isEmpty else { return .failure(BusError(.invalidParameters, "say what? The text has no words")) }
        let count = key.split(separator: " ").count
        guard count <= Self.maximumSaidWords else {
            return .failure(BusError(.invalidParameters, "the text has \(count) words; a phrase has at most \(Self.maximumSaidWords)"))
        }
        if let store, let user = try? store.userPhrase(key: key) {
            let via: JSON = ["source": "user", "phrase": .string(user.phrase), "intent": .string(user.intent),
                             "parameters": user.parameters, "plugin": user.plugin.map { .string($0) } ?? .null]
            return .success((HandOn(intent: user.intent, parameters: user.parameters, plugin: user.plugin), via))
        }
        let usable: (ShortcutPhrase) -> Bool = { [unowned self] in serves($0.plugin, $0.intent) }
        let candidates = catalog.match(text, usable: usable)
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
        let claimants = (router.routes[first.phrase.intent] ?? []).map { router.slots[$0].spec.id }
        let plugin: String? = plugins.count == 1 && claimants.count > 1 ? plugins[0] : nil
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
            return resolve(text!).map { handOn, via in
                logger.info("say “\(text!)” → \(handOn.intent) \(handOn.parameters.canonicalString) (\(via["source"]?.displayText ?? ""))")
                return handOn
            }
        }
    }

    func sayMatch(_ request: ControlRequest) -> Result<JSON, BusError> {
        switch ShortcutInput.text(request.body, "text", required: true) {
        case .failure(let e): return .failure(e)
        case .success(let text): return resolve(text!).map { $0.1 }
        }
    }

    func storeFailure(_ error: ShortcutStoreError) -> BusError {
        logger.error("shortcut store: \(error)")
        return BusError(.internalError, "the shortcut store failed: \(error.detail)")
    }

    func requireStore() -> Result<ShortcutStore, BusError> {
        guard let store else {
            return .failure(BusError(.internalError, "the shortcut store is unavailable: \(storeProblem ?? "?")"))
        }
        return .success(store)
    }
}
