import Foundation

/// What handles `INStartWorkoutIntent` (SiriKit's `INStartWorkoutIntentHandling`), as `INSendMessageIntentHandling`:
/// `handle` required, the rest with defaults, each method in both forms.
public protocol INStartWorkoutIntentHandling: AnyObject {
    func handle(intent: INStartWorkoutIntent, completion: @escaping (INStartWorkoutIntentResponse) -> Void)
    func handle(intent: INStartWorkoutIntent) async -> INStartWorkoutIntentResponse
    func confirm(intent: INStartWorkoutIntent, completion: @escaping (INStartWorkoutIntentResponse) -> Void)
    func confirm(intent: INStartWorkoutIntent) async -> INStartWorkoutIntentResponse
    func resolveWorkoutName(for intent: INStartWorkoutIntent, with completion: @escaping (INSpeakableStringResolutionResult) -> Void)
    func resolveWorkoutName(for intent: INStartWorkoutIntent) async -> INSpeakableStringResolutionResult
    func resolveGoalValue(for intent: INStartWorkoutIntent, with completion: @escaping (INDoubleResolutionResult) -> Void)
    func resolveGoalValue(for intent: INStartWorkoutIntent) async -> INDoubleResolutionResult
    func resolveWorkoutGoalUnitType(for intent: INStartWorkoutIntent, with completion: @escaping (INWorkoutGoalUnitTypeResolutionResult) -> Void)
    func resolveWorkoutGoalUnitType(for intent: INStartWorkoutIntent) async -> INWorkoutGoalUnitTypeResolutionResult
    func resolveWorkoutLocationType(for intent: INStartWorkoutIntent, with completion: @escaping (INWorkoutLocationTypeResolutionResult) -> Void)
    func resolveWorkoutLocationType(for intent: INStartWorkoutIntent) async -> INWorkoutLocationTypeResolutionResult
    func resolveIsOpenEnded(for intent: INStartWorkoutIntent, with completion: @escaping (INBooleanResolutionResult) -> Void)
    func resolveIsOpenEnded(for intent: INStartWorkoutIntent) async -> INBooleanResolutionResult
}

extension INStartWorkoutIntentHandling {
    public func handle(intent: INStartWorkoutIntent, completion: @escaping (INStartWorkoutIntentResponse) -> Void) {
        INAsyncForm.run({ await self.handle(intent: intent) }, completion)
    }

    public func handle(intent: INStartWorkoutIntent) async -> INStartWorkoutIntentResponse {
        INAsyncForm.neither("handle(intent:) of INStartWorkoutIntentHandling")
        return INStartWorkoutIntentResponse(code: .unspecified, userActivity: nil)
    }

    public func confirm(intent: INStartWorkoutIntent, completion: @escaping (INStartWorkoutIntentResponse) -> Void) {
        INAsyncForm.run({ await self.confirm(intent: intent) }, completion)
    }

    public func confirm(intent: INStartWorkoutIntent) async -> INStartWorkoutIntentResponse { INStartWorkoutIntentResponse(code: .ready, userActivity: nil) }

    public func resolveWorkoutName(for intent: INStartWorkoutIntent, with completion: @escaping (INSpeakableStringResolutionResult) -> Void) {
        INAsyncForm.run({ await self.resolveWorkoutName(for: intent) }, completion)
    }

    public func resolveWorkoutName(for intent: INStartWorkoutIntent) async -> INSpeakableStringResolutionResult { .passThrough(intent, "workoutName") }

    public func resolveGoalValue(for intent: INStartWorkoutIntent, with completion: @escaping (INDoubleResolutionResult) -> Void) {
        INAsyncForm.run({ await self.resolveGoalValue(for: intent) }, completion)
    }

    public func resolveGoalValue(for intent: INStartWorkoutIntent) async -> INDoubleResolutionResult { .passThrough(intent, "goalValue") }

    public func resolveWorkoutGoalUnitType(for intent: INStartWorkoutIntent, with completion: @escaping (INWorkoutGoalUnitTypeResolutionResult) -> Void) {
        INAsyncForm.run({ await self.resolveWorkoutGoalUnitType(for: intent) }, completion)
    }

    public func resolveWorkoutGoalUnitType(for intent: INStartWorkoutIntent) async -> INWorkoutGoalUnitTypeResolutionResult { .passThrough(intent, "workoutGoalUnitType") }

    public func resolveWorkoutLocationType(for intent: INStartWorkoutIntent, with completion: @escaping (INWorkoutLocationTypeResolutionResult) -> Void) {
        INAsyncForm.run({ await self.resolveWorkoutLocationType(for: intent) }, completion)
    }

    public func resolveWorkoutLocationType(for intent: INStartWorkoutIntent) async -> INWorkoutLocationTypeResolutionResult { .passThrough(intent, "workoutLocationType") }

    public func resolveIsOpenEnded(for intent: INStartWorkoutIntent, with completion: @escaping (INBooleanResolutionResult) -> Void) {
        INAsyncForm.run({ await self.resolveIsOpenEnded(for: intent) }, completion)
    }

    public func resolveIsOpenEnded(for intent: INStartWorkoutIntent) async -> INBooleanResolutionResult { .passThrough(intent, "isOpenEnded") }
}
