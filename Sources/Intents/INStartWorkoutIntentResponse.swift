import Foundation

/// `INStartWorkoutIntent`'s codes, with Apple's raw values (the host's are the same).
public enum INStartWorkoutIntentResponseCode: Int, Sendable {
    case unspecified = 0
    case ready
    case continueInApp
    case failure
    case failureRequiringAppLaunch
    case failureOngoingWorkout
    case failureNoMatchingWorkout
    case success
    case handleInApp
}

/// `INStartWorkoutIntent`'s answer (SiriKit's `INStartWorkoutIntentResponse`).
open class INStartWorkoutIntentResponse: INIntentResponse, @unchecked Sendable {
    public private(set) var code: INStartWorkoutIntentResponseCode = .unspecified

    public init(code: INStartWorkoutIntentResponseCode, userActivity: NSUserActivity?) {
        super.init()
        self.code = code
        self.userActivity = userActivity
    }

    public override var codeName: String { String(describing: code) }
}
