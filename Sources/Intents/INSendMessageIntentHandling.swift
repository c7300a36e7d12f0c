import Foundation

/// What handles `INSendMessageIntent` (SiriKit's `INSendMessageIntentHandling`): `handle`
/// is required; `confirm` and the resolves are `@objc optional` in Apple's, here
/// requirements with defaults (confirm: `.ready`; resolve: the value as given). Each
/// has its `async` form, as Apple's has; a handler writes either (`INAsyncForm`).
public protocol INSendMessageIntentHandling: AnyObject {
    func handle(intent: INSendMessageIntent, completion: @escaping (INSendMessageIntentResponse) -> Void)
    func handle(intent: INSendMessageIntent) async -> INSendMessageIntentResponse
    func confirm(intent: INSendMessageIntent, completion: @escaping (INSendMessageIntentResponse) -> Void)
    func confirm(intent: INSendMessageIntent) async -> INSendMessageIntentResponse
    func resolveRecipients(for intent: INSendMessageIntent, with completion: @escaping ([INSendMessageRecipientResolutionResult]) -> Void)
    func resolveRecipients(for intent: INSendMessageIntent) async -> [INSendMessageRecipientResolutionResult]
    func resolveContent(for intent: INSendMessageIntent, with completion: @escaping (INStringResolutionResult) -> Void)
    func resolveContent(for intent: INSendMessageIntent) async -> INStringResolutionResult
    func resolveSpeakableGroupName(for intent: INSendMessageIntent, with completion: @escaping (INSpeakableStringResolutionResult) -> Void)
    func resolveSpeakableGroupName(for intent: INSendMessageIntent) async -> INSpeakableStringResolutionResult
    func resolveOutgoingMessageType(for intent: INSendMessageIntent, with completion: @escaping (INOutgoingMessageTypeResolutionResult) -> Void)
    func resolveOutgoingMessageType(for intent: INSendMessageIntent) async -> INOutgoingMessageTypeResolutionResult
}

extension INSendMessageIntentHandling {
    public func handle(intent: INSendMessageIntent, completion: @escaping (INSendMessageIntentResponse) -> Void) {
        INAsyncForm.run({ await self.handle(intent: intent) }, completion)
    }

    public func handle(intent: INSendMessageIntent) async -> INSendMessageIntentResponse {
        INAsyncForm.neither("handle(intent:) of INSendMessageIntentHandling")
        return INSendMessageIntentResponse(code: .unspecified, userActivity: nil)
    }

    public func confirm(intent: INSendMessageIntent, completion: @escaping (INSendMessageIntentResponse) -> Void) {
        INAsyncForm.run({ await self.confirm(intent: intent) }, completion)
    }

    public func confirm(intent: INSendMessageIntent) async -> INSendMessageIntentResponse {
        INSendMessageIntentResponse(code: .ready, userActivity: nil)
    }

    public func resolveRecipients(for intent: INSendMessageIntent, with completion: @escaping ([INSendMessageRecipientResolutionResult]) -> Void) {
        INAsyncForm.run({ await self.resolveRecipients(for: intent) }, completion)
    }

    public func resolveRecipients(for intent: INSendMessageIntent) async -> [INSendMessageRecipientResolutionResult] {
        INIntentResolutionResult.passThroughItems(INSendMessageRecipientResolutionResult.self, intent, "recipients")
    }

    public func resolveContent(for intent: INSendMessageIntent, with completion: @escaping (INStringResolutionResult) -> Void) {
        INAsyncForm.run({ await self.resolveContent(for: intent) }, completion)
    }

    public func resolveContent(for intent: INSendMessageIntent) async -> INStringResolutionResult {
        .passThrough(intent, "content")
    }

    public func resolveSpeakableGroupName(for intent: INSendMessageIntent, with completion: @escaping (INSpeakableStringResolutionResult) -> Void) {
        INAsyncForm.run({ await self.resolveSpeakableGroupName(for: intent) }, completion)
    }

    public func resolveSpeakableGroupName(for intent: INSendMessageIntent) async -> INSpeakableStringResolutionResult {
        .passThrough(intent, "speakableGroupName")
    }

    public func resolveOutgoingMessageType(for intent: INSendMessageIntent, with completion: @escaping (INOutgoingMessageTypeResolutionResult) -> Void) {
        INAsyncForm.run({ await self.resolveOutgoingMessageType(for: intent) }, completion)
    }

    public func resolveOutgoingMessageType(for intent: INSendMessageIntent) async -> INOutgoingMessageTypeResolutionResult {
        .passThrough(intent, "outgoingMessageType")
    }
}
