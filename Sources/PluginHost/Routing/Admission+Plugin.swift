import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusManifest

/// Admission once a plugin is chosen, as values: whether requests for an intent to it are
/// restricted, what a restriction's failed authentication answers, whether it can take one
/// more request, a request's timeout and the header it is delivered with. The core asks
/// these on its general path (RouterCore+Requests.swift `admissionError`) and, through
/// `laneRoute` and `LaneCore.admits`, for the relay lane: one set of rules for both.
extension Admission {
    /// Why `slot` can't take a request for `intent` now, checking in this order: restricted
    /// without the right credential (`authentication`, asked only then), unavailable (a
    /// failed spawn is retried first: `retrySpawn` says whether it was), full (`full`).
    static func pluginProblem(_ slot: PluginSlot, intent: String, options: JSON,
                              authentication: @autoclosure () -> Authentication,
                              retrySpawn: (PluginSlot) -> Bool, full: (PluginSlot) -> Bool) -> BusError? {
        if isRestricted(slot.spec, intent),
           let problem = restrictionProblem(authentication().check(options), intent: intent, plugin: slot.spec.id) {
            return problem
        }
        if let reason = slot.failureReason {
            if !retrySpawn(slot) {
                return BusError(.pluginUnavailable, "plugin \(slot.spec.id) is unavailable: \(reason)",
                                details: ["plugin": .string(slot.spec.id)])
            }
        }
        return capacityProblem(slot, full: full(slot))
    }

    /// Whether requests for `intent` to this plugin need a right or the client credential
    /// (restricted while locked); such intents never take the relay lane.
    static func isRestricted(_ spec: PluginSpec, _ intent: String) -> Bool {
        spec.intentsRestrictedWhileLocked.contains(intent)
    }

    /// The answer to a restricted request whose authentication did not pass, or nil.
    static func restrictionProblem(_ outcome: Authentication.Outcome, intent: String, plugin: String) -> BusError? {
        switch outcome {
        case .authenticated:
            return nil
        case .noRight(let client):
            return BusError(.forbidden, "\(intent) is restricted while locked (\(plugin)) and client \(client ?? "?") has no right to it (restricted: true in host.clients)")
        case .credential(let why):
            return BusError(.authenticationRequired, "\(intent) is restricted while locked (\(plugin)): authentication is required; \(why)")
        }
    }

    /// Why a ready plugin can't take one more request (disabled at run time, full: `full`
    /// says whether it, or its group of instances, is at `max_in_flight`), or nil.
    static func capacityProblem(_ slot: PluginSlot, full: Bool) -> BusError? {
        if slot.disabledAtRunTime {
            return BusError(.pluginUnavailable, "plugin \(slot.spec.id) is disabled (ib.plugins.disable)",
                            details: ["plugin": .string(slot.spec.id)])
        }
        if full {
            return BusError(.busy, "plugin \(slot.spec.id) has \(slot.spec.maxInFlight) requests in flight (its max_in_flight); try again later",
                            details: ["plugin": .string(slot.spec.id), "limit": .int(Int64(slot.spec.maxInFlight)),
                                      "setting": "max_in_flight"])
        }
        return nil
    }

    /// The plugin timeout for one request: the header's `timeout_ms`, else the manifest's,
    /// at most 24 hours either way.
    static func timeout(_ spec: PluginSpec, options: JSON) -> UInt64 {
        // `timeout_ms` was range-checked on entry (RequestHeaderCheck).
        if case .int(let ms)? = options["timeout_ms"], ms > 0, ms <= RequestHeaderCheck.maximumTimeoutMs {
            return UInt64(ms) * 1_000_000
        }
        return min(spec.timeout.nanoseconds, UInt64(RequestHeaderCheck.maximumTimeoutMs) * 1_000_000)
    }

    /// The delivery header for the plugin: only what the plugin may see (the client's
    /// identity, the request's context and run key, never the credential). Empty on the fast path.
    static func deliveryHeader(options: JSON) -> Frame {
        var header: [String: JSON] = [:]
        if let client = options["client"]?.stringValue { header["client"] = .string(client) }
        RequestContext.deliver(from: options, into: &header)
        RunKey.deliver(from: options, into: &header)
        return header.isEmpty ? Frame() : Frame(data: JSON.object(header).canonicalData)
    }
}
