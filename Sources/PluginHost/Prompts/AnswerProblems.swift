import Foundation
import IntentBusCore
import IntentBusDefinitions

/// Why an answer to the legacy flow's question was not taken, in the dialogs' language
/// (the definition's `locale:`): the `problem` of the repeated question and the sentence
/// in front of its dialog. English, and any language without an entry, keeps the
/// host's English sentences; a German definition's questions get German ones, so a
/// German prompt does not mix in "expected an Integer".
enum AnswerProblems {
    /// A value that does not fit the parameter: its type, or its range.
    static func doesNotFit(_ parameter: ParameterDefinition, answer: JSON, englishProblem: String,
                           in definition: IntentDefinition) -> String {
        let fields = PromptVocabulary.fields(parameter, in: definition)
        let expected = [fields["type_title"]?.stringValue, fields["range"]?.stringValue].compactMap { $0 }.joined(separator: ", ")
        let given = answer.stringValue ?? answer.displayText
        switch definition.locale.language {
        case "de": return "\(parameter.displayName): „\(given)“ passt nicht – erwartet: \(expected)."
        case "fr": return "\(parameter.displayName) : « \(given) » ne convient pas – attendu : \(expected)."
        default: return "\(parameter.displayName): \(englishProblem)."
        }
    }

    /// No value where one is needed.
    static func needValue(_ definition: IntentDefinition) -> String {
        switch definition.locale.language {
        case "de": "Ich brauche einen Wert."
        case "fr": "Il me faut une valeur."
        default: "I need a value."
        }
    }

    /// A confirmation answered with neither yes nor no.
    static func yesOrNo(_ definition: IntentDefinition) -> String {
        switch definition.locale.language {
        case "de": "Bitte mit ja oder nein antworten."
        case "fr": "Répondez par oui ou par non, s'il vous plaît."
        default: "Please answer yes or no."
        }
    }

    /// A disambiguation answered with an id that was not offered.
    static func notAnOption(_ chosen: String, ids: String, _ definition: IntentDefinition) -> String {
        switch definition.locale.language {
        case "de": "„\(chosen)“ ist keine der Möglichkeiten (\(ids))."
        case "fr": "« \(chosen) » ne fait pas partie des choix (\(ids))."
        default: "'\(chosen)' is not one of the options (\(ids))."
        }
    }
}
