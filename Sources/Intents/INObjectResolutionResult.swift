import Foundation
import IntentBusCore
import IntentBusLegacy

/// A custom-type parameter's result; the generated `ContractResolutionResult` narrows
/// it to its class.
open class INObjectResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedObject: INObject) -> Self { Self(result: .success(resolvedObject.wireValue)) }
    public class func confirmationRequired(with objectToConfirm: INObject?) -> Self {
        Self(result: .confirmationRequired(objectToConfirm?.wireValue ?? .null))
    }
    public class func disambiguation(with objectsToDisambiguate: [INObject]) -> Self {
        Self(result: .disambiguation(objectsToDisambiguate.map {
            ResolutionOption(id: $0.identifier ?? $0.displayString, title: $0.displayString, value: $0.wireValue)
        }))
    }
}
