import Foundation
import IntentBusCore

/// The status report in the Prometheus text exposition format (version 0.0.4): `# HELP`
/// and `# TYPE` once per metric, then `name{label="value"} number` lines. What
/// `intentbus metrics` prints and `host.metrics_file` holds (node_exporter's textfile
/// collector reads such files).
package enum PrometheusExposition {
    /// Renders an `ib.status` report.
    package static func render(_ report: JSON) -> String {
        var out = Output()
        let host = report["host"] ?? .object([:])
        out.metric("intentbus_host_uptime_seconds", .gauge, "Seconds since the host started.",
                   [([], host["uptime_s"])])
        out.metric("intentbus_open_exchanges", .gauge, "Requests the host holds that have no final answer yet.",
                   [([], host["open_exchanges"])])
        out.metric("intentbus_clients_with_open_requests", .gauge, "Distinct clients with at least one open request.",
                   [([], host["clients_with_open_requests"])])
        out.metric("intentbus_final_answers_total", .counter, "Final answers (REPLY or ERROR) the host has sent.",
                   [([], host["finals"])])
        out.metric("intentbus_relay_requests_total", .counter, "Plain requests the relay lane forwarded and answered itself.",
                   [([], host["relay"]?["relayed"])])
        out.metric("intentbus_relay_promoted_total", .counter, "Relay lane requests handed to the router core (an error, a prompt, a timeout, ...).",
                   [([], host["relay"]?["promoted"])])
        out.metric("intentbus_host_errors_total", .counter, "Requests refused before a plugin was picked, by error code.",
                   codes(host["errors"], labels: []))
        let plugins = report["plugins"]?.arrayValue ?? []
        func each(_ key: String) -> [([(String, String)], JSON?)] {
            plugins.map { ([("plugin", $0["id"]?.displayText ?? "")], $0[key]) }
        }
        out.metric("intentbus_plugin_up", .gauge, "1 when the plugin is ready to serve, 0 otherwise.",
                   plugins.map { ([("plugin", $0["id"]?.displayText ?? ""), ("state", $0["state"]?.displayText ?? "")],
                                  .int($0["state"]?.stringValue == "ready" ? 1 : 0)) })
        out.metric("intentbus_plugin_uptime_seconds", .gauge, "Seconds since the plugin's current process started.",
                   each("uptime_s").filter { $0.1 != nil })
        out.metric("intentbus_plugin_restarts_total", .counter, "Times the host restarted the plugin after it exited.",
                   each("restarts"))
        out.metric("intentbus_plugin_in_flight", .gauge, "Requests delivered to the plugin and not yet answered.",
                   each("in_flight"))
        out.metric("intentbus_plugin_requests_served_total", .counter, "Requests the plugin answered with REPLY.",
                   each("served"))
        out.metric("intentbus_plugin_errors_total", .counter, "Final ERRORs for the plugin's requests, by error code.",
                   plugins.flatMap { codes($0["errors"], labels: [("plugin", $0["id"]?.displayText ?? "")]) })
        out.metric("intentbus_plugin_busy_total", .counter, "Requests refused with busy because the plugin was full.",
                   each("busy"))
        var latency: [([(String, String)], JSON?)] = []
        for p in plugins {
            let id = p["id"]?.displayText ?? ""
            for (q, key) in [("0.5", "p50_ms"), ("0.99", "p99_ms")] {
                if let ms = p["latency"]?[key]?.doubleValue { latency.append(([("plugin", id), ("quantile", q)], .double(ms / 1_000))) }
            }
        }
        out.metric("intentbus_plugin_latency_seconds", .gauge,
                   "Request latency quantiles over the plugin's most recent replies (up to 1024).", latency)
        out.metric("intentbus_plugin_latency_window", .gauge, "How many recent replies the latency quantiles cover.",
                   plugins.map { ([("plugin", $0["id"]?.displayText ?? "")], $0["latency"]?["window"]) })
        if let mdp = report["mdp"] {
            out.metric("intentbus_mdp_requests_total", .counter, "Requests from Majordomo (MDP) clients.", [([], mdp["requests"])])
            out.metric("intentbus_mdp_errors_total", .counter, "Errors MDP clients got (refused by the endpoint or the router), by error code.",
                       codes(mdp["errors"], labels: []))
            out.metric("intentbus_mdp_queued", .gauge, "MDP requests waiting for a plugin at its max_in_flight.", [([], mdp["queued"])])
            out.metric("intentbus_mdp_refused_ready_total", .counter, "READYs of MDP workers the host refused.", [([], mdp["refused_ready"])])
        }
        if let wyoming = report["wyoming"] {  // host.wyoming (docs/wyoming.md)
            let uri = [("uri", wyoming["uri"]?.displayText ?? "")]
            out.metric("intentbus_wyoming_up", .gauge, "1 while the Wyoming service the host supervises serves, else 0.",
                       [(uri, .int(wyoming["state"]?.stringValue == "running" ? 1 : 0))])
            out.metric("intentbus_wyoming_restarts_total", .counter, "Times the host started the Wyoming service again.",
                       [(uri, wyoming["restarts"])])
        }
        return out.text
    }

    private static func codes(_ errors: JSON?, labels: [(String, String)]) -> [([(String, String)], JSON?)] {
        (errors?.objectValue ?? [:]).sorted { $0.key < $1.key }.map { (labels + [("code", $0.key)], $0.value) }
    }

    enum Kind: String { case counter, gauge }

    private struct Output {
        var text = ""

        mutating func metric(_ name: String, _ kind: Kind, _ help: String, _ samples: [([(String, String)], JSON?)]) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(kind.rawValue)\n"
            for (labels, value) in samples {
                guard let number = value.flatMap(PrometheusExposition.number) else { continue }
                let rendered = labels.isEmpty ? "" : "{" + labels.map { "\($0.0)=\"\(escape($0.1))\"" }.joined(separator: ",") + "}"
                text += "\(name)\(rendered) \(number)\n"
            }
        }
    }

    static func number(_ value: JSON) -> String? {
        if let i = value.intValue { return String(i) }
        guard let d = value.doubleValue else { return nil }
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d > 0 ? "+Inf" : "-Inf" }
        return String(d)
    }

    /// Label values escape backslash, double quote and newline.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
