import Foundation
import IntentBusCore
import IntentBusWire
import IntentBusZMQ
import IntentBusManifest

/// What the host intents need of the core to answer a client: its manifest's limits, its
/// effects, a client's state (for the choice-write rate), and its request side for the
/// answers that become requests (a forward to a plugin, a request handed on) or refusals.
/// `RouterCore` is the one conformer (RouterCore+HostIntents.swift).
protocol HostIntentsCore: AnyObject {
    var manifest: Manifest { get }
    var effects: any RouterEffects { get }
    func clientState(for identity: Data) -> ClientState
    func reject(_ envelope: RoutingEnvelope, _ msg: WireMessage, _ error: BusError)
    func forwardControl(_ envelope: RoutingEnvelope, _ msg: WireMessage, options: JSON, to forward: ControlForward)
    func startRequest(_ envelope: RoutingEnvelope, _ msg: WireMessage, frames: [Frame])
}

/// The host intents (`ib.*`, docs/protocol.md §6): the table of every one the core, the
/// fleet, the choice logic and the extensions registered, and answering a client's request
/// for one. `ib.ping`, `ib.plugins` (its answer is `PluginsReport`) and the fleet's
/// `ib.plugins.*` are registered here; `ib.reload` by the core (RouterCore+Reload.swift),
/// the rest by ChoiceIntents and the extensions. Owned by the core (`RouterCore.hostIntents`),
/// on the router thread.
struct HostIntents {
    private var table: [String: HostIntent] = [:]

    subscript(name: String) -> HostIntent? {
        get { table[name] }
        set { table[name] = newValue }
    }

    /// `ib.ping`, `ib.plugins`, and the fleet's `ib.plugins.restart|enable|disable`.
    mutating func installCore(_ fleet: PluginFleet) {
        table["ib.ping"] = .answer { _ in
            .success(["protocol": .int(WireProtocol.version), "pid": .int(Int64(getpid()))])
        }
        table["ib.plugins"] = .answer { [unowned fleet] _ in
            .success(PluginsReport(slots: fleet.slots, routes: fleet.routes, instances: fleet.instancesSummary).json)
        }
        for name in PluginFleet.controlIntents {
            table[name] = .answer { [unowned fleet] in fleet.control($0) }
        }
    }

    /// A client's request for a host intent: answered now or later, forwarded to a plugin,
    /// or handed on as an ordinary request; an unknown name or a body that is not JSON is
    /// refused.
    func handle<Core: HostIntentsCore>(_ envelope: RoutingEnvelope, _ msg: WireMessage, options: JSON, _ core: Core) {
        guard let handler = table[msg.intent] else {
            let known = table.keys.sorted().joined(separator: ", ")
            return core.reject(envelope, msg, BusError(.unknownIntent, "\(msg.intent) is not a host intent (\(known))"))
        }
        let body: JSON
        do { body = try msg.bodyJSON() } catch {
            // Parameters that are not JSON are wrong parameters, as for every intent (§2, §6).
            return core.reject(envelope, msg, BusError(.invalidParameters, "the body (the parameters of \(msg.intent)) is \(error.message)"))
        }
        let request = ControlRequest(intent: msg.intent, options: options, body: body)
        let (requestId, intent) = (msg.requestId, msg.intent)
        let answer: (Result<JSON, BusError>) -> Void = { [unowned core] result in
            switch result {
            case .success(let body):
                core.effects.sendToClient(envelope, WireMessage(kind: .reply, requestId: requestId, intent: intent,
                                                                header: .object(ReplyHeaderKey.header([.status: "success", .plugin: "ib"])), body: body))
            case .failure(let error):
                core.reject(envelope, msg, error)
            }
        }
        switch handler {
        case .answer(let handle):
            answer(handle(request))
        case .later(let handle):
            let limits = core.manifest.host.limits
            // Remembered-choice changes are rate-limited per client; other deferred host
            // intents have limits of their own.
            guard !msg.intent.hasPrefix("ib.choices.") || core.clientState(for: envelope.identity).takeWriteToken(
                now: core.effects.now(), perSecond: limits.choiceWritesPerSecond, burst: limits.choiceWriteBurst) else {
                return core.reject(envelope, msg, ChoiceDefaults.writeRateError(limits))
            }
            handle(request, answer)
        case .forward(let route):
            switch route(request) {
            case .success(let forward): core.forwardControl(envelope, msg, options: options, to: forward)
            case .failure(let error): core.reject(envelope, msg, error)
            }
        case .handOn(let pick):
            switch pick(request) {
            case .success(let handOn): Self.handOn(envelope, msg, options: options, as: handOn, core)
            case .failure(let error): core.reject(envelope, msg, error)
            }
        }
    }

    /// Hands a host intent's request on as an ordinary request for `request.intent`
    /// with `request.parameters` (and `plugin` in the header when given): the usual
    /// admission, routing, choice prompt, flows, prompts, progress and final answer,
    /// under the client's request id. The client's own header (client, credential,
    /// timeout_ms, choice) still applies.
    static func handOn<Core: HostIntentsCore>(_ envelope: RoutingEnvelope, _ msg: WireMessage, options: JSON,
                                              as request: HandOn, _ core: Core) {
        var header = options.objectValue ?? [:]
        if let plugin = request.plugin { header["plugin"] = .string(plugin) }
        core.startRequest(envelope, WireMessage(kind: .request, requestId: msg.requestId, intent: request.intent,
                                                header: .object(header), body: request.parameters), frames: [])
    }
}
