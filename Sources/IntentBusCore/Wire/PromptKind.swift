/// The kinds of a PROMPT (docs/protocol.md §4.4): what the client is asked for. The host's
/// flows and the App Intents layer write them, the host's checks, the Majordomo bridge and
/// `intentbus send`'s prompter read them. A client gets the word as `Prompt.kind`, a string,
/// so that a newer host's kind reaches an older client unchanged.
package enum PromptKind: String, CaseIterable, Sendable {
    /// A parameter's value.
    case value
    /// Yes or no: a parameter's value, or the intent itself.
    case confirmation
    /// One of the offered options for a parameter.
    case disambiguation
    /// One of the plugins that claim the intent.
    case pluginChoice = "plugin_choice"

    /// The word as a JSON string.
    package var json: JSON { .string(rawValue) }
}
