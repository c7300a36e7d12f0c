import Foundation
import IntentBusWire

/// The host intents for operating the host (docs/operations.md): `ib.status` and
/// `ib.metrics` from `HostStats`, and `ib.logs` from the `PluginLogBook`. It feeds the
/// counters from `exchangeEnded`; installing it hands the core its `HostStats` for
/// `RouterCore.reject`, where requests end before they have an exchange.
///
/// Runs on the router thread, like every extension. It reads the core's plugin slots and
/// open exchanges for the report; it changes nothing but `core.stats`, once.
final class OperationsExtension: RouterExtension {
    private unowned let core: RouterCore
    private let stats: HostStats
    private let logBook: PluginLogBook

    init(core: RouterCore, logBook: PluginLogBook) {
        self.core = core
        self.logBook = logBook
        stats = HostStats(pluginIds: core.slots.map(\.spec.id))
        core.stats = stats
    }

    /// Every final answer, just before it is sent (`RouterExtension.exchangeEnded`).
    func exchangeEnded(_ exchange: Exchange, final: WireMessage) {
        stats.completed(exchange, final: final)
    }

    var hostIntents: [String: HostIntent] {
        [
            "ib.status": .answer { [unowned self] _ in .success(stats.report(core)) },
            "ib.metrics": .answer { [unowned self] _ in
                .success(["text": .string(PrometheusExposition.render(stats.report(core)))])
            },
            "ib.logs": .answer { [unowned self] request in logBook.answer(request, pluginIds: core.slots.map(\.spec.id)) },
        ]
    }
}
