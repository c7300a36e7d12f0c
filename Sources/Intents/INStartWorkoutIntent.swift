import Foundation

/// The standard intent that starts a workout (SiriKit's `INStartWorkoutIntent`); the
/// host knows its shape without a definition file (docs/definitions.md).
open class INStartWorkoutIntent: INIntent, @unchecked Sendable {
    // @unchecked: an intent is made for one phase and read by its handler only.
    public var workoutName: INSpeakableString? { parameterValues.object("workoutName", as: INSpeakableString.self) }
    public var goalValue: NSNumber? { parameterValues.number("goalValue") }
    public var workoutGoalUnitType: INWorkoutGoalUnitType {
        INWorkoutGoalUnitType(intentBusName: parameterValues.string("workoutGoalUnitType"))
    }
    public var workoutLocationType: INWorkoutLocationType {
        INWorkoutLocationType(intentBusName: parameterValues.string("workoutLocationType"))
    }
    public var isOpenEnded: NSNumber? { parameterValues.number("isOpenEnded") }

    public required init() {}

    /// Apple's initializer.
    public convenience init(workoutName: INSpeakableString?, goalValue: NSNumber?, workoutGoalUnitType: INWorkoutGoalUnitType,
                            workoutLocationType: INWorkoutLocationType, isOpenEnded: NSNumber?) {
        self.init()
        parameterValues.set(workoutName, "workoutName")
        parameterValues.set(goalValue, "goalValue")
        parameterValues.set(workoutGoalUnitType.intentBusName, "workoutGoalUnitType")
        parameterValues.set(workoutLocationType.intentBusName, "workoutLocationType")
        parameterValues.set(boolean: isOpenEnded, "isOpenEnded")
    }
}
