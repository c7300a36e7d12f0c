import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// Handing lane requests to the general path: whenever the core must see a lane request
/// as an `Exchange` (an ERROR, PROMPT or PROGRESS from its plugin, the client's CANCEL or
/// ANSWER, a reused request id, its deadline, its plugin's connection lost or its route
/// changed, its plugin's in-flight requests failed, an exit, a reload, shutdown, a host
/// intent that declares it reads open requests), the entry becomes an ordinary exchange
/// under the same host id, delivered, with its deadline in the core's timers. One-way.
///
/// Only the requests a message concerns are promoted: a plugin's HELLO or DISCONNECT, or
/// a host intent such as `ib.ping`, leaves every other lane request where it is.
extension RelayLane {
    /// Makes the open lane request `e` an exchange of the general path.
    func promote<Core: LaneCore>(_ e: Int, _ core: Core) {
        let entry = entries[e]
        let id = id(e)
        let identity = Data(store.bytes(e, 0))
        let requestId = String(decoding: store.bytes(e, 1), as: UTF8.self)
        let route = routes.routes[Int(entry.route)]
        let body = entry.checked ? Frame(data: Data(bodies.bytes(e, 0))) : nil
        // A checked request goes on with its extension's flow, as after its REQUEST was sent.
        let flow = entry.checked ? route.check?.deliveredFlow(body: bodies.bytes(e, 0), passed: pass(e)) : nil
        // The header as the general path read it (LaneHeaders), before `release` may let its row go.
        let options = entry.header < 0 ? JSON.object([:]) : headers.headers[Int(entry.header)].options
        release(e)  // before the core's tables count it
        let state = core.clientState(for: identity)
        let exchange = Exchange(hostId: id, client: RoutingEnvelope(identity: identity, isRequestReply: entry.isRequestReply),
                                clientState: state, clientRequestId: requestId, intent: route.intent,
                                pluginIndex: Int(entry.slot), timeout: entry.timeout, options: options,
                                stage: .delivered, startedAt: entry.startedAt)
        exchange.flow = flow
        core.adoptPromoted(exchange, bytes: Int(entry.size), deadline: entry.deadline, body: body)
    }

    /// Promotes every open lane request (before the core looks at all of them: an exit, a
    /// reload, drain and shutdown).
    func promoteAll<Core: LaneCore>(_ core: Core) {
        guard count > 0 else { return }
        for e in entries.indices where entries[e].serial != 0 { promote(e, core) }
    }

    /// Promotes the open lane requests sent to the plugin at `slot` (before the core fails
    /// or looks at what that plugin holds: `failInFlight`).
    func promote<Core: LaneCore>(slot: Int, _ core: Core) {
        guard count > 0 else { return }
        for e in entries.indices where entries[e].serial != 0 && Int(entries[e].slot) == slot { promote(e, core) }
    }

    /// Promotes the open lane requests of the client connection `identity` (before the
    /// core ends what that client holds: another connection took over its routing id,
    /// `RouterCore.bindClient`). Left in the lane, their REPLY would go to the routing id
    /// and so to the newcomer.
    func promote<Core: LaneCore>(client identity: Data, _ core: Core) {
        guard count > 0, let client = identity.withUnsafeBytes({ clients.find($0, hash: ByteHash.hash($0)) }) else { return }
        for e in entries.indices where entries[e].serial != 0 && entries[e].client == client { promote(e, core) }
    }

    /// Before the general path gets a client message the lane did not take: the lane
    /// request it names, if any, is promoted (a CANCEL, an ANSWER, a reused id). A host
    /// intent promotes all only when it declared that it reads open requests
    /// (`RouterExtension.intentsReadingOpenRequests`): `ib.ping` and `ib.metrics` don't.
    func promoteConcerned<Core: LaneCore>(client m: RawMessage, _ core: Core) {
        guard count > 0 else { return }
        let base = m.count >= 2 && m.size(1) == 0 ? 2 : 1
        if m.count >= base + 4, m.bytes(base + 3).starts(with: "ib."),
           core.hostIntentsReadingOpenRequests.contains(String(decoding: m.bytes(base + 3), as: UTF8.self)) {
            return promoteAll(core)
        }
        guard m.count >= base + 3 else { return }
        let identity = m.bytes(0)
        let identityHash = ByteHash.hash(identity)
        guard let client = clients.find(identity, hash: identityHash) else { return }
        let requestId = m.bytes(base + 2)
        if let e = findOpen(ByteHash.hash(requestId, identityHash), client: client, requestId: requestId) {
            promote(e, core)
        }
    }

    /// Before the general path gets a plugin message the lane did not take: the request a
    /// REPLY, ERROR, PROMPT or PROGRESS names is promoted. Nothing else names a lane
    /// request: a HELLO or a DISCONNECT changes one plugin's connection, and the core
    /// promotes that plugin's requests when it fails them (`failInFlight`); the others
    /// stay, and the next routing epoch keeps them when their route and plugin connection
    /// are unchanged (`rebuild`).
    func promoteConcerned<Core: LaneCore>(plugin m: RawMessage, _ core: Core) {
        guard count > 0, m.count >= 4,
              m.frame(2, equals: "REPLY") || m.frame(2, equals: "ERROR") || m.frame(2, equals: "PROMPT")
                || m.frame(2, equals: "PROGRESS"),
              let e = openEntry(named: m.bytes(3)) else { return }
        promote(e, core)
    }

    /// Lane requests whose deadline has passed go to the general path, whose timer then
    /// ends them with `timeout` (its deadline is the same moment).
    func promoteDue<Core: LaneCore>(_ core: Core) {
        guard count > 0 else { return }
        for e in due(now: core.effects.now()) { promote(e, core) }
    }
}
