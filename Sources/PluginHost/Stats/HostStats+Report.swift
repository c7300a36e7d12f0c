import Foundation
import IntentBusCore

extension HostStats {
    /// The status report: the host, then each plugin (docs/operations.md has the fields).
    func report(_ router: RouterCore) -> JSON {
        var clients = Set<Data>()
        // Slots added by a hot reload (or instances) may lie beyond the counters made at
        // start: they show with empty counters, never out of range.
        var openByPlugin = [Int](repeating: 0, count: max(plugins.count, router.slots.count))
        let open = router.exchanges.all
        for exchange in open {
            clients.insert(exchange.client.identity)
            if case .choosing = exchange.stage { continue }
            if exchange.pluginIndex < openByPlugin.count { openByPlugin[exchange.pluginIndex] += 1 }
        }
        // The relay lane's requests are counted where they are, not promoted (ib.metrics
        // runs on a timer and must not push them off the fast path).
        var laneOpen = 0
        router.relayLane?.forEachOpen { identity, slot in
            laneOpen += 1
            clients.insert(Data(identity))
            if slot < openByPlugin.count { openByPlugin[slot] += 1 }
        }
        let host: JSON = [
            "pid": .int(Int64(getpid())), "uptime_s": .double(Self.rounded(uptimeSeconds)),
            "started_at": .string(Self.iso(startedAtWall)),
            "open_exchanges": .int(Int64(open.count + laneOpen)), "clients_with_open_requests": .int(Int64(clients.count)),
            "finals": .int(Int64(finals)), "errors": Self.counts(hostErrors),
            "relay": ["relayed": .int(Int64(relayed)), "promoted": .int(Int64(promoted))],
            // Which host answered, and the others it knows (host.peers, docs/scale-out.md).
            "frontend": .string(router.manifest.host.frontend),
            "peers": .array(router.manifest.host.peers.map { .string($0) }),
        ]
        let entries = router.slots.filter { !$0.retired }.map { slot -> JSON in
            let c = slot.index < plugins.count ? plugins[slot.index] : PluginCounters()
            var o: [String: JSON] = [
                "id": .string(slot.spec.id), "state": .string(slot.stateName),
                "restarts": .int(Int64(slot.restarts)), "in_flight": .int(Int64(slot.inFlight)),
                "open": .int(Int64(openByPlugin[slot.index])),
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
        if let mdp = router.majordomoCounters { report["mdp"] = mdp.json }
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
