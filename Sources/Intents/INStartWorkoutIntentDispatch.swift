import Foundation

/// How `INExtensionRuntime` calls an `INStartWorkoutIntentHandling` (see `INSendMessageIntentDispatch`).
enum INStartWorkoutIntentDispatch: INIntentDispatching {
    static var intentName: String { "INStartWorkoutIntent" }

    static func makeIntent(_ values: INValueStore) -> INIntent {
        let intent = INStartWorkoutIntent()
        intent.parameterValues = values
        return intent
    }

    static func isHandler(_ handler: Any) -> Bool { handler is any INStartWorkoutIntentHandling }

    static func handle(_ handler: Any, _ intent: INIntent, completion: @escaping (INIntentResponse) -> Void) {
        guard let handler = handler as? any INStartWorkoutIntentHandling, let intent = intent as? INStartWorkoutIntent else { return }
        handler.handle(intent: intent, completion: { completion($0) })
    }

    static func confirm(_ handler: Any, _ intent: INIntent, completion: @escaping (INIntentResponse) -> Void) {
        guard let handler = handler as? any INStartWorkoutIntentHandling, let intent = intent as? INStartWorkoutIntent else { return }
        handler.confirm(intent: intent, completion: { completion($0) })
    }

    static func resolve(_ handler: Any, _ parameter: String, _ intent: INIntent,
                        completion: @escaping (INIntentResolutionResult) -> Void) -> Bool {
        guard let handler = handler as? any INStartWorkoutIntentHandling, let intent = intent as? INStartWorkoutIntent else { return true }
        switch parameter {
        case "workoutName": handler.resolveWorkoutName(for: intent) { completion($0) }
        case "goalValue": handler.resolveGoalValue(for: intent) { completion($0) }
        case "workoutGoalUnitType": handler.resolveWorkoutGoalUnitType(for: intent) { completion($0) }
        case "workoutLocationType": handler.resolveWorkoutLocationType(for: intent) { completion($0) }
        case "isOpenEnded": handler.resolveIsOpenEnded(for: intent) { completion($0) }
        default: return false
        }
        return true
    }
}
