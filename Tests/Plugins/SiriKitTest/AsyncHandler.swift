import Intents

/// CompletionIntent in the `async` forms Xcode's protocol has beside the completion
/// ones: `resolveMode` turns "async-bad" down, `confirm` answers after a pause, and
/// `handle` returns its response.
final class AsyncHandler: CompletionIntentHandling {
    func resolveMode(for intent: CompletionIntent) async -> INStringResolutionResult {
        intent.mode == "async-bad" ? .unsupported() : .success(with: intent.mode ?? "async")
    }

    func confirm(intent: CompletionIntent) async -> CompletionIntentResponse {
        try? await Task.sleep(for: .milliseconds(20))
        return CompletionIntentResponse(code: .ready, userActivity: nil)
    }

    func handle(intent: CompletionIntent) async -> CompletionIntentResponse {
        try? await Task.sleep(for: .milliseconds(20))
        return .success(result: "asynchron")
    }
}

/// A handler that writes neither form of `handle`: it compiles (both have defaults, as
/// the two forms stand in for each other), and answers with a clear error.
final class NeitherHandler: CompletionIntentHandling {}
