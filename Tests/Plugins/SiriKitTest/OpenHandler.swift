import Intents

/// CompletionIntent's `open` mode: answers `continueInApp` with `opensIntent`, so the
/// host runs CompletionIntent again in mode `once`, in the same conversation.
final class OpenHandler: CompletionIntentHandling {
    func handle(intent: CompletionIntent, completion: @escaping (CompletionIntentResponse) -> Void) {
        let next = CompletionIntent()
        next.mode = "once"
        let response = CompletionIntentResponse(code: .continueInApp, userActivity: nil)
        response.opensIntent = next
        completion(response)
    }
}
