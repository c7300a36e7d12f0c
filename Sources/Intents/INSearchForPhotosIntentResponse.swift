import Foundation

/// `INSearchForPhotosIntent`'s codes, with Apple's raw values (the host's are the same).
public enum INSearchForPhotosIntentResponseCode: Int, Sendable {
    case unspecified = 0
    case ready
    case continueInApp
    case failure
    case failureRequiringAppLaunch
    case failureAppConfigurationRequired
}

/// `INSearchForPhotosIntent`'s answer (SiriKit's `INSearchForPhotosIntentResponse`): the host says how many were found.
open class INSearchForPhotosIntentResponse: INIntentResponse, @unchecked Sendable {
    public private(set) var code: INSearchForPhotosIntentResponseCode = .unspecified

    public init(code: INSearchForPhotosIntentResponseCode, userActivity: NSUserActivity?) {
        super.init()
        self.code = code
        self.userActivity = userActivity
    }

    public override var codeName: String { String(describing: code) }

    /// How many photos match (the host's `${searchResultsCount}`).
    public var searchResultsCount: NSNumber? {
        get { responseValues.number("searchResultsCount") }
        set { responseValues.set(newValue, "searchResultsCount") }
    }
}
