import Foundation
import IntentBusCore

/// Acting on plugins at run time (docs/lifecycle.md): `ib.plugins.restart`,
/// `ib.plugins.enable` and `ib.plugins.disable`, each with `{"plugin": ID}`. The core
/// installs them as host intents (RouterCore+Fleet.swift).
extension PluginFleet {
    /// The intents `control(_:)` answers.
    static let controlIntents = ["ib.plugins.restart", "ib.plugins.enable", "ib.plugins.disable"]

    /// One of `controlIntents`, for the plugin it names and that plugin's instances.
    func control(_ request: ControlRequest) -> Result<JSON, BusError> {
        guard let id = request.body["plugin"]?.stringValue else {
            return .failure(BusError(.invalidParameters, "\(request.intent) needs {\"plugin\": ID}"))
        }
        guard let slot = slots.first(where: { $0.spec.id == id && !$0.retired }) else {
            return .failure(BusError(.unknownPlugin, "there is no plugin \"\(id)\""))
        }
        guard slot.spec.enabled else {
            return .failure(BusError(.pluginUnavailable, "plugin \(id) is disabled in the manifest (enabled: false); change the manifest to run it"))
        }
        if !slot.spec.isSpawned, request.intent != "ib.plugins.disable" || slot.disabledAtRunTime {
            return .failure(BusError(.pluginUnavailable, "plugin \(id) is remote: the host does not start it; it connects by itself"))
        }
        let act: (PluginSlot) -> String
        switch request.intent {
        case "ib.plugins.restart": act = restart
        case "ib.plugins.enable": act = enable
        default: act = disable
        }
        let what = act(slot)
        for index in slot.instanceSlots where !slots[index].retired { _ = act(slots[index]) }
        logger.info("plugin \(id): \(what) (\(request.intent))")
        return .success(["plugin": .string(id), "done": .string(what), "state": .string(slot.stateName)])
    }

    private func restart(_ slot: PluginSlot) -> String {
        let (done, actions) = slot.life.restart()
        perform(actions, slot)
        return done
    }

    private func enable(_ slot: PluginSlot) -> String {
        let (done, actions) = slot.life.enable(eager: slot.spec.lifecycle.activation == .eager)
        perform(actions, slot)
        return done
    }

    private func disable(_ slot: PluginSlot) -> String {
        let (done, actions) = slot.life.disable()
        perform(actions, slot)
        return done
    }
}
