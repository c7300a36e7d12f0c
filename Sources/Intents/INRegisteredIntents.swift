import Foundation
import IntentBusCore

/// The intents this process's extension serves, by name and by class: what turns a
/// host's shortcut (an intent name and values) back into the generated `INIntent`
/// subclass, and an `INIntent` into the name the host knows it by.
final class INRegisteredIntents: @unchecked Sendable {
    // @unchecked: `byName` and `names` are only touched under `lock`.
    static let shared = INRegisteredIntents()
    private let lock = Lock()
    private var byName: [String: any INIntentDispatching.Type] = [:]
    private var names: [ObjectIdentifier: String] = [:]

    func add(_ dispatch: any INIntentDispatching.Type) {
        let type = Swift.type(of: dispatch.makeIntent(INValueStore()))
        lock.withLock {
            byName[dispatch.intentName] = dispatch
            names[ObjectIdentifier(type)] = dispatch.intentName
        }
    }

    /// The intent `name` with `values`, when the extension serves it.
    func intent(_ name: String, _ values: JSON) -> INIntent? {
        guard let dispatch = lock.withLock({ byName[name] }) else { return nil }
        return dispatch.makeIntent(INValueStore(values.objectValue ?? [:]))
    }

    /// The name the host knows `intent`'s class by.
    func name(of intent: INIntent) -> String? { lock.withLock { names[ObjectIdentifier(Swift.type(of: intent))] } }
}
