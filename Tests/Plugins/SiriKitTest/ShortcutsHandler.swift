import Intents

/// CompletionIntent's `shortcuts` and `suggest` modes: INVoiceShortcutCenter and
/// INRelevantShortcutStore, which ask the host over the bus. `shortcuts` answers with the
/// user's phrases for this extension's intents, then the first one looked up again by
/// its identifier and the mode its intent carries; `suggest` suggests CompletionIntent in
/// mode `once` (setShortcutSuggestions) and in mode `thread` (setRelevantShortcuts).
final class ShortcutsHandler: CompletionIntentHandling {
    func handle(intent: CompletionIntent, completion: @escaping (CompletionIntentResponse) -> Void) {
        let center = INVoiceShortcutCenter.shared
        if intent.mode == "suggest" {
            center.setShortcutSuggestions([INShortcut(intent: Self.completion("once", phrase: "Prüf die Completion einmal"))!])
            let relevant = INRelevantShortcut(shortcut: INShortcut(intent: Self.completion("thread", phrase: "Prüf den Faden"))!)
            relevant.relevanceProviders = [INDateRelevanceProvider(start: Date(), end: nil)]
            INRelevantShortcutStore.default.setRelevantShortcuts([relevant]) { error in
                completion(error == nil ? .success(result: "vorgeschlagen") : .success(result: "Fehler: \(error!)"))
            }
            return
        }
        center.getAllVoiceShortcuts { shortcuts, error in
            guard let shortcuts, let first = shortcuts.first else {
                return completion(.success(result: "keine Kurzbefehle (\(error.map { "\($0)" } ?? "-"))"))
            }
            let phrases = shortcuts.map(\.invocationPhrase).joined(separator: ", ")
            center.getVoiceShortcut(with: first.identifier) { again, _ in
                let mode = (again?.shortcut.intent as? CompletionIntent)?.mode ?? "-"
                completion(.success(result: "\(phrases); wieder: \(again?.invocationPhrase ?? "-") (\(mode))"))
            }
        }
    }

    private static func completion(_ mode: String, phrase: String) -> CompletionIntent {
        let intent = CompletionIntent()
        intent.mode = mode
        intent.suggestedInvocationPhrase = phrase
        return intent
    }
}
