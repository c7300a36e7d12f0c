import Foundation
import IntentBusCore
import IntentBusStore

/// The remembered choices' store and their host intents (ChoiceIntents.swift, which
/// reaches the core through `ChoiceCore`).
extension RouterCore: ChoiceCore {
    /// Opens the choice store in the host's state directory and registers the host
    /// intents. Called once by the host, before routing starts.
    func installChoices(stateDirectory: String, state: String? = nil) {
        choiceBook = state.map { ChoiceBook.open(postgres: $0, logger: logger) }
            ?? ChoiceBook.open(directory: stateDirectory, logger: logger)
        choiceBook.startWriter { [post] id, result in post(.choiceWritten(id: id, result: result)) }
        ChoiceIntents(core: self).install()
    }
}
