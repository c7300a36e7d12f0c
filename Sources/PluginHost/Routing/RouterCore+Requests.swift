import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// A client's REQUEST: admission and routing; the exchange they decide on is opened and
/// delivered by the pipeline (Pipeline/RequestPipeline.swift). The rules are the parts'
/// (Admission, Authentication, UnservedIntent); this carries them out.
/// (The client's ANSWER and CANCEL: Conversation/Conversation.swift.)
extension RouterCore {
    func startRequest(_ envelope: RoutingEnvelope, _ msg: WireMessage, frames: [Frame] = []) {
        let state = pipeline.book.clients.state(for: envelope.identity)
        let grant = clientKeysRequired ? authentication.grant(for: state, frames: frames, clients: &pipeline.book.clients) : nil
        if state.open[msg.requestId] != nil {
            // Not final: the id belongs to the open request, which goes on.
            return conversation.refuse(envelope, kind: "REQUEST", requestId: msg.requestId, intent: msg.intent,
                          BusError(.duplicateRequest, "request id \"\(msg.requestId)\" is already open; this REQUEST was not taken and the open request goes on"))
        }
        var options = JSON.object([:])
        if let problem = requestProblem(envelope, msg, state, options: &options) { return reject(envelope, msg, problem) }
        if clientKeysRequired,
           let problem = authentication.rightsProblem(grant, msg, state, options: &options, now: effects.now()) {
            return reject(envelope, msg, problem)
        }
        if msg.intent.hasPrefix("ib.") {
            return handleControl(envelope, msg, options: options)
        }
        guard let claimants = routes[msg.intent], !claimants.isEmpty else {
            if let disabled = disabledClaims[msg.intent] { return reject(envelope, msg, UnservedIntent.disabled(msg.intent, disabled, slots)) }
            return reject(envelope, msg, UnservedIntent.unknown(msg.intent, routes))
        }
        // A plugin disabled at run time is no candidate (unless named: it then says so).
        let candidates = options["plugin"] == nil ? claimants.filter { !slots[$0].disabledAtRunTime } : claimants
        guard !candidates.isEmpty else { return reject(envelope, msg, UnservedIntent.disabledAtRunTime(msg.intent, claimants, slots)) }
        var chosen = candidates[0]
        // Set when no default applies and the client must pick (the "choosing" stage):
        // the exchange then exists before its plugin is known.
        var question: JSON?
        switch choosePlugin(msg.intent, candidates: candidates, options: options) {
        case .plugin(let index): chosen = index
        case .ask(let prompt): question = prompt
        case .failure(let error): return reject(envelope, msg, error)
        }
        let slot = slots[chosen]
        if question == nil, let error = admissionError(slot, intent: msg.intent, options: options) {
            return reject(envelope, msg, error)
        }
        let exchange = pipeline.open(envelope, msg, pluginIndex: chosen, options: options,
                                     header: Admission.deliveryHeader(options: options), body: msg.body, state: state)
        if let question {
            guard choiceBook.isShared else { return askForPlugin(exchange, candidates: candidates, prompt: question) }
            // Another host may have remembered a choice a moment ago: look before asking
            // (milliseconds; a database that is away fails the look at once, then it asks).
            return choiceBook.refresh { [unowned self] in
                guard book[exchange.hostId] === exchange else { return }
                switch choosePlugin(msg.intent, candidates: candidates, options: options) {
                case .ask(let prompt): askForPlugin(exchange, candidates: candidates, prompt: prompt)
                case .failure(let error): pipeline.fail(exchange, error)
                case .plugin(let index):
                    exchange.pluginIndex = index
                    let slot = slots[index]
                    if let error = admissionError(slot, intent: msg.intent, options: options) { return pipeline.fail(exchange, error) }
                    exchange.timeout = requestTimeout(slot, options: options)
                    pipeline.dispatch(exchange, slot, received: msg)
                }
            }
        }
        if let named = options["plugin"]?.stringValue, options["remember"]?.boolValue == true {
            return rememberThenDispatch(exchange, slot, plugin: named, received: msg)
        }
        pipeline.dispatch(exchange, slot, received: msg)
    }

    /// `plugin` with `remember: true`: stored before the request goes on, so that its
    /// answer acknowledges the commit; a change beyond the client's rate gets `busy`.
    private func rememberThenDispatch(_ exchange: Exchange, _ slot: PluginSlot, plugin: String, received msg: WireMessage) {
        let client = exchange.options["client"]?.stringValue
        let limits = manifest.host.limits
        guard !choiceBook.wouldChange(intent: msg.intent, client: client, plugin: plugin, source: "always")
                || exchange.clientState.takeWriteToken(now: effects.now(), perSecond: limits.choiceWritesPerSecond,
                                                       burst: limits.choiceWriteBurst) else {
            return pipeline.fail(exchange, ChoiceDefaults.writeRateError(manifest.host.limits))
        }
        pipeline.armDeadline(exchange)
        rememberChoice(intent: msg.intent, client: client, plugin: plugin, source: "always") { [unowned self] in
            if book[exchange.hostId] === exchange { pipeline.dispatch(exchange, slot, received: msg) }
        }
    }

    /// Why `slot` can't take a request for `intent` now (restricted without the right
    /// credential, unavailable, full), or nil.
    func admissionError(_ slot: PluginSlot, intent: String, options: JSON) -> BusError? {
        Admission.pluginProblem(slot, intent: intent, options: options, authentication: authentication,
                                retrySpawn: { retryFailedSpawn($0) }, full: { isFull($0) })
    }

    /// Why a REQUEST can't be taken before routing looks at it (size, id, header, the
    /// client's own limits), or nil: the facts from the core's tables and the lane's, the
    /// rules `Admission`'s, which the relay lane asks too (RouterCore+Lane.swift).
    func requestProblem(_ envelope: RoutingEnvelope, _ msg: WireMessage, _ state: ClientState,
                        options: inout JSON) -> BusError? {
        let lane = relayLane.map { lane in
            envelope.identity.withUnsafeBytes { lane.open(client: $0, hash: ByteHash.hash($0)) }
        } ?? (count: 0, bytes: 0)
        let facts = RequestFacts(size: msg.header.count + msg.body.count, hasId: !msg.requestId.isEmpty,
                                 shuttingDown: draining || stopping, clientBacklog: effects.clientBacklog(envelope.identity),
                                 clientOpen: state.open.count + lane.count, hostOpen: book.count + (relayLane?.count ?? 0),
                                 clientBytes: state.openBytes + lane.bytes, hostBytes: book.openBytes + (relayLane?.bytes ?? 0))
        return admission.problem(facts, request: msg, options: &options)
    }

    /// The admission rules under the limits in force (a reload may change them).
    var admission: Admission { Admission(limits: manifest.host.limits) }

    /// The one authentication check, under the settings in force.
    var authentication: Authentication {
        Authentication(host: manifest.host, clientKeysRequired: clientKeysRequired)
    }

    /// Whether requests for `intent` to this plugin are restricted (`Admission.isRestricted`).
    func isRestricted(_ slot: PluginSlot, _ intent: String) -> Bool { Admission.isRestricted(slot.spec, intent) }

    /// Why a ready plugin can't take one more request (`Admission.capacityProblem`); the
    /// relay lane asks this too, for the plugin of a lane route.
    func capacityProblem(_ slot: PluginSlot) -> BusError? { Admission.capacityProblem(slot, full: isFull(slot)) }

    /// The plugin timeout for one request (`Admission.timeout`).
    func requestTimeout(_ slot: PluginSlot, options: JSON) -> UInt64 { Admission.timeout(slot.spec, options: options) }

    /// Sends a host intent that a forwarding handler routed to a plugin, as an exchange on
    /// the plain path: the plugin's REPLY or ERROR is relayed, with the usual timeout, busy
    /// and crash handling.
    func forwardControl(_ envelope: RoutingEnvelope, _ msg: WireMessage, options: JSON, to forward: ControlForward) {
        let slot = slots[forward.pluginIndex]
        if let error = admissionError(slot, intent: msg.intent, options: options) {
            return reject(envelope, msg, error)
        }
        let exchange = pipeline.open(envelope, msg, pluginIndex: forward.pluginIndex, options: options,
                                     header: Frame(), body: Frame(data: forward.body.canonicalData))
        pipeline.dispatch(exchange, slot)
    }
}
