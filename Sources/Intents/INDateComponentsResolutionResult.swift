import Foundation
import IntentBusCore

/// A Date parameter's result.
open class INDateComponentsResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedDateComponents: DateComponents) -> Self {
        var store = INValueStore()
        store.set(resolvedDateComponents, "value")
        return Self(result: .success(store.values["value"] ?? .null))
    }
    public class func confirmationRequired(with dateComponentsToConfirm: DateComponents?) -> Self {
        var store = INValueStore()
        store.set(dateComponentsToConfirm, "value")
        return Self(result: .confirmationRequired(store.values["value"] ?? .null))
    }
}
