import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// Handing lane requests to the core: whenever the core must see a request of the lane,
/// the request becomes an ordinary `Exchange` (delivered, under the same host id, with
/// its deadline in the core's timers) and leaves the lane. Promotion is one-way.
extension RelayLane {
    /// Makes the open lane request `e` an exchange of the core.
    func promote(_ e: Int) {
        let entry = entries[e]
        let id = UInt64(entry.serial) << 32 | ExchangeTable.laneBit | UInt64(e)
        let identity = Data(store.bytes(e, 0))
        let requestId = String(decoding: store.bytes(e, 1), as: UTF8.self)
        let route = routes.routes[Int(entry.route)]
        let state = core.clients.state(for: identity)
        let exchange = Exchange(hostId: id, client: RoutingEnvelope(identity: identity, isRequestReply: entry.isRequestReply),
                                clientState: state, clientRequestId: requestId, intent: route.intent,
                                pluginIndex: Int(entry.slot), timeout: entry.timeout, options: options(entry, route),
                                stage: .delivered, startedAt: entry.startedAt)
        release(e)  // before the core's tables count it
        core.stats?.promoted += 1
        core.exchanges.insertPromoted(exchange)
        state.open[requestId] = id
        core.armDeadline(exchange, at: entry.deadline)
    }

    /// The request's header as the core would have read it: empty, or only `timeout_ms`.
    private func options(_ entry: RelayEntry, _ route: RelayRoutes.Route) -> JSON {
        entry.timeout == route.timeout ? .object([:]) : ["timeout_ms": .int(Int64(entry.timeout / 1_000_000))]
    }

    /// Promotes every open lane request (before the core looks at all of them: an exit, a
    /// reload, shutdown, a host intent).
    func promoteAll() {
        guard count > 0 else { return }
        for e in entries.indices where entries[e].serial != 0 { promote(e) }
    }

    /// Before the core gets a client message the lane did not take: its request, if the
    /// lane holds it, is promoted (a CANCEL, an ANSWER, a reused id); a host intent sees
    /// every request, so all are promoted for one.
    func beforeCore(client m: RawMessage) {
        guard count > 0 else { return }
        let base = m.count >= 2 && m.size(1) == 0 ? 2 : 1
        if m.count >= base + 4, m.bytes(base + 3).starts(with: "ib.") { return promoteAll() }
        guard m.count >= base + 3 else { return }
        let identity = m.bytes(0)
        let identityHash = ByteHash.hash(identity)
        guard let client = clients.find(identity, hash: identityHash) else { return }
        let requestId = m.bytes(base + 2)
        if let e = findOpen(ByteHash.hash(requestId, identityHash), client: client, requestId: requestId) { promote(e) }
    }

    /// Before the core gets a plugin message the lane did not take: the request it names
    /// is promoted; a HELLO or DISCONNECT changes the plugin's connection, so all are.
    func beforeCore(plugin m: RawMessage) {
        guard count > 0, m.count >= 4 else { return }
        if !(m.frame(2, equals: "REPLY") || m.frame(2, equals: "ERROR") || m.frame(2, equals: "PROMPT")
             || m.frame(2, equals: "PROGRESS") || m.frame(2, equals: "HEARTBEAT")) {
            return promoteAll()
        }
        if let e = openEntry(named: m.bytes(3)) { promote(e) }
    }

    /// The earliest deadline of an open lane request, for the poll timeout.
    var nextDeadline: UInt64? {
        guard count > 0 else { return nil }
        return deadlines.next { openEntry($0) != nil }
    }

    /// Requests whose deadline has passed go to the core, whose timer then ends them
    /// with `timeout` (its deadline is the same moment).
    func promoteDue(now: UInt64) {
        guard count > 0 else { return }
        for id in deadlines.popDue(now: now) {
            if let e = openEntry(id) { promote(e) }
        }
    }

    /// The number of a client's open lane requests (for the core's per-client limit).
    func openCount(client identity: Data) -> Int {
        guard count > 0 else { return 0 }
        return identity.withUnsafeBytes { bytes in
            clients.find(bytes, hash: ByteHash.hash(bytes)).map { Int(clients.open[Int($0)]) } ?? 0
        }
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
