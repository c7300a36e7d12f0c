import Foundation

/// A phrase the user recorded for one of the app's shortcuts (SiriKit's
/// `INVoiceShortcut`): here a user phrase of the host (`intentbus shortcuts add`,
/// `ib.shortcuts.add`) for an intent this extension serves.
public final class INVoiceShortcut: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: immutable after init.
    /// Stable while this process runs (the host names a phrase by its text; a new
    /// process hands out new identifiers).
    public let identifier: UUID
    /// What the user says.
    public let invocationPhrase: String
    /// What it runs: the intent with the phrase's values.
    public let shortcut: INShortcut

    init(identifier: UUID, invocationPhrase: String, shortcut: INShortcut) {
        self.identifier = identifier
        self.invocationPhrase = invocationPhrase
        self.shortcut = shortcut
    }

    public var description: String { "INVoiceShortcut(\(invocationPhrase))" }
}
