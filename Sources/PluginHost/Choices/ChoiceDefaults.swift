import Foundation
import IntentBusCore
import IntentBusManifest

/// Which default applies to a request for a contested intent (docs/choices.md): the
/// client's remembered choice (its own, else everyone's), else the manifest's preset, and
/// why its plugin can't serve now; and the remembered-choice key of a request. Made when
/// asked (`RouterCore.choiceDefaults`), over the core's choice book, presets, slots and
/// disabled claims (references, no copy); its one effect, trying a failed spawn again, is
/// the core's (`retryFailedSpawn`).
struct ChoiceDefaults {
    let book: ChoiceBook
    /// The manifest's preset defaults (`host.defaults`): intent → plugin id.
    let presets: [String: String]
    let slots: [PluginSlot]
    /// Intent → the disabled plugins claiming it (`RouterCore.disabledClaims`).
    let disabledClaims: [String: [Int]]
    /// Tries a plugin whose binary was missing again, at most once a second: true when it
    /// is starting now.
    let retryFailedSpawn: (PluginSlot) -> Bool

    /// The default that applies to `client`'s requests for `intent`.
    ///
    /// - Parameter startFailed: whether a plugin whose binary was missing may be tried
    ///   again now (routing); `ib.explain` passes false so that asking has no effect.
    func applicable(_ intent: String, client: String?, startFailed: Bool) -> ChoicePolicy.Default? {
        if let remembered = book.lookup(intent: intent, client: client) {
            return ChoicePolicy.Default(plugin: remembered.plugin, remembered: remembered,
                                        unavailable: unavailability(of: remembered.plugin, intent: intent, startFailed: startFailed))
        }
        guard let preset = presets[intent] else { return nil }
        return ChoicePolicy.Default(plugin: preset, remembered: nil,
                                    unavailable: unavailability(of: preset, intent: intent, startFailed: startFailed))
    }

    /// Why plugin `id` can't serve `intent` now, or nil when it can: gone from the
    /// manifest, no longer claiming the intent, or failed (a crash loop, a rejected
    /// handshake, a missing executable).
    func unavailability(of id: String, intent: String, startFailed: Bool) -> String? {
        guard let slot = slots.first(where: { $0.spec.id == id }) else { return "removed from the manifest" }
        guard slot.spec.intentsSupported.contains(intent) else { return "it no longer lists \(intent) in IntentsSupported" }
        if !slot.spec.enabled { return "disabled in the manifest" }
        if let reason = slot.failureReason {
            if startFailed, retryFailedSpawn(slot) { return nil }
            return "it is failing: \(reason)"
        }
        return nil
    }

    /// Whether the default that would apply to `client` (remembered, else preset) names a
    /// disabled plugin. Then even a single remaining claimant is not taken silently: the
    /// client is asked again and told why.
    func defaultIsDisabled(_ intent: String, client: String?) -> Bool {
        guard disabledClaims[intent] != nil else { return false }
        guard let id = book.lookup(intent: intent, client: client)?.plugin ?? presets[intent] else { return false }
        return slots.contains { $0.spec.id == id && !$0.spec.enabled }
    }

    /// The remembered-choice key of a request: `satellite=kitchen-1` when the manifest's
    /// `choice_context` key is in its context (docs/choices.md "Per context"), else the
    /// header's client (nil: anyone's).
    static func client(_ options: JSON, context: String?) -> String? {
        if let key = context, let value = RequestContext.of(options)[key] {
            return contextKey(key, value)
        }
        return options["client"]?.stringValue
    }

    /// The key under which a context value's choices are stored (and `ib.choices.set`
    /// with `client` sets them): `key=value`.
    static func contextKey(_ key: String, _ value: JSON) -> String {
        "\(key)=\(value.stringValue ?? value.canonicalString)"
    }

    /// The answer to a client over its rate of remembered-choice changes.
    static func writeRateError(_ limits: HostLimits) -> BusError {
        BusError(.busy, "this client changes remembered choices too often (at most \(limits.choiceWritesPerSecond) a second, host.limits.choice_writes_per_second); try again later",
                 details: ["retry_after_ms": .int(Int64(1_000 / max(1, limits.choiceWritesPerSecond)))])
    }
}
