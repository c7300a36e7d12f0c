import Intents

/// The extension's principal class: a handler per intent.
final class MessengerExtension: INExtension {
    override func handler(for intent: INIntent) -> Any {
        intent is MessageStatusIntent ? MessageStatusHandler() : SendMessageHandler()
    }
}
