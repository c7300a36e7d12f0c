import Foundation
import IntentBusCore
import IntentBusLegacy

/// An Integer parameter's result.
open class INIntegerResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedValue: Int) -> Self { Self(result: .success(.int(Int64(resolvedValue)))) }
    public class func confirmationRequired(with valueToConfirm: NSNumber?) -> Self {
        Self(result: .confirmationRequired(valueToConfirm.map { .int($0.int64Value) } ?? .null))
    }
    public class func disambiguation(with valuesToDisambiguate: [Int]) -> Self {
        Self(result: .disambiguation(valuesToDisambiguate.map { ResolutionOption(id: "\($0)", title: "\($0)", value: .int(Int64($0))) }))
    }
}
