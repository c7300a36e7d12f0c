import Foundation

/// What handles `INSendMessageIntent` (SiriKit's `INSendMessageIntentHandling`): `handle`
/// is required; `confirm` and the resolves are `@objc optional` in Apple's, here
/// requirements with defaults (confirm: `.ready`; resolve: the value as given).
public protocol INSendMessageIntentHandling: AnyObject {
    func handle(intent: INSendMessageIntent, completion: @escaping (INSendMessageIntentResponse) -> Void)
    func confirm(intent: INSendMessageIntent, completion: @escaping (INSendMessageIntentResponse) -> Void)
    func resolveRecipients(for intent: INSendMessageIntent, with completion: @escaping ([INSendMessageRecipientResolutionResult]) -> Void)
    func resolveContent(for intent: INSendMessageIntent, with completion: @escaping (INStringResolutionResult) -> Void)
    func resolveSpeakableGroupName(for intent: INSendMessageIntent, with completion: @escaping (INSpeakableStringResolutionResult) -> Void)
    func resolveOutgoingMessageType(for intent: INSendMessageIntent, with completion: @escaping (INOutgoingMessageTypeResolutionResult) -> Void)
}

extension INSendMessageIntentHandling {
    public func confirm(intent: INSendMessageIntent, completion: @escaping (INSendMessageIntentResponse) -> Void) {
        completion(INSendMessageIntentResponse(code: .ready, userActivity: nil))
    }

    public func resolveRecipients(for intent: INSendMessageIntent, with completion: @escaping ([INSendMessageRecipientResolutionResult]) -> Void) {
        completion(INIntentResolutionResult.passThroughItems(INSendMessageRecipientResolutionResult.self, intent, "recipients"))
    }

    public func resolveContent(for intent: INSendMessageIntent, with completion: @escaping (INStringResolutionResult) -> Void) {
        completion(.passThrough(intent, "content"))
    }

    public func resolveSpeakableGroupName(for intent: INSendMessageIntent, with completion: @escaping (INSpeakableStringResolutionResult) -> Void) {
        completion(.passThrough(intent, "speakableGroupName"))
    }

    public func resolveOutgoingMessageType(for intent: INSendMessageIntent, with completion: @escaping (INOutgoingMessageTypeResolutionResult) -> Void) {
        completion(.passThrough(intent, "outgoingMessageType"))
    }
}
