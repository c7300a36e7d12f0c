import Foundation
import IntentBusCore

extension HostStats {
    /// The status report: the host, then each plugin (docs/operations.md has the fields),
    /// from what the router shows (`RouterView.snapshot`).
    func report(_ router: some RouterView) -> JSON { report(router.snapshot) }

    /// The status report from a snapshot of the router.
    func report(_ router: RouterSnapshot) -> JSON {
        let host: JSON = [
            "pid": .int(Int64(getpid())), "uptime_s": .double(Self.rounded(uptimeSeconds)),
            "started_at": .string(Self.iso(startedAtWall)),
            "open_exchanges": .int(Int64(router.openRequests)), "clients_with_open_requests": .int(Int64(router.clientsWithOpenRequests)),
            "finals": .int(Int64(finals)), "errors": Self.counts(hostErrors),
            "relay": ["relayed": .int(Int64(relayed)), "promoted": .int(Int64(promoted))],
            // Which host answered, and the others it knows (host.peers, docs/scale-out.md).
            "frontend": .string(router.frontend),
            "peers": .array(router.peers.map { .string($0) }),
        ]
        let entries = router.plugins.map { slot -> JSON in
            // Slots added by a hot reload (or instances) may lie beyond the counters made
            // at start: they show with empty counters, never out of range.
            let c = slot.index < plugins.count ? plugins[slot.index] : PluginCounters()
            var o: [String: JSON] = [
                "id": .string(slot.id), "state": .string(slot.state),
                "restarts": .int(Int64(slot.restarts)), "in_flight": .int(Int64(slot.inFlight)),
                "open": .int(Int64(slot.open)),
                "served": .int(Int64(c.served)), "errors": Self.counts(c.errors),
                "busy": .int(Int64(c.errors[ErrorCode.busy.rawValue] ?? 0)),
            ]
            if let pid = slot.pid {
                o["pid"] = .int(Int64(pid))
                if let age = ProcessAge.seconds(pid) { o["uptime_s"] = .double(Self.rounded(age)) }
            }
            var latency: [String: JSON] = ["window": .int(Int64(c.latency.count))]
            // An empty window has the keys too, as null: nothing to measure yet.
            latency["p50_ms"] = c.latency.quantile(0.5).map { .double(Double($0) / 1_000) } ?? .null
            latency["p99_ms"] = c.latency.quantile(0.99).map { .double(Double($0) / 1_000) } ?? .null
            o["latency"] = .object(latency)
            return .object(o)
        }
        var report: [String: JSON] = ["host": host, "plugins": .array(entries)]
        if let mdp = router.majordomo { report["mdp"] = mdp }
        return .object(report)
    }

    private static func counts(_ d: [String: Int]) -> JSON { .object(d.mapValues { .int(Int64($0)) }) }
    private static func rounded(_ s: Double) -> Double { (s * 1_000).rounded() / 1_000 }

    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
