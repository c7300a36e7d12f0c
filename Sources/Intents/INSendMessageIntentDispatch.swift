import Foundation

/// How `INExtensionRuntime` calls an `INSendMessageIntentHandling`: what the generator
/// writes for a custom intent (`…Dispatch`), written once here for the standard one.
enum INSendMessageIntentDispatch: INIntentDispatching {
    static var intentName: String { "INSendMessageIntent" }

    static func makeIntent(_ values: INValueStore) -> INIntent {
        let intent = INSendMessageIntent()
        intent.parameterValues = values
        return intent
    }

    static func isHandler(_ handler: Any) -> Bool { handler is any INSendMessageIntentHandling }

    // A handler of the wrong class releases `completion` uncalled: a clear error, not a crash.
    static func handle(_ handler: Any, _ intent: INIntent, completion: @escaping (INIntentResponse) -> Void) {
        guard let handler = handler as? any INSendMessageIntentHandling, let intent = intent as? INSendMessageIntent else { return }
        handler.handle(intent: intent) { response in
            // Apple's response has no recipient name; the host's success dialog says it.
            if response.recipientName == nil, let names = intent.recipients?.map(\.displayName), !names.isEmpty {
                response.recipientName = names.joined(separator: ", ")
            }
            completion(response)
        }
    }

    static func confirm(_ handler: Any, _ intent: INIntent, completion: @escaping (INIntentResponse) -> Void) {
        guard let handler = handler as? any INSendMessageIntentHandling, let intent = intent as? INSendMessageIntent else { return }
        handler.confirm(intent: intent, completion: { completion($0) })
    }

    static func resolve(_ handler: Any, _ parameter: String, _ intent: INIntent,
                        completion: @escaping (INIntentResolutionResult) -> Void) -> Bool {
        guard let handler = handler as? any INSendMessageIntentHandling, let intent = intent as? INSendMessageIntent else { return true }
        switch parameter {
        case "recipients": handler.resolveRecipients(for: intent) { completion(INIntentResolutionResult.items($0)) }
        case "content": handler.resolveContent(for: intent) { completion($0) }
        case "speakableGroupName": handler.resolveSpeakableGroupName(for: intent) { completion($0) }
        case "outgoingMessageType": handler.resolveOutgoingMessageType(for: intent) { completion($0) }
        default: return false
        }
        return true
    }
}
