import Foundation
import IntentBusCore
import IntentBusLegacy

/// A date range's result (SiriKit's `INDateComponentsRangeResolutionResult`).
open class INDateComponentsRangeResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedDateComponentsRange: INDateComponentsRange) -> Self {
        Self(result: .success(resolvedDateComponentsRange.wireValue))
    }
    public class func confirmationRequired(with dateComponentsRangeToConfirm: INDateComponentsRange?) -> Self {
        Self(result: .confirmationRequired(dateComponentsRangeToConfirm?.wireValue ?? .null))
    }
    public class func disambiguation(with dateComponentsRangesToDisambiguate: [INDateComponentsRange]) -> Self {
        Self(result: .disambiguation(INWireResolutionOptions.options(dateComponentsRangesToDisambiguate)))
    }
}
