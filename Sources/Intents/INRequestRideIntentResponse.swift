import Foundation

/// `INRequestRideIntent`'s codes, with Apple's raw values (the host's are the same).
public enum INRequestRideIntentResponseCode: Int, Sendable {
    case unspecified = 0
    case ready
    case inProgress
    case success
    case failure
    case failureRequiringAppLaunch
    case failureRequiringAppLaunchMustVerifyCredentials
    case failureRequiringAppLaunchNoServiceInArea
    case failureRequiringAppLaunchServiceTemporarilyUnavailable
    case failureRequiringAppLaunchPreviousRideNeedsCompletion
    case failureRequiringAppLaunchRideScheduledTooFar
}

/// `INRequestRideIntent`'s answer (SiriKit's `INRequestRideIntentResponse`). Apple's carries an `INRideStatus`;
/// the host's dialogs name the ride and its pickup time, so those two are set here.
open class INRequestRideIntentResponse: INIntentResponse, @unchecked Sendable {
    public private(set) var code: INRequestRideIntentResponseCode = .unspecified

    public init(code: INRequestRideIntentResponseCode, userActivity: NSUserActivity?) {
        super.init()
        self.code = code
        self.userActivity = userActivity
    }

    public override var codeName: String { String(describing: code) }

    /// The booked ride's id (Apple's `rideStatus.rideIdentifier`).
    public var rideIdentifier: String? {
        get { responseValues.string("rideIdentifier") }
        set { responseValues.set(newValue, "rideIdentifier") }
    }

    /// When the ride comes, as the success dialog says it (Apple's `rideStatus.estimatedPickupDate`).
    public var estimatedPickupTime: String? {
        get { responseValues.string("estimatedPickupTime") }
        set { responseValues.set(newValue, "estimatedPickupTime") }
    }
}
