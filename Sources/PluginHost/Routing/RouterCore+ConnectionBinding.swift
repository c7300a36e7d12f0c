import Foundation
import IntentBusCore

/// Every message is bound to the identity its connection authenticated with (CURVE and
/// ZAP: the `User-Id` libzmq gives each message), not just to its ZeroMQ routing id.
///
/// A peer may choose its own routing id (`ZMQ_ROUTING_ID`). libzmq refuses one that a
/// live connection holds (ROUTER_HANDOVER is off), but the host is never told that a
/// connection has gone, so a second connection could set the first one's id after it left
/// and be taken for it: its grant, its open requests, a plugin's slot. A message whose
/// User-Id differs from the one the routing id was first seen with therefore proves that
/// the earlier connection is gone: what it held ends (its requests cancelled and never
/// answered to the newcomer, a plugin's connection lost as after DISCONNECT), nothing
/// passes to the new connection, and a warning names both identities.
///
/// One metadata lookup per message, and only where the side is CURVE (on ipc and
/// `insecure` tcp there is no User-Id: the file system, or the network, is the boundary;
/// docs/security.md). The plugin side's check is the fleet's (`PluginFleet.pluginMessageBound`).
extension RouterCore {
    /// A client message's User-Id on a CURVE frontend, checked against its routing id's.
    func bindClient(_ identity: Data, user: String?) {
        let state = book.clients.state(for: identity)
        if !state.bound {
            (state.user, state.bound) = (user, true)
            return
        }
        guard state.user != user else { return }
        // Its lane requests first, so that they end with the others (their REPLY would
        // otherwise take the lane to the routing id: the newcomer).
        relayLane?.promote(client: identity, self)
        logger.warning("a connection authenticated as \(user ?? "nobody") reused the routing id \(routingIdHex(identity)) of one authenticated as \(state.user ?? "nobody"), which has gone: its \(state.open.count) open requests are cancelled and the new connection gets nothing of it")
        let (open, fresh) = book.clientGone(state)
        (fresh.user, fresh.bound) = (user, true)
        for exchange in open {
            cancelAtPlugin(exchange, reason: "the client has gone away")
            fail(exchange, BusError(.cancelled, "the client's connection has gone"))
        }
    }
}

/// Routing ids in log lines: hex, since they are bytes a peer chose.
func routingIdHex(_ identity: Data) -> String {
    identity.prefix(32).map { String(format: "%02x", $0) }.joined()
}
