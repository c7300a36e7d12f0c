import Foundation

/// An `INWorkoutGoalUnitType` parameter's result (SiriKit's `INWorkoutGoalUnitTypeResolutionResult`).
open class INWorkoutGoalUnitTypeResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedValue: INWorkoutGoalUnitType) -> Self { success(caseNamed: resolvedValue.intentBusName ?? "unknown") }
    public class func confirmationRequired(with valueToConfirm: INWorkoutGoalUnitType) -> Self { confirmationRequired(caseNamed: valueToConfirm.intentBusName) }
}
