import Foundation
import IntentBus

extension IntentRouterHooks {
    /// Answers the host intent `name` on the router thread with `handler` (docs/protocol.md §6).
    func addHostIntent(_ name: String, _ handler: @escaping (ControlRequest) -> Result<JSON, BusError>) {
        router.controlHandlers[name] = handler
    }
}

extension PluginLogBook {
    /// The most lines `ib.logs` returns at once.
    public static let maxLinesPerRequest = 1_000

    /// Registers `ib.logs`: `{"plugin": ID, "lines": N}` (N 1…1000, default 50) →
    /// `{"plugin", "lines": [{"time", "pid", "text"}], "earlier": count}`.
    public func install(into hooks: IntentRouterHooks) {
        let ids = hooks.manifest.plugins.map(\.id)
        hooks.addHostIntent("ib.logs") { [self] request in
            guard let plugin = request.body["plugin"]?.stringValue else {
                return .failure(BusError(.invalidParameters, "ib.logs needs \"plugin\": a plugin id (\(ids.joined(separator: ", ")))"))
            }
            guard ids.contains(plugin) else {
                return .failure(BusError(.unknownPlugin, "no plugin \"\(plugin)\" in the manifest (\(ids.joined(separator: ", ")))",
                                         details: ["plugin": .string(plugin)]))
            }
            var limit = 50
            if let raw = request.body["lines"] {
                guard let n = raw.intValue, n >= 1, n <= Int64(Self.maxLinesPerRequest) else {
                    return .failure(BusError(.invalidParameters,
                                             "\"lines\" must be an integer within 1…\(Self.maxLinesPerRequest), got \(raw.canonicalString)"))
                }
                limit = Int(n)
            }
            let (lines, earlier) = recent(plugin: plugin, limit: limit)
            return .success(["plugin": .string(plugin), "lines": .array(lines.map(\.json)), "earlier": .int(Int64(earlier))])
        }
    }
}
