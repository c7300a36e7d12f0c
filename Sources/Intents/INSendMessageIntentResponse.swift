import Foundation

/// `INSendMessageIntent`'s codes, with Apple's raw values (the host's are the same).
public enum INSendMessageIntentResponseCode: Int, Sendable {
    case unspecified = 0
    case ready
    case inProgress
    case success
    case failure
    case failureRequiringAppLaunch
    case failureMessageServiceNotAvailable
    case failureRequiringInAppAuthentication
}

/// `INSendMessageIntent`'s answer (SiriKit's `INSendMessageIntentResponse`). The host's
/// success dialog names the recipients (`Sent to ${recipientName}.`): left unset, it is
/// filled in from the intent's recipients.
open class INSendMessageIntentResponse: INIntentResponse, @unchecked Sendable {
    public private(set) var code: INSendMessageIntentResponseCode = .unspecified

    public init(code: INSendMessageIntentResponseCode, userActivity: NSUserActivity?) {
        super.init()
        self.code = code
        self.userActivity = userActivity
    }

    public override var codeName: String { String(describing: code) }

    /// The response parameter the host's dialogs name; Apple's response has none.
    public var recipientName: String? {
        get { responseValues.string("recipientName") }
        set { responseValues.set(newValue, "recipientName") }
    }
    /// The sent message's id (Apple's `sentMessages[0].identifier`).
    public var messageIdentifier: String? {
        get { responseValues.string("messageIdentifier") }
        set { responseValues.set(newValue, "messageIdentifier") }
    }
}
