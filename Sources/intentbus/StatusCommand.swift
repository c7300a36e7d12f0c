import Foundation
import IntentBus
import IntentBusCLI
import PluginHost

/// `intentbus status` and `intentbus metrics`: what the running host has done (host
/// intents `ib.status` and `ib.metrics`).
enum StatusCommand {
    static let spec = CommandSpec(
        name: "status", summary: "the host's uptime, open requests and per-plugin figures",
        discussion: """
        Shows the host's uptime, open requests and clients, the host that answered and the
        peers it knows (host.peers), the Wyoming service it supervises (host.wyoming: state,
        pid, uptime, restarts), and per plugin its state, pid,
        uptime, restarts, requests in flight and served, errors by code, busy answers, and
        the p50/p99 latency over its most recent replies (up to 1024).
        """,
        options: [
            .flag("json", "print the report as JSON (the ib.status reply)"),
            .flag("watch", "refresh the report in place on a terminal (Ctrl-C stops)"),
            .value("interval", "S", "seconds between refreshes with --watch (default 2, 0.2…3600)", check: { text in
                guard let s = Double(text), s >= 0.2, s <= 3_600 else { return "takes seconds within 0.2…3600, got \(text)" }
                return nil
            }),
            .value("count", "N", "with --watch: stop after N reports (default: until interrupted)", check: { text in
                guard let n = Int(text), n >= 1, n <= 1_000_000 else { return "takes a whole number within 1…1000000, got \(text)" }
                return nil
            }),
        ] + CommonOptions.host,
        footer: "Exit codes: 0 shown, 2 usage, 3 bus error, 5 host unreachable.")

    static let metricsSpec = CommandSpec(
        name: "metrics", summary: "the same figures in the Prometheus text format",
        discussion: """
        Prints the status figures in the Prometheus text exposition format. For
        node_exporter's textfile collector, set host.metrics_file in the manifest instead:
        the host then writes them there itself, atomically (docs/operations.md).
        """,
        options: CommonOptions.host,
        footer: "Exit codes: 0 printed, 3 bus error, 5 host unreachable.")

    static func run(_ args: Arguments) throws -> Int32 {
        let client = try connectedClient(args)
        guard args.flag("watch") else {
            if args.value("interval") != nil || args.value("count") != nil {
                throw UsageError("--interval and --count go with --watch")
            }
            let body = try client.control("ib.status")
            print(args.flag("json") ? prettyJSON(body) : render(body), terminator: args.flag("json") ? "\n" : "")
            return ExitCode.success
        }
        let interval = args.value("interval").flatMap(Double.init) ?? 2
        let count = args.value("count").flatMap(Int.init)
        let onTerminal = isatty(1) == 1
        var shown = 0
        while count.map({ shown < $0 }) ?? true {
            let body = try client.control("ib.status")
            let text = args.flag("json") ? body.canonicalString + "\n" : render(body)
            if onTerminal {
                // Home, then clear to the end of the screen: redrawn in place.
                print("\u{1B}[H\u{1B}[2J" + text, terminator: "")
            } else {
                print(text + (args.flag("json") ? "" : "\n"), terminator: "")
            }
            fflush(nil)
            shown += 1
            if count.map({ shown >= $0 }) ?? false { break }
            usleep(UInt32(interval * 1_000_000))
        }
        return ExitCode.success
    }

    static func runMetrics(_ args: Arguments) throws -> Int32 {
        let body = try connectedClient(args).control("ib.metrics")
        print(body["text"]?.stringValue ?? "", terminator: "")
        return ExitCode.success
    }

    /// The report as people read it.
    static func render(_ body: JSON) -> String {
        let host = body["host"] ?? .object([:])
        var out = "host \(host["pid"]?.displayText ?? "?") up \(duration(host["uptime_s"]?.doubleValue))"
        out += " · \(host["open_exchanges"]?.displayText ?? "0") open requests"
        out += " from \(host["clients_with_open_requests"]?.displayText ?? "0") clients"
        out += " · \(host["finals"]?.displayText ?? "0") final answers"
        if let relayed = host["relay"]?["relayed"]?.intValue, relayed > 0 { out += " (\(relayed) through the relay lane)" }
        out += "\n"
        if let frontend = host["frontend"]?.stringValue {
            let peers = (host["peers"]?.arrayValue ?? []).compactMap(\.stringValue)
            out += "answered by \(frontend)" + (peers.isEmpty ? "" : " · peers \(peers.joined(separator: ", "))") + "\n"
        }
        if let wyoming = body["wyoming"] { out += wyomingLine(wyoming) }
        let hostErrors = errors(host["errors"])
        if !hostErrors.isEmpty { out += "refused before routing: \(hostErrors)\n" }
        var rows = [["PLUGIN", "STATE", "PID", "UP", "RESTARTS", "IN FLIGHT", "SERVED", "BUSY", "P50", "P99", "ERRORS"]]
        for p in body["plugins"]?.arrayValue ?? [] {
            let latency = p["latency"]
            rows.append([
                p["id"]?.displayText ?? "", p["state"]?.displayText ?? "", p["pid"]?.displayText ?? "-",
                p["uptime_s"].map { duration($0.doubleValue) } ?? "-", p["restarts"]?.displayText ?? "0",
                p["in_flight"]?.displayText ?? "0", p["served"]?.displayText ?? "0", p["busy"]?.displayText ?? "0",
                milliseconds(latency?["p50_ms"]?.doubleValue), milliseconds(latency?["p99_ms"]?.doubleValue),
                errors(p["errors"]),
            ])
        }
        return out + "\n" + table(rows)
    }

    /// `wyoming tcp://127.0.0.1:10700 running · pid 4711 · up 12s · 1 restart (last: …)`:
    /// the Wyoming service the host supervises (host.wyoming).
    static func wyomingLine(_ w: JSON) -> String {
        var line = "wyoming \(w["uri"]?.displayText ?? "?") \(w["state"]?.displayText ?? "?")"
        if let pid = w["pid"] { line += " · pid \(pid.displayText)" }
        if let up = w["uptime_s"] { line += " · up \(duration(up.doubleValue))" }
        let restarts = w["restarts"]?.intValue ?? 0
        line += " · \(restarts) restart\(restarts == 1 ? "" : "s")"
        if let last = w["last_exit"]?.stringValue { line += " (last: \(last))" }
        return line + "\n"
    }

    /// `timeout 2, plugin_crashed 1`, or "" for none.
    static func errors(_ json: JSON?) -> String {
        (json?.objectValue ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.displayText)" }
            .joined(separator: ", ")
    }

    /// `1h 02m`, `3m 04s`, `12s`.
    static func duration(_ seconds: Double?) -> String {
        guard let seconds else { return "-" }
        let s = Int(seconds)
        if s >= 86_400 { return "\(s / 86_400)d \(String(format: "%02dh", s % 86_400 / 3_600))" }
        if s >= 3_600 { return "\(s / 3_600)h \(String(format: "%02dm", s % 3_600 / 60))" }
        if s >= 60 { return "\(s / 60)m \(String(format: "%02ds", s % 60))" }
        return "\(s)s"
    }

    static func milliseconds(_ ms: Double?) -> String {
        guard let ms else { return "-" }
        return ms < 10 ? String(format: "%.2f ms", ms) : String(format: "%.0f ms", ms)
    }
}
