import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// Ending exchanges (the one place a final answer is sent), the CANCEL to a plugin, and
/// the timers: a request's deadline, a conversation's expiry, the drain's end (the
/// plugins' timers go to the fleet: `PluginFleet.timerDue`).
extension RequestPipeline {
    /// Sends the final message and forgets the exchange; the book says whether it was
    /// still open (an exchange ends once) and what its end means for its plugin.
    func complete(_ exchange: Exchange, _ final: WireMessage) {
        guard let closing = book.close(exchange, final: final.kind) else { return }
        fleet.release(slots[exchange.pluginIndex], closing.release, hostId: exchange.hostId)
        if !exchange.openedBy.isEmpty { LeadOn.noteChain(exchange.openedBy, final) }
        for ext in host.extensions { ext.exchangeEnded(exchange, final: final) }
        // A client whose routing id a new connection took over is gone: its answer would
        // reach the newcomer (RequestPipeline+Plugins.swift, `bindClient`).
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

    // MARK: - Timers

    func armDeadline(_ exchange: Exchange) { armDeadline(exchange, at: deadline(after: exchange.timeout)) }

    /// Arms the exchange's deadline for the moment `at` (monotonic ns).
    func armDeadline(_ exchange: Exchange, at: UInt64) { book.armDeadline(exchange, at: at) }

    func armConversationExpiry(_ exchange: Exchange) {
        book.armExpiry(exchange, at: deadline(after: host.manifest.host.conversationTimeout.nanoseconds))
    }

    /// Runs the timers that are due.
    func fireDueTimers() {
        guard !book.timers.isEmpty else { return }
        for timer in book.popDue(now: effects.now()) { fire(timer) }
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
                "nobody answered the question within \(host.manifest.host.conversationTimeout.humanText); the conversation has expired"))
        case .restart, .handshakeDeadline, .stopPlugins, .heartbeat, .stopStopping, .idle, .breakerRetry, .stopRejected:
            fleet.timerDue(timer)
        case .drainOver:
            if !stopping {
                logger.warning("the drain is over with \(book.count) requests still open; they end now")
                finishShutdown()
            }
        }
    }

    /// Now plus `nanoseconds`, saturating: a deadline never wraps around.
    func deadline(after nanoseconds: UInt64) -> UInt64 {
        let (sum, overflow) = effects.now().addingReportingOverflow(nanoseconds)
        return overflow ? UInt64.max : sum
    }

    // MARK: - Drain and shutdown

    /// SIGTERM: stop admitting (new requests get `shutting_down`), let open requests
    /// finish for up to `host.drain_timeout`, then stop the plugins. A second signal, or
    /// the end of the drain, stops at once.
    func beginDrain() {
        if draining || stopping { return finishShutdown() }
        draining = true
        host.promoteAll()
        let open = book.count
        guard open > 0 else { return finishShutdown() }
        logger.info("shutting down: \(open) open requests may finish within \(host.manifest.host.drainTimeout.humanText) (a second signal stops at once)")
        book.schedule(.drainOver, at: deadline(after: host.manifest.host.drainTimeout.nanoseconds))
    }

    /// While draining: the last open request has ended.
    func drainProgress() {
        if draining, !stopping, book.count == 0 { finishShutdown() }
    }

    /// Ends every open request with `shutting_down` and stops the plugins.
    func finishShutdown() {
        guard !stopping else { return }
        stopping = true
        host.promoteAll()
        logger.info("shutting down: answering open requests and stopping plugins")
        for exchange in book.all {
            cancelAtPlugin(exchange, reason: "host shutting down")
            fail(exchange, BusError(.shuttingDown, "the host is shutting down"))
        }
        // Graceful first: DISCONNECT lets a plugin finish and exit on its own. Whatever is
        // still running after 1 s gets SIGTERM, and after 3 s SIGKILL.
        fleet.stopAll()
        let now = effects.now()
        book.schedule(.stopPlugins(signal: SIGTERM), at: now + 1_000_000_000)
        book.schedule(.stopPlugins(signal: SIGKILL), at: now + 3_000_000_000)
    }
}
