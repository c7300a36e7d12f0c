import Foundation
import IntentBusCore
import IntentBusZMQ

/// The one retry of an idempotent request whose process died (docs/lifecycle.md,
/// "Instances"), and the host's drain at shutdown: the request side of a plugin's death
/// and of the host's, which the fleet and the supervisor ask for.
extension RouterCore {
    // MARK: - The idempotent retry

    /// Keeps a copy of a plain request for an idempotent intent as it is delivered.
    func keepForReplay(_ exchange: Exchange, _ slot: PluginSlot, header: Frame, body: Frame) {
        guard exchange.replay == nil, exchange.flow == nil, slot.spec.idempotentIntents.contains(exchange.intent) else { return }
        exchange.replay = .kept(header: header.copy(), body: body.copy())
    }

    /// `dead` crashed or hung: each idempotent request it held (delivered, not in a
    /// conversation, not retried before) goes once more to another ready instance, or
    /// waits for one to start (its own restart, for a single instance). Its deadline is
    /// not reset. The others get `plugin_crashed` / `plugin_hung` as before.
    func retryIdempotent(_ dead: PluginSlot, pid: pid_t, why: String) {
        guard !stopping, !draining, !dead.spec.idempotentIntents.isEmpty else { return }
        let primary = dead.primaryIndex.map { slots[$0] } ?? dead
        for exchange in book.all where exchange.pluginIndex == dead.index {
            guard case .delivered = exchange.stage, case .kept(let header, let body) = exchange.replay else { continue }
            exchange.replay = .used  // once
            dead.inFlight -= 1
            exchange.stage = .pending(header: header, body: body)
            let target = leastLoadedInstance(of: primary, for: exchange, excluding: dead)
            let place = target === dead ? "after its restart" : (target.pid.map { "on pid \($0)" } ?? "on another instance")
            logger.warning("request \(exchange.clientRequestId) (\(exchange.intent), idempotent) was on plugin \(dead.spec.id) (pid \(pid)) when it \(why); retrying it once \(place)",
                           [("request", exchange.clientRequestId)])
            if target.identity != nil, target !== dead {
                begin(exchange, target)
            } else {
                target.waiting.append(exchange.hostId)
                if target !== dead { fleet.activateIfNeeded(target) }
            }
        }
    }

    // MARK: - Drain

    /// SIGTERM: stop admitting (new requests get `shutting_down`), let open requests
    /// finish for up to `host.drain_timeout`, then stop the plugins. A second signal, or
    /// the end of the drain, stops at once.
    func beginDrain() {
        if draining || stopping { return finishShutdown() }
        draining = true
        promoteAll()
        let open = book.count
        guard open > 0 else { return finishShutdown() }
        logger.info("shutting down: \(open) open requests may finish within \(manifest.host.drainTimeout.humanText) (a second signal stops at once)")
        book.schedule(.drainOver, at: deadline(after: manifest.host.drainTimeout.nanoseconds))
    }

    /// While draining: the last open request has ended.
    func drainProgress() {
        if draining, !stopping, book.count == 0 { finishShutdown() }
    }
}

/// An idempotent request's copy for its one retry.
enum Replay {
    /// The request as delivered.
    case kept(header: Frame, body: Frame)
    /// Retried already: not again.
    case used
}
