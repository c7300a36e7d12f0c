import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// Handing lane requests to the general path: whenever the core must see a lane request
/// as an `Exchange` (an ERROR, PROMPT or PROGRESS from its plugin, the client's CANCEL or
/// ANSWER, a reused request id, its deadline, its plugin's exit, a reload, shutdown, a host
/// intent that declares it reads open requests), the entry becomes an ordinary exchange
/// under the same host id, delivered, with its deadline in the core's timers. One-way.
extension RouterCore {
    /// Makes the open lane request `e` an exchange of the general path.
    func promote(_ e: Int, _ lane: RelayLane) {
        let entry = lane.entries[e]
        let id = lane.id(e)
        let identity = Data(lane.store.bytes(e, 0))
        let requestId = String(decoding: lane.store.bytes(e, 1), as: UTF8.self)
        let route = lane.routes.routes[Int(entry.route)]
        lane.release(e)  // before the core's tables count it
        let state = book.clients.state(for: identity)
        // The header as the general path would have read it: empty, or only `timeout_ms`.
        let options: JSON = entry.timeout == route.timeout ? .object([:]) : ["timeout_ms": .int(Int64(entry.timeout / 1_000_000))]
        let exchange = Exchange(hostId: id, client: RoutingEnvelope(identity: identity, isRequestReply: entry.isRequestReply),
                                clientState: state, clientRequestId: requestId, intent: route.intent,
                                pluginIndex: Int(entry.slot), timeout: entry.timeout, options: options,
                                stage: .delivered, startedAt: entry.startedAt)
        stats?.promoted += 1
        book.open(exchange, bytes: Int(entry.size), promoted: true)
        book.armDeadline(exchange, at: entry.deadline)
    }

    /// Promotes every open lane request (before the core looks at all of them: an exit, a
    /// reload, shutdown, new routes).
    func promoteAll() {
        guard let lane = relayLane, lane.count > 0 else { return }
        for e in lane.entries.indices where lane.entries[e].serial != 0 { promote(e, lane) }
    }

    /// Before the general path gets a client message the lane did not take: the lane
    /// request it names, if any, is promoted (a CANCEL, an ANSWER, a reused id). A host
    /// intent promotes all only when it declared that it reads open requests
    /// (`RouterExtension.intentsReadingOpenRequests`): `ib.ping` and `ib.metrics` don't.
    func promoteConcerned(client m: RawMessage, _ lane: RelayLane) {
        guard lane.count > 0 else { return }
        let base = m.count >= 2 && m.size(1) == 0 ? 2 : 1
        if m.count >= base + 4, m.bytes(base + 3).starts(with: "ib."),
           hostIntentsReadingOpenRequests.contains(String(decoding: m.bytes(base + 3), as: UTF8.self)) {
            return promoteAll()
        }
        guard m.count >= base + 3 else { return }
        let identity = m.bytes(0)
        let identityHash = ByteHash.hash(identity)
        guard let client = lane.clients.find(identity, hash: identityHash) else { return }
        let requestId = m.bytes(base + 2)
        if let e = lane.findOpen(ByteHash.hash(requestId, identityHash), client: client, requestId: requestId) {
            promote(e, lane)
        }
    }

    /// Before the general path gets a plugin message the lane did not take: the request it
    /// names is promoted; a HELLO or DISCONNECT changes the plugin's connection, so all are.
    func promoteConcerned(plugin m: RawMessage, _ lane: RelayLane) {
        guard lane.count > 0, m.count >= 4 else { return }
        if !(m.frame(2, equals: "REPLY") || m.frame(2, equals: "ERROR") || m.frame(2, equals: "PROMPT")
             || m.frame(2, equals: "PROGRESS") || m.frame(2, equals: "HEARTBEAT")) {
            return promoteAll()
        }
        if let e = lane.openEntry(named: m.bytes(3)) { promote(e, lane) }
    }

    /// The earliest deadline of a lane request, for the poll timeout.
    var nextLaneDeadline: UInt64? { relayLane?.nextDeadline }

    /// Lane requests whose deadline has passed go to the general path, whose timer then
    /// ends them with `timeout` (its deadline is the same moment).
    func promoteDue() {
        guard let lane = relayLane, lane.count > 0 else { return }
        for e in lane.due(now: effects.now()) { promote(e, lane) }
    }
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
