import Foundation
import IntentBusCore

extension PluginLogBook {
    /// The most lines `ib.logs` returns at once.
    package static let maxLinesPerRequest = 1_000

    /// Answers `ib.logs`: `{"plugin": ID, "lines": N}` (N 1…1000, default 50) →
    /// `{"plugin", "lines": [{"time", "pid", "text"}], "earlier": count}`.
    func answer(_ request: ControlRequest, pluginIds ids: [String]) -> Result<JSON, BusError> {
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
