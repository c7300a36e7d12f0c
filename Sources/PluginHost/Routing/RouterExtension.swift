import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// What the legacy flow, the new-style flow and other extensions add to the router,
/// through one small interface: they never touch the core's fields. Installed before
/// routing starts; every method runs on the router thread.
protocol RouterExtension: AnyObject {
    /// Checks a plugin's HELLO beyond the basics (e.g. new-style metadata): the problem,
    /// or nil to accept it.
    func checkHello(_ plugin: any PluginView, _ hello: JSON) -> String?
    /// The flow for a request to `plugin` whose declared style for the intent is
    /// `style`, or nil for the plain path (frames forwarded without decoding).
    func flow(style: HandlerStyle, exchange: Exchange, plugin: any PluginView) -> (any ExchangeFlow)?
    /// The host intents (`ib.*`) this extension answers.
    var hostIntents: [String: HostIntent] { get }
    /// A multi-phase exchange's flow is about to start with the request `body` (the
    /// shortcuts extension keeps the parameters for its donation). Must not block.
    func flowStarting(_ exchange: Exchange, body: Frame)
    /// An exchange ends with `final`, just before it is sent (the shortcuts extension
    /// records donations). Called for every exchange; must be cheap and not block.
    func exchangeEnded(_ exchange: Exchange, final: WireMessage)
    /// Work the extension posted as `RouterEvent.extensionFinished` has finished; ids are
    /// the extension's own (an extension ignores ids it did not hand out).
    func finished(id: UInt64, result: Result<JSON, BusError>)
    /// Another host changed the shared state: replace what the extension caches of it
    /// (the shortcuts extension's user phrases).
    func stateReloaded(_ reload: StateReload)
    /// A reload read `new` (docs/lifecycle.md, "Hot reload"): the problems that refuse
    /// it (nothing changes then), or none. Called on every extension before anything is
    /// applied.
    func reloadProblems(_ new: Manifest) -> [String]
    /// The reload was applied: the router runs `new` (its plugins as applied).
    func reloaded(_ new: Manifest)
    /// The router has stopped: finish queued work and stop the extension's threads.
    func stop()
    /// What the extension must see that the relay lane would otherwise forward unseen:
    /// with `.everyRequest` no intent takes the lane, with `.everyPlainReply` no REPLY is
    /// forwarded by it (each becomes an `Exchange` and reaches `exchangeEnded`).
    var needs: RouterExtensionNeeds { get }
    /// Whether a plain REPLY with this header must reach `exchangeEnded` (the shortcuts
    /// extension: a header naming a donation). Asked once per plugin and header, when the
    /// lane would start forwarding that header unseen.
    func needsToSee(replyHeader: UnsafeRawBufferPointer) -> Bool
    /// The host intents among `hostIntents` that read every open request (so that a lane
    /// request is promoted to an `Exchange` first); none by default.
    var intentsReadingOpenRequests: Set<String> { get }
    /// Whether requests for `intent`, of declared `style` (not plain), to `plugin` may take
    /// the relay lane: the check each body must pass there, or nil (the default) for the
    /// general path. Asked when the lane's routes are rebuilt (a HELLO, a reload…).
    func laneCheck(intent: String, style: HandlerStyle, plugin: any PluginView) -> (any LaneRequestCheck)?
    /// A lane request a `laneCheck` admitted ended with a successful REPLY forwarded as is:
    /// what `flowStarting` and `exchangeEnded` would have seen of it (the shortcuts
    /// extension records its donation). `body` is the request's, valid for the call.
    func laneRequestSucceeded(intent: String, plugin: Int, client: String?, body: UnsafeRawBufferPointer)
    /// Whether the core calls `laneRequestSucceeded` and `roundEnded` (asked once, at
    /// install; false by default).
    var seesLaneSuccesses: Bool { get }
    /// A round of the router's loop (the messages and events its poll found) in which a
    /// lane request succeeded has been handled: hand over what `laneRequestSucceeded`
    /// gathered (the shortcuts extension queues the round's donations for the writer's
    /// thread as one job, not one per request).
    func roundEnded()
}

/// What an extension asks to see of the requests the relay lane would take.
struct RouterExtensionNeeds: OptionSet {
    let rawValue: Int
    /// Every request, as an `Exchange` (no fast path at all).
    static let everyRequest = RouterExtensionNeeds(rawValue: 1)
    /// Every plain REPLY, through `exchangeEnded`.
    static let everyPlainReply = RouterExtensionNeeds(rawValue: 2)
}

extension RouterExtension {
    func checkHello(_ plugin: any PluginView, _ hello: JSON) -> String? { nil }
    func flow(style: HandlerStyle, exchange: Exchange, plugin: any PluginView) -> (any ExchangeFlow)? { nil }
    var hostIntents: [String: HostIntent] { [:] }
    func flowStarting(_ exchange: Exchange, body: Frame) {}
    func exchangeEnded(_ exchange: Exchange, final: WireMessage) {}
    func finished(id: UInt64, result: Result<JSON, BusError>) {}
    func stateReloaded(_ reload: StateReload) {}
    func reloadProblems(_ new: Manifest) -> [String] { [] }
    func reloaded(_ new: Manifest) {}
    func stop() {}
    var needs: RouterExtensionNeeds { [] }
    func needsToSee(replyHeader: UnsafeRawBufferPointer) -> Bool { false }
    var intentsReadingOpenRequests: Set<String> { [] }
    func laneCheck(intent: String, style: HandlerStyle, plugin: any PluginView) -> (any LaneRequestCheck)? { nil }
    func laneRequestSucceeded(intent: String, plugin: Int, client: String?, body: UnsafeRawBufferPointer) {}
    var seesLaneSuccesses: Bool { false }
    func roundEnded() {}
}

/// How a host intent is answered.
enum HostIntent {
    /// At once, by the host.
    case answer((ControlRequest) -> Result<JSON, BusError>)
    /// Later, once a change has committed: the closure calls its completion on the router
    /// thread. Limited per client (limits.choice_writes_per_second).
    case later((ControlRequest, @escaping (Result<JSON, BusError>) -> Void) -> Void)
    /// By a plugin: the closure picks it and the body; its answer is relayed.
    case forward((ControlRequest) -> Result<ControlForward, BusError>)
    /// As an ordinary request (ib.say): the closure names the intent, parameters and
    /// plugin, and the exchange goes on as a REQUEST for them (`RouterCore.handOn`).
    case handOn((ControlRequest) -> Result<HandOn, BusError>)
}

/// What a hand-on host intent (ib.say) runs: an ordinary request for `intent` with
/// `parameters`, on `plugin` when given (else the usual choice).
struct HandOn {
    let intent: String
    let parameters: JSON
    let plugin: String?
}

/// A host intent request, as a handler sees it.
struct ControlRequest {
    let intent: String
    /// The request header (client identity, credential, …).
    let options: JSON
    /// The request body, parsed.
    let body: JSON
}

/// Where a forwarded host intent goes: a plugin and the body it receives.
struct ControlForward {
    let pluginIndex: Int
    let body: JSON
}

/// A plugin as extensions see it: read only.
protocol PluginView: AnyObject {
    var index: Int { get }
    var spec: PluginSpec { get }
    /// `spec.id`, without a copy of the whole spec (read per request on the relay lane).
    var id: String { get }
    /// Whether `spec` restricts `intent` while locked (`intents_restricted_while_locked`),
    /// without a copy of the whole spec.
    func restrictsWhileLocked(_ intent: String) -> Bool
    var stateName: String { get }
    var isReady: Bool { get }
    /// The style the plugin declared for `intent` in its HELLO (plain until then).
    func style(for intent: String) -> HandlerStyle
}

/// The router as extensions see it: read only.
protocol RouterView: AnyObject {
    var manifest: Manifest { get }
    var logger: Logger { get }
    /// Posts an event to the router thread from any thread (the shell's mailbox).
    var post: @Sendable (RouterEvent) -> Void { get }
    var plugins: [any PluginView] { get }
    /// `plugins[index]`, without making the array.
    func plugin(at index: Int) -> any PluginView
    /// Clients connect with CURVE keys and their grants decide (Authentication+Rights.swift).
    var clientKeysRequired: Bool { get }
    /// Sends a ready instance of `plugin` a REQUEST of the host's own (an `ib.entities`
    /// query): its REPLY or ERROR comes back as `finished(id:result:)` with `id`, the
    /// extension's. False when no instance is ready or too many are open; no answer (the
    /// plugin died or never answers) is the extension's to time out.
    func queryPlugin(_ plugin: String, intent: String, body: JSON, id: UInt64) -> Bool
    /// Forgets the host query `id` (timed out): a late answer is dropped.
    func forgetQuery(id: UInt64)
    /// The plugins and open requests now, as a value (Stats/RouterSnapshot.swift), for
    /// status reports.
    var snapshot: RouterSnapshot { get }
}

/// What an extension is handed when it is installed: the read-only view of the router
/// and the place to add itself (`IntentHost.run` installs the legacy, new-style,
/// shortcut and operations extensions through it). Public, because the extensions'
/// `install` functions are.
package final class IntentRouterHooks {
    let view: any RouterView
    var extensions: [any RouterExtension] = []

    init(view: any RouterView) { self.view = view }

    /// The manifest the host runs.
    package var manifest: Manifest { view.manifest }
    /// The host's logger.
    package var logger: Logger { view.logger }

    func add(_ ext: any RouterExtension) { extensions.append(ext) }
}
