/// What an extension answers for each intent (SiriKit's `INIntentHandlerProviding`): the
/// object that handles it, one that conforms to the intent's generated `…Handling` protocol.
public protocol INIntentHandlerProviding: AnyObject {
    func handler(for intent: INIntent) -> Any
}
