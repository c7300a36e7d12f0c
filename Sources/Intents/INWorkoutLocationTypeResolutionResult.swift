import Foundation

/// An `INWorkoutLocationType` parameter's result (SiriKit's `INWorkoutLocationTypeResolutionResult`).
open class INWorkoutLocationTypeResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedValue: INWorkoutLocationType) -> Self { success(caseNamed: resolvedValue.intentBusName ?? "unknown") }
    public class func confirmationRequired(with valueToConfirm: INWorkoutLocationType) -> Self { confirmationRequired(caseNamed: valueToConfirm.intentBusName) }
}
