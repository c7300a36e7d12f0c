import Intents

/// A handler that keeps its completion and is then let go (`handler(for:)` made it for
/// the one call): the completion goes with it, uncalled.
final class HoldingHandler: CompletionIntentHandling {
    private var pending: ((CompletionIntentResponse) -> Void)?

    func handle(intent: CompletionIntent, completion: @escaping (CompletionIntentResponse) -> Void) {
        pending = completion
    }
}
