import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// Ending exchanges (the one place a final answer is sent), sending to plugins, and the
/// timers: a request's deadline, a conversation's expiry, the drain's end (the plugins'
/// timers go to the fleet: `PluginFleet.timerDue`).
extension RouterCore {

    /// Sends the final message and forgets the exchange; the book says whether it was
    /// still open (an exchange ends once) and what its end means for its plugin.
    func complete(_ exchange: Exchange, _ final: WireMessage) {
        guard let closing = book.close(exchange, final: final.kind) else { return }
        fleet.release(slots[exchange.pluginIndex], closing.release, hostId: exchange.hostId)
        if !exchange.openedBy.isEmpty { LeadOn.noteChain(exchange.openedBy, final) }
        for ext in extensions { ext.exchangeEnded(exchange, final: final) }
        // A client whose routing id a new connection took over is gone: its answer would
        // reach the newcomer (RouterCore+ConnectionBinding.swift).
        if closing.tellClient { effects.sendToClient(exchange.client, final) }
        if draining { drainProgress() }
    }

    func fail(_ exchange: Exchange, _ error: BusError) {
        let target = exchange.choosing == nil ? slots[exchange.pluginIndex].spec.id : "(no plugin chosen yet)"
        logger.info("request \(exchange.clientRequestId) (\(exchange.intent)) → \(target): \(error)",
                    [("request", exchange.clientRequestId)])
        complete(exchange, WireMessage(kind: .error, requestId: exchange.clientRequestId, intent: exchange.intent,
                                       header: nil, body: error.json))
    }

    func cancelAtPlugin(_ exchange: Exchange, reason: String) {
        let slot = slots[exchange.pluginIndex]
        guard exchange.isDelivered, slot.identity != nil else { return }
        sendToPlugin(slot, WireMessage(kind: .cancel, requestId: exchange.wireId, intent: exchange.intent,
                                       header: nil, body: ["reason": .string(reason)]), exchange: nil)
    }

    func failInFlight(_ slot: PluginSlot, _ error: BusError) {
        relayLane?.promote(slot: slot.index, self)  // its lane requests too; the others stay
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

    // MARK: - Timers

    func armDeadline(_ exchange: Exchange) { armDeadline(exchange, at: deadline(after: exchange.timeout)) }

    /// Arms the exchange's deadline for the moment `at` (monotonic ns).
    func armDeadline(_ exchange: Exchange, at: UInt64) { book.armDeadline(exchange, at: at) }

    func armConversationExpiry(_ exchange: Exchange) {
        book.armExpiry(exchange, at: deadline(after: manifest.host.conversationTimeout.nanoseconds))
    }

    func fire(_ timer: RouterTimer) {
        switch timer {
        case .requestDeadline:
            guard let exchange = book.exchange(of: timer) else { return }  // stale: closed or re-armed
            let error = exchange.timeoutError(slots[exchange.pluginIndex])  // the plugin's state before the CANCEL
            cancelAtPlugin(exchange, reason: "timeout")
            fail(exchange, error)
        case .conversationExpiry:
            guard let exchange = book.exchange(of: timer) else { return }
            cancelAtPlugin(exchange, reason: "conversation expired")
            fail(exchange, BusError(.conversationExpired,
                "nobody answered the question within \(manifest.host.conversationTimeout.humanText); the conversation has expired"))
        case .restart, .handshakeDeadline, .stopPlugins, .heartbeat, .stopStopping, .idle, .breakerRetry, .stopRejected:
            fleet.timerDue(timer)
        case .drainOver:
            if !stopping {
                logger.warning("the drain is over with \(book.count) requests still open; they end now")
                finishShutdown()
            }
        }
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

extension RouterCore {
    /// A plain REQUEST that could not be sent because the plugin's connection is gone
    /// (it died, and its exit is not processed yet): the plugin never saw it, so it is
    /// safe to deliver again, idempotent or not. It waits for another ready instance or
    /// for the plugin's restart, under its own deadline, instead of failing with
    /// `plugin_unavailable`. Not for flows (their first message is not the whole request).
    func requeueUndelivered(_ exchange: Exchange, _ slot: PluginSlot, header: Frame, body: Frame) -> Bool {
        guard exchange.flow == nil, case .delivered = exchange.stage, exchange.pluginIndex == slot.index,
              !stopping, !draining else { return false }
        slot.inFlight -= 1
        exchange.stage = .pending(header: header, body: body)
        let primary = slot.primaryIndex.map { slots[$0] } ?? slot
        let target = leastLoadedInstance(of: primary, for: exchange, excluding: slot)
        logger.info("request \(exchange.clientRequestId) (\(exchange.intent)) did not reach plugin \(slot.spec.id); it waits for \(target === slot ? "its restart" : "another instance")",
                    [("request", exchange.clientRequestId)])
        if target.identity != nil, target !== slot {
            begin(exchange, target)
        } else {
            target.waiting.append(exchange.hostId)
        }
        return true
    }
}
