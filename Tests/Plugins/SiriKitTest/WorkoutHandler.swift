import Intents

/// INStartWorkoutIntent in the async forms: "run" fits two workouts (the user picks),
/// and `handle` succeeds only for what the suite sends (a 5 mile indoor run, not open
/// ended), so each typed property is checked: anything else is `failureNoMatchingWorkout`.
final class WorkoutHandler: INStartWorkoutIntentHandling {
    func resolveWorkoutName(for intent: INStartWorkoutIntent) async -> INSpeakableStringResolutionResult {
        guard let name = intent.workoutName?.spokenPhrase.lowercased() else { return .needsValue() }
        let known = [INSpeakableString(vocabularyIdentifier: "run-outdoor", spokenPhrase: "Outdoor Run", pronunciationHint: nil),
                     INSpeakableString(vocabularyIdentifier: "run-indoor", spokenPhrase: "Indoor Run", pronunciationHint: nil)]
        let found = known.filter { $0.spokenPhrase.lowercased().contains(name) }
        return found.count == 1 ? .success(with: found[0]) : found.isEmpty ? .unsupported() : .disambiguation(with: found)
    }

    func handle(intent: INStartWorkoutIntent) async -> INStartWorkoutIntentResponse {
        let expected = intent.workoutName?.spokenPhrase == "Indoor Run" && intent.goalValue?.doubleValue == 5
            && intent.workoutGoalUnitType == .mile && intent.workoutLocationType == .indoor && intent.isOpenEnded?.boolValue == false
        return INStartWorkoutIntentResponse(code: expected ? .success : .failureNoMatchingWorkout, userActivity: nil)
    }
}
