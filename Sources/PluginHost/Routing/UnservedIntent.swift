import Foundation
import IntentBusCore
import IntentBusManifest

/// The answers for an intent no plugin serves, from the fleet's tables alone (its slots,
/// its routes): every claimant disabled in the manifest, every one disabled at run time,
/// or none at all. Values only; the core's admission and `ib.explain` ask.
enum UnservedIntent {
    /// Every plugin claiming `intent` is disabled: say so, rather than unknown_intent,
    /// since the intent is declared and enabling a plugin would serve it.
    static func disabled(_ intent: String, _ disabled: [Int], _ slots: [PluginSlot]) -> BusError {
        let ids = disabled.map { slots[$0].spec.id }
        let who = ids.count == 1 ? "plugin \(ids[0]), the only one claiming \(intent), is" : "plugins \(ids.joined(separator: ", ")), the only ones claiming \(intent), are"
        return BusError(.pluginUnavailable, "\(who) disabled in the manifest (enabled: false)",
                        details: ["plugin": .string(ids[0]), "disabled": .array(ids.map { .string($0) })])
    }

    /// Every claimant of `intent` was disabled with `ib.plugins.disable`.
    static func disabledAtRunTime(_ intent: String, _ disabled: [Int], _ slots: [PluginSlot]) -> BusError {
        let ids = disabled.map { slots[$0].spec.id }
        let who = ids.count == 1 ? "plugin \(ids[0]), the only one claiming \(intent), is" : "plugins \(ids.joined(separator: ", ")), the only ones claiming \(intent), are"
        return BusError(.pluginUnavailable, "\(who) disabled (ib.plugins.disable; intentbus plugins enable ID)",
                        details: ["plugin": .string(ids[0]), "disabled": .array(ids.map { .string($0) })])
    }

    /// No plugin claims `intent`: the known ones, and the nearest name.
    static func unknown(_ intent: String, _ routes: [String: [Int]]) -> BusError {
        let known = routes.keys.sorted()
        var message = "no plugin claims intent \"\(intent)\""
        if let near = known.first(where: { $0.lowercased() == intent.lowercased() })
            ?? YAMLMapping.closest(to: intent, among: known) {
            message += "; did you mean \"\(near)\"?"
        }
        return BusError(.unknownIntent, message, details: ["known_intents": .array(known.map { .string($0) })])
    }
}
