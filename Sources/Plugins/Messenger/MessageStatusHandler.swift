import Intents

/// MessageStatusIntent (messenger.yaml): how many messages were sent.
final class MessageStatusHandler: MessageStatusIntentHandling {
    func handle(intent: MessageStatusIntent, completion: @escaping (MessageStatusIntentResponse) -> Void) {
        completion(.success(count: NSNumber(value: Outbox.shared.sent)))
    }
}
