import Foundation
import IntentBusCore

/// What `setShortcutSuggestions` and `setRelevantShortcuts` do on the host: replace the
/// plugin's donations in one group with one donation per shortcut, eligible for
/// prediction, so that `intentbus suggestions` offers them (docs/shortcuts.md).
enum INShortcutSuggestions {
    /// At most this many shortcuts per call (the host keeps a bounded store; an app
    /// offers a handful).
    static let maximum = 100

    static func replace(group suffix: String, with shortcuts: [INShortcut], method: String) throws(BusError) {
        let host = INHostConnection.shared
        guard let plugin = host.pluginId else {
            throw BusError(.internalError, "\(method): this process was not started by an IntentBus host (no INTENTBUS_PLUGIN_ID)")
        }
        guard shortcuts.count <= maximum else {
            throw BusError(.invalidParameters, "\(method): \(shortcuts.count) shortcuts, more than \(maximum)")
        }
        let group = "\(plugin).\(suffix)"
        var donations: [JSON] = []
        for shortcut in shortcuts {
            // An activity runs no intent here: the host suggests intents only.
            guard let intent = shortcut.intent, let name = INRegisteredIntents.shared.name(of: intent) else {
                Logger(label: "Intents").warning("\(method): \(shortcut) is not an intent this extension serves; not suggested")
                continue
            }
            var body: [String: JSON] = ["intent": .string(name), "parameters": .object(intent.parameterValues.values),
                                        "group": .string(group), "eligible_for_prediction": true, "plugin": .string(plugin)]
            if let phrase = intent.suggestedInvocationPhrase { body["suggested_phrase"] = .string(phrase) }
            donations.append(.object(body))
        }
        _ = try host.call("ib.donations.delete", ["group": .string(group)])
        for donation in donations { _ = try host.call("ib.donate", donation) }
    }
}
