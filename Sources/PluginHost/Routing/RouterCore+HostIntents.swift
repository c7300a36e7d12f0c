import Foundation
import IntentBusCore
import IntentBusWire

/// The core's side of the host intents (HostIntents.swift owns the table and answers):
/// what they need of the request side (`HostIntentsCore`).
extension RouterCore: HostIntentsCore {
    func installCoreIntents() {
        hostIntents.installCore(fleet)
        installReload()
    }

    func handleControl(_ envelope: RoutingEnvelope, _ msg: WireMessage, options: JSON) {
        let intents = hostIntents  // a copy: the handler it runs may reach the core
        intents.handle(envelope, msg, options: options, self)
    }
}
