import Foundation
import IntentBusCore
import IntentBusZMQ

/// What the relay lane needs of the core, and no more (`RouterCore` is the one conformer,
/// RouterCore+Lane.swift). The lane reads the plugins, the routing epoch and the core's
/// counts, asks the core's own admission rules, and hands over the few changes the core
/// makes for it: a plugin's in-flight count and sign of life, the statistics, a promoted
/// request's `Exchange`. It writes no
/// socket (its sends are `RawForward`s through `effects`) and none of the core's tables.
///
/// The lane's methods are generic over this protocol, so that in an optimised build they
/// are specialised for `RouterCore` and call it directly, with no witness-table hop on the
/// hot path.
protocol LaneCore: AnyObject {
    var effects: any RouterEffects { get }
    var logger: Logger { get }
    var slots: [PluginSlot] { get }
    /// Bumped whenever routes or plugin connections change; the lane's routes are built
    /// for one epoch.
    var routingEpoch: UInt64 { get }
    /// A CURVE frontend: requests carry the client's name to the plugin.
    var clientKeysRequired: Bool { get }
    /// SIGTERM arrived or the host is stopping: admission refuses new requests.
    var shuttingDown: Bool { get }
    var extensions: [any RouterExtension] { get }
    /// The host intents that read every open request (so a request for one promotes all).
    var hostIntentsReadingOpenRequests: Set<String> { get }
    /// The intents the lane may take, each with its plugin and timeout (the core decides:
    /// `RouterCore.laneRoute`), and the plugins' connection identities by slot index.
    func laneRoutes() -> (intents: [LaneRoute], peers: [[UInt8]?])
    /// The core's open requests and their bytes.
    var coreOpen: (count: Int, bytes: Int) { get }
    /// The core's entry for a client, when it has one (nil quickly when the core holds
    /// nothing and clients are not keyed).
    func coreClient(_ identity: UnsafeRawBufferPointer) -> ClientState?
    /// Whether the core's rules admit a request with these facts for this plugin: the
    /// same `Admission.problem` and `capacityProblem` as the general path.
    func admits(_ facts: RequestFacts, _ slot: PluginSlot) -> Bool
    /// A lane request went out to `slot`: the core counts it (in flight, not idle).
    func laneOpened(_ slot: PluginSlot)
    /// A lane request's REPLY went to its client (or the client had gone): the core
    /// records it (the plugin heard from, one fewer in flight, the statistics).
    func laneReplied(_ slot: PluginSlot, startedAt: UInt64)
    /// A promoted lane request: the core opens it in its book, `delivered`, under the same
    /// host id, with its bytes and its deadline. `body`: a checked request's, whose flow
    /// (already in `exchange.flow`) starts delivered; the extensions see it start.
    func adoptPromoted(_ exchange: Exchange, bytes: Int, deadline: UInt64, body: Frame?)
    /// A checked lane request's successful REPLY went to its client: the extensions see
    /// it end (`RouterExtension.laneRequestSucceeded`).
    func laneSucceeded(intent: String, slot: Int, client: String?, body: UnsafeRawBufferPointer)
    /// The core's entry for a client, made when new (a promoted request belongs to it).
    func clientState(for identity: Data) -> ClientState
}

extension RouterEvent {
    /// Whether the core may look at every open request for this event (a plugin's exit,
    /// shutdown, a reload), so that the lane's must be promoted first.
    var needsAllRequests: Bool {
        switch self {
        case .pluginExited, .shutdown, .reload: true
        case .choiceWritten, .extensionFinished, .stateReloaded: false
        }
    }
}
