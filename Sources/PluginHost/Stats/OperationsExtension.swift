import Foundation
import IntentBusWire
import IntentBusCore

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
    /// The supervised Wyoming service (`host.wyoming`): its entry in `ib.status`.
    var wyoming: WyomingService?

    init(view: any RouterView, logBook: PluginLogBook) {
        self.view = view
        self.logBook = logBook
        stats = HostStats(pluginIds: view.plugins.map(\.spec.id))
    }

    /// Every final answer, just before it is sent (`RouterExtension.exchangeEnded`).
    func exchangeEnded(_ exchange: Exchange, final: WireMessage) {
        stats.completed(exchange, final: final)
    }

    /// `ib.status`: the counters' report, and the Wyoming service when there is one.
    private func statusReport() -> JSON {
        let report = stats.report(view.snapshot)
        guard let service = wyoming?.status, var fields = report.objectValue else { return report }
        fields["wyoming"] = service
        return .object(fields)
    }

    var hostIntents: [String: HostIntent] {
        [
            "ib.status": .answer { [unowned self] _ in .success(statusReport()) },
            "ib.metrics": .answer { [unowned self] _ in
                .success(["text": .string(PrometheusExposition.render(statusReport()))])
            },
            "ib.logs": .answer { [unowned self] request in logBook.answer(request, pluginIds: view.plugins.map(\.spec.id)) },
        ]
    }
}
