import Foundation

/// One recipient's result (SiriKit's `INSendMessageRecipientResolutionResult`):
/// `resolveRecipients(for:with:)` answers one per recipient, in order, and the host puts
/// to the user only those that need it (docs/protocol.md §8.3).
open class INSendMessageRecipientResolutionResult: INPersonResolutionResult, @unchecked Sendable {
    /// The recipient can't be messaged, for one of Apple's reasons. The host speaks the
    /// reason's name only where the definition has a dialog for it, its generic one otherwise.
    public class func unsupported(forReason reason: INSendMessageRecipientUnsupportedReason) -> Self {
        unsupported(forReason: String(describing: reason))
    }

    /// Wraps a person result, as Apple's `init(personResolutionResult:)` does.
    public convenience init(personResolutionResult: INPersonResolutionResult) {
        self.init(result: personResolutionResult.result)
    }
}

/// Why a recipient can't be messaged (SiriKit's `INSendMessageRecipientUnsupportedReason`,
/// Apple's raw values).
public enum INSendMessageRecipientUnsupportedReason: Int, Sendable {
    case noAccount = 1
    case offline = 2
    case messagingServiceNotEnabledForRecipient = 3
    case noValidHandle = 4
    case requestedHandleInvalid = 5
    case noHandleForLabel = 6
    case requiringInAppAuthentication = 7
}
