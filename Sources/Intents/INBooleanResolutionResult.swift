import Foundation
import IntentBusCore

/// A Boolean parameter's result.
open class INBooleanResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedValue: Bool) -> Self { Self(result: .success(.bool(resolvedValue))) }
    public class func confirmationRequired(with valueToConfirm: NSNumber?) -> Self {
        Self(result: .confirmationRequired(valueToConfirm.map { .bool($0.boolValue) } ?? .null))
    }
}
