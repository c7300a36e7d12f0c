import Foundation
import IntentBusWire

/// The host intents for operating the host (docs/operations.md): `ib.status` and
/// `ib.metrics` from `HostStats`, and `ib.logs` from the `PluginLogBook`. It feeds the
/// counters from `exchangeEnded`; whoever installs it hands the core its `stats` for
/// `RouterCore.reject`, where requests end before they have an exchange
/// (IntentHost.swift).
///
/// Runs on the router thread, like every extension. It sees the router read-only
/// (`RouterView`): its reports are built from `RouterView.snapshot`, a value.
final class OperationsExtension: RouterExtension {
    private unowned let view: any RouterView
    /// The counters; the core records refusals in them too.
    let stats: HostStats
    private let logBook: PluginLogBook

    init(view: any RouterView, logBook: PluginLogBook) {
        self.view = view
        self.logBook = logBook
        stats = HostStats(pluginIds: view.plugins.map(\.spec.id))
    }

    /// Every final answer, just before it is sent (`RouterExtension.exchangeEnded`).
    func exchangeEnded(_ exchange: Exchange, final: WireMessage) {
        stats.completed(exchange, final: final)
    }

    var hostIntents: [String: HostIntent] {
        [
            "ib.status": .answer { [unowned self] _ in .success(stats.report(view.snapshot)) },
            "ib.metrics": .answer { [unowned self] _ in
                .success(["text": .string(PrometheusExposition.render(stats.report(view.snapshot)))])
            },
            "ib.logs": .answer { [unowned self] request in logBook.answer(request, pluginIds: view.plugins.map(\.spec.id)) },
        ]
    }
}
