import Foundation
import IntentBusCore
import IntentBusLegacy

/// The options a `provide<Parameter>OptionsCollection` answered, as the legacy layer sends them.
public typealias INOptionsResult = Result<[ResolutionOption], any Error>

/// What the generated dispatch hands the runtime for a `provide…OptionsCollection`
/// answer: the collection's options, the handler's error, or, for neither, an error
/// naming the parameter.
public enum INOptionsAnswer {
    public static func of<T>(_ collection: INObjectCollection<T>?, _ error: (any Error)?, parameter: String) -> INOptionsResult {
        if let collection { return .success(collection.resolutionOptions) }
        return .failure(error ?? BusError(.pluginError, "provide…OptionsCollection for \(parameter) answered neither options nor an error"))
    }
}
