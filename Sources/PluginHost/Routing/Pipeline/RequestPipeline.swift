import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// What the request pipeline needs of the core: the manifest in force, the extensions
/// (flows, their start, an exchange's end, a HELLO's check), what flows may do, and the
/// relay lane's requests promoted before the pipeline looks at every one of a plugin's,
/// a client's or all of them. Implemented by `RouterCore` (RouterCore+Pipeline.swift).
protocol PipelineHost: AnyObject {
    /// The manifest in force (a reload may replace it): its timeouts.
    var manifest: Manifest { get }
    /// Its limits, read per plugin message (a small value: no copy of the manifest).
    var limits: HostLimits { get }
    var extensions: [any RouterExtension] { get }
    /// The conversation's `FlowDriver`, handed to the flows.
    var flows: FlowDriver { get }
    func promoteAll()
    func promoteLane(slot: Int)
    func promoteLane(client identity: Data)
}

/// The open requests from the moment one is admitted to its final answer (docs/design.md,
/// "The core's parts"): it owns the exchange book (the exchanges, their clients, every
/// timer) and the drain, and carries a request through — open, dispatch (to the least
/// loaded instance, or the plugin's queue), begin (a flow, or the plain REQUEST moved on),
/// the plugin's answer on the plain path, a redelivery (an undelivered request, an
/// idempotent one's retry), and the one place an exchange ends (`complete`).
///
/// Admission, routing and choosing stay with the core, which opens an exchange here once
/// they have decided; the plugins' side is the fleet's, whose `FleetHost` this is. It
/// reaches the core only through `PipelineHost`. A class, not a struct in the core: ending
/// an exchange calls back into the extensions and the fleet, which read the book meanwhile.
///
/// Confined to the router thread, like the core that holds it (`RouterCore.pipeline`).
final class RequestPipeline {
    let logger: Logger
    /// The shell's effects (the core's, unowned for the same reason).
    unowned(unsafe) let effects: any RouterEffects
    /// The core, set right after it has built this part.
    unowned(unsafe) var host: (any PipelineHost)!
    /// The plugins (the core's fleet; its host is this pipeline).
    let fleet: PluginFleet
    /// The open requests, their clients and the timers (ExchangeBook.swift). Only the
    /// pipeline opens and closes exchanges; the core writes the client table's grants.
    var book = ExchangeBook()
    /// Shutdown has begun: every request has been answered, plugins are being stopped.
    /// Both flags are written only by the drain (RequestPipeline+Ends.swift).
    var stopping = false
    /// SIGTERM arrived: no new requests; open ones may finish (`host.drain_timeout`).
    var draining = false

    init(fleet: PluginFleet, logger: Logger, effects: any RouterEffects) {
        self.fleet = fleet
        self.logger = logger
        self.effects = effects
    }

    var slots: [PluginSlot] { _read { yield fleet.slots } }

    // MARK: - Opening and delivery

    /// Registers a new exchange for a client request, under a fresh host request id.
    func open(_ envelope: RoutingEnvelope, _ msg: WireMessage, pluginIndex: Int, options: JSON,
              header: Frame, body: Frame, state known: ClientState? = nil) -> Exchange {
        // The caller usually has the client's state already: one table lookup per request.
        let state = known ?? book.clients.state(for: envelope.identity)
        return book.open(envelope, state, msg, pluginIndex: pluginIndex,
                         timeout: Admission.timeout(slots[pluginIndex].spec, options: options),
                         options: options, header: header, body: body)
    }

    /// Sends an admitted exchange to its plugin, or queues it until the plugin is ready.
    /// `received` is the client's REQUEST, forwarded itself when the plugin is ready.
    func dispatch(_ exchange: Exchange, _ chosen: PluginSlot, received msg: WireMessage? = nil) {
        armDeadline(exchange)
        let slot = chosen.instanceSlots.isEmpty ? chosen : leastLoadedInstance(of: chosen, for: exchange)
        if slot.identity != nil {
            begin(exchange, slot, received: msg)
        } else {
            slot.waiting.append(exchange.hostId)
            fleet.activateIfNeeded(slot)
        }
    }

    /// Sends the first message of an exchange to its (ready) plugin. On the plain path the
    /// client's `received` message, when given, is forwarded itself (its frames move on).
    func begin(_ exchange: Exchange, _ slot: PluginSlot, received: WireMessage? = nil) {
        guard case .pending(let header, let body) = exchange.stage else { return }
        slot.inFlight += 1
        fleet.noteBusy(slot)
        exchange.stage = .delivered
        if exchange.flow == nil {
            let style = slot.style(for: exchange.intent)
            for ext in host.extensions {
                if let flow = ext.flow(style: style, exchange: exchange, plugin: slot) {
                    exchange.flow = flow
                    break
                }
            }
        }
        if let flow = exchange.flow {
            for ext in host.extensions { ext.flowStarting(exchange, body: body) }
            return flow.start(exchange, body: body, host.flows)
        }
        if !slot.spec.idempotentIntents.isEmpty { keepForReplay(exchange, slot, header: header, body: body) }
        let message = received ?? WireMessage(kind: .request, intent: exchange.intent)
        message.requestId = exchange.wireId
        message.header = header
        message.body = body
        sendToPlugin(slot, message, exchange: exchange)
    }

    /// The least loaded instance of `primary` (`PluginFleet.leastLoadedInstance`), which
    /// `exchange` moves to.
    func leastLoadedInstance(of primary: PluginSlot, for exchange: Exchange, excluding: PluginSlot? = nil) -> PluginSlot {
        let chosen = fleet.leastLoadedInstance(of: primary, excluding: excluding)
        exchange.pluginIndex = chosen.index
        return chosen
    }

    /// Sends to a plugin; a full pipe ends the exchange with `busy` instead of losing it.
    func sendToPlugin(_ slot: PluginSlot, _ msg: WireMessage, exchange: Exchange?) {
        guard let identity = slot.identity else {
            if let exchange { fail(exchange, BusError(.pluginUnavailable, "plugin \(slot.spec.id) is not connected")) }
            return
        }
        switch effects.sendToPlugin(identity, msg.frames) {
        case .sent:
            return
        case .full:
            if let exchange {
                fail(exchange, BusError(.busy, "plugin \(slot.spec.id) is not reading its messages fast enough; try again later"))
            }
        case .unreachable(let why):
            logger.warning("could not send \(msg.kind.rawValue) to plugin \(slot.spec.id): \(why)")
            guard let exchange else { return }
            if msg.kind == .request, requeueUndelivered(exchange, slot, header: msg.header, body: msg.body) { return }
            fail(exchange, BusError(.pluginUnavailable, "plugin \(slot.spec.id) is not reachable: \(why)"))
        }
    }
}

// MARK: - FleetHost

/// The request side's answers to the fleet (Fleet/PluginFleet.swift).
extension RequestPipeline: FleetHost {
    func arm(_ timer: RouterTimer, after nanoseconds: UInt64) {
        book.schedule(timer, at: deadline(after: nanoseconds))
    }

    func helloProblem(_ slot: PluginSlot, _ hello: JSON) -> String? {
        host.extensions.lazy.compactMap { $0.checkHello(slot, hello) }.first
    }

    func beginWaiting(_ slot: PluginSlot) {
        let waiting = slot.waiting
        slot.waiting.removeAll()
        for hostId in waiting {
            if let exchange = book[hostId] { begin(exchange, slot) }
        }
    }

    func failInFlight(_ slot: PluginSlot, _ error: BusError) {
        host.promoteLane(slot: slot.index)  // its lane requests too; the others stay
        for exchange in book.delivered(to: slot.index) { fail(exchange, error) }
        slot.inFlight = 0
    }

    func failWaiting(_ slot: PluginSlot, _ error: BusError) {
        let waiting = slot.waiting
        slot.waiting.removeAll()
        for hostId in waiting {
            if let exchange = book[hostId] { fail(exchange, error) }
        }
    }

    // `retryIdempotent`: RequestPipeline+Redelivery.swift.
}
