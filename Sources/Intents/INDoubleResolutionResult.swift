import Foundation
import IntentBusCore
import IntentBusLegacy

/// A Decimal parameter's result.
open class INDoubleResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedValue: Double) -> Self { Self(result: .success(.double(resolvedValue))) }
    public class func confirmationRequired(with valueToConfirm: NSNumber?) -> Self {
        Self(result: .confirmationRequired(valueToConfirm.map { .double($0.doubleValue) } ?? .null))
    }
    public class func disambiguation(with valuesToDisambiguate: [Double]) -> Self {
        Self(result: .disambiguation(valuesToDisambiguate.map { ResolutionOption(id: "\($0)", title: "\($0)", value: .double($0)) }))
    }
}
