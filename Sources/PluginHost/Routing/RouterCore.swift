import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// The router's state and decisions: the routing table, the exchanges, the clients, the
/// timers, admission and the choice policy (docs/design.md, "A plugin's REPLY arrives").
///
/// It does no I/O. Events come in through `clientFrames`, `pluginFrames`, `fireDueTimers`
/// and `handle(_:)`; what they lead to goes out through `effects` (send, spawn, signal).
/// `RouterShell` drives it from the poll loop; the unit tests drive it with recorded
/// effects and a clock they set, without a process or a socket.
///
/// Threading: confined to the router thread, the one that calls `start()`; debug builds
/// check it at every entry point. Nothing here is `Sendable`: other threads reach the
/// core only through the shell's mailbox, as `RouterEvent`s.
final class RouterCore: RouterView {
    /// The manifest in force; replaced by a hot reload (RouterCore+Reload.swift).
    var manifest: Manifest
    let logger: Logger
    /// The shell (or a test's recorder), which owns the core and outlives it: unowned
    /// without the reference-count check, since it is called several times per message
    /// (a checked unowned load is an atomic retain and release each time).
    unowned(unsafe) let effects: any RouterEffects
    /// Posts an event from another thread (the choice writer's); the shell's mailbox.
    let post: @Sendable (RouterEvent) -> Void

    /// The plugins: slots, routes, connections and their lifecycle (Fleet/PluginFleet.swift;
    /// read-only views of its tables: RouterCore+Fleet.swift).
    let fleet: PluginFleet
    /// The open requests from admission to their final answer, the book of them (their
    /// clients, the timers) and the drain (Pipeline/RequestPipeline.swift; the core's side
    /// of it: RouterCore+Pipeline.swift).
    let pipeline: RequestPipeline
    /// The pipeline's book, read-only.
    var book: ExchangeBook { _read { yield pipeline.book } }
    /// The relay lane (Relay/RelayLane.swift): plain requests in compact form, beside
    /// the book's exchanges, and their fast path; promoted into the book when the core must
    /// see them (Relay/RelayLane+Promotion.swift). Nil when it is off.
    var relayLane: RelayLane?
    /// The host intents that read every open request, so a request for one promotes the
    /// lane's first (declared by extensions: `RouterExtension.intentsReadingOpenRequests`).
    var hostIntentsReadingOpenRequests: Set<String> = []
    /// Remembered plugin choices (Choices/); replaced by one backed by the state
    /// directory before routing starts.
    var choiceBook = ChoiceBook(store: nil, problem: "the host has not opened its choice store")
    /// Shutdown has begun (the pipeline's).
    var stopping: Bool { pipeline.stopping }
    /// Clients must connect with a key listed in `host.clients` (CURVE frontend); their
    /// rights are checked per request (Authentication+Rights.swift).
    var clientKeysRequired = false
    /// SIGTERM arrived: no new requests; open ones may finish (the pipeline's).
    var draining: Bool { pipeline.draining }
    /// What extensions added (flows, HELLO checks, host intents).
    var extensions: [any RouterExtension] = []
    /// The extensions that see the lane's checked requests succeed
    /// (`RouterExtension.seesLaneSuccesses`): the lane calls only these, per request.
    private(set) var laneSuccessExtensions: [any RouterExtension] = []
    /// A lane request succeeded in this round of the shell's loop: `roundEnded` tells the
    /// extensions (which hand over what they gathered); a round without one costs nothing.
    var roundHadLaneSuccess = false
    /// The host intents (`ib.*`) and their answers (HostIntents.swift).
    var hostIntents = HostIntents()
    /// Requests the host itself sent a plugin for an extension (HostQueries.swift): their
    /// wire id → the extension's id.
    var hostQueries = HostQueries()
    /// Counters for `ib.status` and `ib.metrics` (Stats/HostStats.swift), handed over by
    /// whoever installs `OperationsExtension`: `reject` feeds them here; completed
    /// exchanges reach them through `OperationsExtension.exchangeEnded`.
    var stats: HostStats?
    /// The Majordomo endpoint's counters, when `host.mdp` is set (ib.status `mdp`).
    var majordomoCounters: MajordomoCounters?
    /// The client's side of taken requests, the refusals, and what flows may do
    /// (Conversation/; the core's side of it: RouterCore+Conversation.swift).
    let conversation: Conversation
    #if DEBUG
    private var owner: pthread_t?
    #endif

    init(manifest: Manifest, logger: Logger, effects: any RouterEffects,
         post: @escaping @Sendable (RouterEvent) -> Void) {
        self.manifest = manifest
        self.logger = logger
        self.effects = effects
        self.post = post
        fleet = PluginFleet(plugins: manifest.plugins, logger: logger, effects: effects)
        conversation = Conversation(logger: logger, effects: effects)
        pipeline = RequestPipeline(fleet: fleet, logger: logger, effects: effects)
        fleet.host = pipeline
        conversation.host = self
        pipeline.host = self
        installCoreIntents()
    }

    var plugins: [any PluginView] { slots }
    func plugin(at index: Int) -> any PluginView { slots[index] }
    var snapshot: RouterSnapshot { RouterSnapshot(self) }

    /// Adds an extension: its host intents and, at HELLO and dispatch, its checks and flows.
    func install(_ ext: any RouterExtension) {
        extensions.append(ext)
        if ext.seesLaneSuccesses { laneSuccessExtensions.append(ext) }
        for (name, intent) in ext.hostIntents { hostIntents[name] = intent }
        hostIntentsReadingOpenRequests.formUnion(ext.intentsReadingOpenRequests)
    }

    /// Starts the enabled plugins. Call once, on the thread that will own the core.
    func start() {
        #if DEBUG
        owner = pthread_self()
        #endif
        fleet.startEager()
    }

    /// Debug builds: the core is used from the thread that started it, and only that one.
    @inline(__always) func assertConfined() {
        #if DEBUG
        if let owner { assert(pthread_equal(owner, pthread_self()) != 0, "RouterCore used off its thread") }
        #endif
    }

    /// Whether the core has finished shutting down: stopping, and every plugin has exited.
    var isFinished: Bool { stopping && fleet.allExited }

    // MARK: - Events

    /// A message a client sent (its frames, identity first): the conversation part takes
    /// all but a REQUEST, which starts here (RouterCore+Requests.swift).
    func clientFrames(_ frames: [Frame]) {
        assertConfined()
        if let (envelope, msg) = conversation.clientFrames(frames) { startRequest(envelope, msg, frames: frames) }
    }

    /// Something that happened off the router thread.
    func handle(_ event: RouterEvent) {
        assertConfined()
        if event.needsAllRequests { promoteAll() }
        switch event {
        case .pluginExited(let index, let pid, let status):
            fleet.exited(index: index, pid: pid, status: status)
        case .choiceWritten(let id, let result):
            choiceBook.completed(id, result)
        case .extensionFinished(let id, let result):
            for ext in extensions { ext.finished(id: id, result: result) }
        case .stateReloaded(let reload):
            if let choices = reload.choices { choiceBook.replaceAll(with: choices) }
            for ext in extensions { ext.stateReloaded(reload) }
        case .shutdown:
            pipeline.beginDrain()
        case .reload(let trigger):
            _ = reload(trigger: trigger)
        }
    }

    /// The earliest timer, in monotonic nanoseconds, or nil.
    var nextDeadline: UInt64? { book.timers.nextDeadline }

    /// Runs the timers that are due.
    func fireDueTimers() {
        assertConfined()
        pipeline.fireDueTimers()
    }

    /// The shell has handled one round of its loop (what its poll found ready): the
    /// extensions hand over what they gathered during it (`RouterExtension.roundEnded`).
    func roundEnded() {
        guard roundHadLaneSuccess else { return }
        roundHadLaneSuccess = false
        for ext in laneSuccessExtensions { ext.roundEnded() }
    }
}
