import Foundation
import IntentBusCore
import IntentBusZMQ

/// Delivering a request again (docs/lifecycle.md, "Instances"): a plain REQUEST whose
/// plugin connection was gone when it was sent, and the one retry of an idempotent
/// request whose process died. Both take the exchange back from the plugin and hand it to
/// `redeliver`, which moves it to another ready instance or queues it for one.
extension RequestPipeline {
    /// Keeps a copy of a plain request for an idempotent intent as it is delivered.
    func keepForReplay(_ exchange: Exchange, _ slot: PluginSlot, header: Frame, body: Frame) {
        guard exchange.replay == nil, exchange.flow == nil, slot.spec.idempotentIntents.contains(exchange.intent) else { return }
        exchange.replay = .kept(header: header.copy(), body: body.copy())
    }

    /// A plain REQUEST that could not be sent because the plugin's connection is gone
    /// (it died, and its exit is not processed yet): the plugin never saw it, so it is
    /// safe to deliver again, idempotent or not. It waits for another ready instance or
    /// for the plugin's restart, under its own deadline, instead of failing with
    /// `plugin_unavailable`. Not for flows (their first message is not the whole request).
    func requeueUndelivered(_ exchange: Exchange, _ slot: PluginSlot, header: Frame, body: Frame) -> Bool {
        guard exchange.flow == nil, case .delivered = exchange.stage, exchange.pluginIndex == slot.index,
              !stopping, !draining else { return false }
        redeliver(exchange, from: slot, header: header, body: body, startOther: false) { target in
            logger.info("request \(exchange.clientRequestId) (\(exchange.intent)) did not reach plugin \(slot.spec.id); it waits for \(target === slot ? "its restart" : "another instance")",
                        [("request", exchange.clientRequestId)])
        }
        return true
    }

    /// `dead` crashed or hung: each idempotent request it held (delivered, not in a
    /// conversation, not retried before) goes once more to another ready instance, or
    /// waits for one to start (its own restart, for a single instance). Its deadline is
    /// not reset. The others get `plugin_crashed` / `plugin_hung` as before.
    func retryIdempotent(_ dead: PluginSlot, pid: pid_t, why: String) {
        guard !stopping, !draining, !dead.spec.idempotentIntents.isEmpty else { return }
        for exchange in book.all where exchange.pluginIndex == dead.index {
            guard case .delivered = exchange.stage, case .kept(let header, let body) = exchange.replay else { continue }
            exchange.replay = .used  // once
            redeliver(exchange, from: dead, header: header, body: body, startOther: true) { target in
                let place = target === dead ? "after its restart" : (target.pid.map { "on pid \($0)" } ?? "on another instance")
                logger.warning("request \(exchange.clientRequestId) (\(exchange.intent), idempotent) was on plugin \(dead.spec.id) (pid \(pid)) when it \(why); retrying it once \(place)",
                               [("request", exchange.clientRequestId)])
            }
        }
    }

    /// The steps both share: `exchange`, delivered to `slot`, is pending again with what it
    /// was delivered with, moves to the least loaded instance of `slot`'s plugin other than
    /// `slot` (or stays with `slot`, for a single instance), and begins there if that one is
    /// ready, else waits on its queue; `startOther` starts such a waiting other instance if
    /// it needs starting (the retry's; an undelivered request only waits). `announce` logs
    /// the target before anything is sent.
    private func redeliver(_ exchange: Exchange, from slot: PluginSlot, header: Frame, body: Frame, startOther: Bool,
                           announce: (PluginSlot) -> Void) {
        slot.inFlight -= 1
        exchange.stage = .pending(header: header, body: body)
        let primary = slot.primaryIndex.map { slots[$0] } ?? slot
        let target = leastLoadedInstance(of: primary, for: exchange, excluding: slot)
        announce(target)
        if target.identity != nil, target !== slot {
            begin(exchange, target)
        } else {
            target.waiting.append(exchange.hostId)
            if startOther, target !== slot { fleet.activateIfNeeded(target) }
        }
    }
}

/// An idempotent request's copy for its one retry.
enum Replay {
    /// The request as delivered.
    case kept(header: Frame, body: Frame)
    /// Retried already: not again.
    case used
}
