import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// The one entry for what the sockets deliver, and what the core tells its relay lane
/// (Relay/RelayLane.swift, which owns the lane's requests and runs its paths): which routes
/// may take the fast path, and the core's side of `LaneCore`. The core alone decides and
/// writes its tables; the shell alone writes sockets (`RawForward`).
extension RouterCore: LaneCore {
    /// A message from one side: to the relay lane when it is a REQUEST it may take or a REPLY
    /// the lane can finish exactly as the general path would; else, after any lane
    /// request the message concerns has been promoted, to the general path. True when the
    /// lane took it (for tests; the shell does not need to know).
    @discardableResult
    func receive(_ side: RouterSide, _ m: RawMessage) -> Bool {
        assertConfined()
        if let lane = relayLane {
            switch side {
            case .clients:
                if lane.takeRequest(m, self) { return true }
                lane.promoteConcerned(client: m, self)
            case .plugins:
                if lane.takeReply(m, self) { return true }
                lane.promoteConcerned(plugin: m, self)
            }
        }
        switch side {
        case .clients: clientFrames(m.takeFrames())
        case .plugins: pluginFrames(m.takeFrames())
        }
        return false
    }

    /// Turns the relay lane on (the shell does, unless `INTENTBUS_RELAY_LANE=0`).
    func enableRelayLane() { relayLane = RelayLane() }

    /// Promotes every open lane request (before the core looks at all of them).
    func promoteAll() { relayLane?.promoteAll(self) }
    /// Lane requests past their deadline go to the general path, whose timer ends them.
    func promoteDue() { relayLane?.promoteDue(self) }
    /// The earliest deadline of a lane request, for the poll timeout.
    var nextLaneDeadline: UInt64? { relayLane?.nextDeadline }

    // MARK: - Which routes

    /// The plugin and timeout of a request for `intent` when nothing in the request itself
    /// can change how it is routed, admitted or delivered, so that it may take the lane;
    /// nil when some request for it needs the general path. Built from the routing and
    /// admission functions themselves: one claimant and no disabled one (`choosePlugin`
    /// has nothing to choose), no restriction (`isRestricted`), no extension asking to see
    /// every request, and none of the per-request work of instances, idempotent replay,
    /// on-demand stop or Majordomo workers. The plain style, or another whose extension
    /// declares a check of each body (`RouterExtension.laneCheck`: a new-style intent,
    /// NewStyleLaneCheck), returned with the route.
    func laneRoute(_ intent: String, _ claimants: [Int]) -> (slot: Int, timeout: UInt64, check: (any LaneRequestCheck)?)? {
        guard claimants.count == 1, disabledClaims[intent] == nil, !intent.hasPrefix("ib."),
              hostIntents[intent] == nil else { return nil }
        let slot = slots[claimants[0]]
        let spec = slot.spec
        guard spec.enabled, !slot.retired, !isRestricted(slot, intent),
              !spec.mdpWorker, slot.primaryIndex == nil, slot.instanceSlots.isEmpty,
              spec.idempotentIntents.isEmpty, spec.lifecycle.idleTimeout == nil,
              !extensions.contains(where: { $0.needs.contains(.everyRequest) }) else { return nil }
        // Another style: when the extension whose flow serves it declares a check for it
        // (a new-style intent: NewStyleLaneCheck), and no CURVE frontend (a grant's name would go in its header).
        var check: (any LaneRequestCheck)?
        let style = slot.style(for: intent)
        if style != .plain {
            guard !clientKeysRequired,
                  let declared = extensions.lazy.compactMap({ $0.laneCheck(intent: intent, style: style, plugin: slot) }).first
            else { return nil }
            check = declared
        }
        return (slot.index, requestTimeout(slot, options: .object([:])), check)
    }

    // MARK: - LaneCore

    func laneRoutes() -> (intents: [LaneRoute], peers: [[UInt8]?]) {
        var peers = [[UInt8]?](repeating: nil, count: slots.count)
        for (identity, slot) in identities where slot < peers.count { peers[slot] = [UInt8](identity) }
        let intents = routes.sorted { $0.key < $1.key }.compactMap { intent, claimants in
            laneRoute(intent, claimants).map { (intent: intent, slot: $0.slot, timeout: $0.timeout, check: $0.check) }
        }
        return (intents, peers)
    }

    var shuttingDown: Bool { draining || stopping }
    var coreOpen: (count: Int, bytes: Int) { (book.count, book.openBytes) }

    func coreClient(_ identity: UnsafeRawBufferPointer) -> ClientState? {
        book.count > 0 || clientKeysRequired ? book.clients.existing(Data(identity)) : nil
    }

    func admits(_ facts: RequestFacts, _ slot: PluginSlot) -> Bool {
        admission.problem(facts) == nil && capacityProblem(slot) == nil
    }

    func laneOpened(_ slot: PluginSlot) {
        slot.inFlight += 1
        noteBusy(slot)
    }

    func laneReplied(_ slot: PluginSlot, startedAt: UInt64) {
        let now = effects.now()
        slot.lastHeard = now
        slot.inFlight -= 1
        stats?.served(plugin: slot.index, startedAt: startedAt, now: now)
    }

    func adoptPromoted(_ exchange: Exchange, bytes: Int, deadline: UInt64, body: Frame?) {
        stats?.promoted += 1
        pipeline.book.open(exchange, bytes: bytes, promoted: true)
        pipeline.book.armDeadline(exchange, at: deadline)
        if let body { for ext in extensions { ext.flowStarting(exchange, body: body) } }
    }

    func laneSucceeded(intent: String, slot: Int, client: String?, body: UnsafeRawBufferPointer) {
        roundHadLaneSuccess = true
        for ext in laneSuccessExtensions { ext.laneRequestSucceeded(intent: intent, plugin: slot, client: client, body: body) }
    }

    func clientState(for identity: Data) -> ClientState { pipeline.book.clients.state(for: identity) }
}
