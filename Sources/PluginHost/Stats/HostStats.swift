import Foundation
import IntentBusCore
import IntentBusWire

/// What the host has done since it started, per plugin: requests served, errors by code,
/// busy answers, latencies over a recent window. `intentbus status` and `intentbus
/// metrics` (host intents `ib.status`, `ib.metrics`) read it.
///
/// The router feeds it at two points only: `completed` where every exchange ends
/// (`RouterCore.complete`) and `rejected` where a request is refused before it has one
/// (`RouterCore.reject`). Recording a reply is a few stores: no hashing, no allocation
/// once the latency windows are full (measured in docs/operations.md).
///
/// Owned by the router thread, like the router's own state: no locks.
final class HostStats {
    struct PluginCounters {
        var served = 0
        /// Final ERRORs by code, including the ones the host gave for this plugin
        /// (timeout, plugin_crashed, busy, …).
        var errors: [String: Int] = [:]
        var latency = LatencyWindow()
    }

    let startedAt = MonotonicClock.now()
    let startedAtWall = Date()
    private(set) var plugins: [PluginCounters]
    private let indexById: [String: Int]
    /// Requests refused before any plugin was picked (unknown intent, bad frames, …), by code.
    private(set) var hostErrors: [String: Int] = [:]
    /// Every final answer: REPLY or ERROR, with or without a plugin.
    private(set) var finals = 0
    /// Requests the relay lane finished itself, and the ones it handed to the core
    /// (Routing/Relay/RelayLane.swift).
    private(set) var relayed = 0
    var promoted = 0

    init(pluginIds: [String]) {
        plugins = Array(repeating: PluginCounters(), count: pluginIds.count)
        var index: [String: Int] = [:]
        for (i, id) in pluginIds.enumerated() { index[id] = i }
        indexById = index
    }

    /// `exchange` ended with `final` (REPLY or ERROR), maybe before a plugin was chosen.
    func completed(_ exchange: Exchange, final: WireMessage) {
        if case .choosing = exchange.stage {
            completed(plugin: nil, final: final, startedAt: exchange.startedAt)
        } else {
            completed(plugin: exchange.pluginIndex, final: final, startedAt: exchange.startedAt)
        }
    }

    /// An exchange ended with `final` (REPLY or ERROR); `plugin` is nil when it ended
    /// before a plugin was chosen.
    func completed(plugin: Int?, final: WireMessage, startedAt: UInt64) {
        // A RESULT ends an exchange the plugin served, not the client's request (docs/results.md).
        if final.kind != .result { finals += 1 }
        guard let plugin, plugin >= 0, plugin < plugins.count else {
            if final.kind == .error { hostErrors[Self.errorCode(final), default: 0] += 1 }
            return
        }
        if final.kind == .reply || final.kind == .result {
            plugins[plugin].served += 1
            plugins[plugin].latency.record(microseconds: (MonotonicClock.now() &- startedAt) / 1_000)
        } else {
            let code = Self.bounded(Self.errorCode(final), known: plugins[plugin].errors)
            plugins[plugin].errors[code, default: 0] += 1
        }
    }

    /// A plain request the relay lane answered with its plugin's REPLY.
    @inline(__always) func served(plugin: Int, startedAt: UInt64, now: UInt64) {
        finals += 1
        relayed += 1
        guard plugin >= 0, plugin < plugins.count else { return }
        plugins[plugin].served += 1
        plugins[plugin].latency.record(microseconds: (now &- startedAt) / 1_000)
    }

    /// A request for `intent` was refused with `error` before an exchange existed. Busy and
    /// unavailable answers name their plugin in `details.plugin` and count for it; refused
    /// host intents (`ib.*`, e.g. polling `ib.logs` for an unknown plugin) do not count.
    func rejected(_ error: BusError, intent: String) {
        if intent.hasPrefix("ib.") { return }
        finals += 1
        if let id = error.details["plugin"]?.stringValue, let index = indexById[id] {
            plugins[index].errors[error.code.rawValue, default: 0] += 1
        } else {
            hostErrors[error.code.rawValue, default: 0] += 1
        }
    }

    /// The host's uptime in seconds.
    var uptimeSeconds: Double { Double(MonotonicClock.now() - startedAt) / 1e9 }

    /// Codes of the plugin's own kept per plugin, besides the protocol's (ErrorCode).
    static let maxPluginCodes = 16

    /// `code` as it is counted (and becomes a metrics label): the protocol's codes as they
    /// are; a plugin's own code if it is short `[a-z0-9_]` and one of its first
    /// `maxPluginCodes`; anything else `other`. A plugin picks its codes at will: counted
    /// as sent, they grew the table and the metrics' label set without bound.
    static func bounded(_ code: String, known: [String: Int]) -> String {
        if known[code] != nil || ErrorCode(rawValue: code) != nil || code == "unknown" { return code }
        let plain = code.utf8.count <= 64 && code.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
        let own = known.keys.filter { ErrorCode(rawValue: $0) == nil && $0 != "other" }.count
        return plain && !code.isEmpty && own < maxPluginCodes ? code : "other"
    }

    /// The `code` of an ERROR body, or `unknown` when a plugin sent something else.
    static func errorCode(_ final: WireMessage) -> String {
        (try? final.bodyJSON())?["code"]?.stringValue ?? "unknown"
    }
}
