import Foundation
import IntentBusCore
import IntentBusLegacy

/// What the generator writes for each intent so that `INExtensionRuntime` can call its
/// `…Handling` protocol without knowing it: how to make the intent from its values and
/// how to call each method on a handler. The `Any` handler is the one `handler(for:)`
/// returned; `isHandler` says whether it conforms.
public protocol INIntentDispatching {
    /// The intent's name in its definition (`StatusIntent`).
    static var intentName: String { get }
    static func makeIntent(_ values: INValueStore) -> INIntent
    static func isHandler(_ handler: Any) -> Bool
    static func handle(_ handler: Any, _ intent: INIntent, completion: @escaping (INIntentResponse) -> Void)
    static func confirm(_ handler: Any, _ intent: INIntent, completion: @escaping (INIntentResponse) -> Void)
    /// Calls `resolve<Parameter>(for:with:)`; false for a parameter the intent does not have.
    static func resolve(_ handler: Any, _ parameter: String, _ intent: INIntent,
                        completion: @escaping (INIntentResolutionResult) -> Void) -> Bool
    /// Calls `provide<Parameter>OptionsCollection(for:with:)`; false for a parameter
    /// without dynamic options.
    static func provideOptions(_ handler: Any, _ parameter: String, _ intent: INIntent,
                               completion: @escaping (INOptionsResult) -> Void) -> Bool
}

extension INIntentDispatching {
    /// The standard intents have no dynamic options.
    public static func provideOptions(_ handler: Any, _ parameter: String, _ intent: INIntent,
                                      completion: @escaping (INOptionsResult) -> Void) -> Bool {
        false
    }
}
