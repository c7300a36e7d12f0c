import Foundation

/// `INSendMessageIntent.outgoingMessageType`'s result (SiriKit's
/// `INOutgoingMessageTypeResolutionResult`).
open class INOutgoingMessageTypeResolutionResult: INIntentResolutionResult, @unchecked Sendable {
    public class func success(with resolvedValue: INOutgoingMessageType) -> Self {
        success(caseNamed: resolvedValue.intentBusName ?? "unknown")
    }
    public class func confirmationRequired(with valueToConfirm: INOutgoingMessageType) -> Self {
        confirmationRequired(caseNamed: valueToConfirm.intentBusName)
    }
}
