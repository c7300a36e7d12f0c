/// The words that answer a yes/no (confirmation) prompt, by the dialogs' language: the
/// host's legacy flow reads a typed answer with them, and `intentbus send` its user's line.
/// A word of any language counts, so that a German dialog answered "yes" is still yes; the
/// table lists the languages the prompts' type titles have.
package enum YesNoWords {
    /// Language code → (words for yes, words for no), lower case.
    package static let table: [String: (yes: Set<String>, no: Set<String>)] = [
        "en": (["yes", "y", "true"], ["no", "n", "false"]),
        "de": (["ja", "j"], ["nein", "n"]),
        "fr": (["oui", "o"], ["non", "n"]),
    ]

    /// true for a yes word, false for a no word, nil for anything else (case does not count).
    package static func answer(_ text: String) -> Bool? {
        let word = text.lowercased()
        if table.values.contains(where: { $0.yes.contains(word) }) { return true }
        if table.values.contains(where: { $0.no.contains(word) }) { return false }
        return nil
    }
}
