import Foundation
import IntentBusCore
import IntentBusManifest

/// The answers for an intent no plugin serves, from the fleet's tables alone: every
/// claimant disabled in the manifest, every one disabled at run time, or none at all.
extension PluginFleet {
    /// Every plugin claiming `intent` is disabled: say so, rather than unknown_intent,
    /// since the intent is declared and enabling a plugin would serve it.
    func disabledError(_ intent: String, _ disabled: [Int]) -> BusError {
        let ids = disabled.map { slots[$0].spec.id }
        let who = ids.count == 1 ? "plugin \(ids[0]), the only one claiming \(intent), is" : "plugins \(ids.joined(separator: ", ")), the only ones claiming \(intent), are"
        return BusError(.pluginUnavailable, "\(who) disabled in the manifest (enabled: false)",
                        details: ["plugin": .string(ids[0]), "disabled": .array(ids.map { .string($0) })])
    }

    /// Every claimant of `intent` was disabled with `ib.plugins.disable`.
    func disabledAtRunTimeError(_ intent: String, _ disabled: [Int]) -> BusError {
        let ids = disabled.map { slots[$0].spec.id }
        let who = ids.count == 1 ? "plugin \(ids[0]), the only one claiming \(intent), is" : "plugins \(ids.joined(separator: ", ")), the only ones claiming \(intent), are"
        return BusError(.pluginUnavailable, "\(who) disabled (ib.plugins.disable; intentbus plugins enable ID)",
                        details: ["plugin": .string(ids[0]), "disabled": .array(ids.map { .string($0) })])
    }

    func unknownIntentError(_ intent: String) -> BusError {
        let known = routes.keys.sorted()
        var message = "no plugin claims intent \"\(intent)\""
        if let near = known.first(where: { $0.lowercased() == intent.lowercased() })
            ?? YAMLMapping.closest(to: intent, among: known) {
            message += "; did you mean \"\(near)\"?"
        }
        return BusError(.unknownIntent, message, details: ["known_intents": .array(known.map { .string($0) })])
    }
}
