/// One finding about an `.intentdefinition` file or its `Intents.strings`: where it is
/// (the file and the key path inside it, `INIntents[3].INIntentParameters[1].INIntentParameterType`)
/// and what is wrong. Warnings never stop a load; errors do.
package struct FormatDiagnostic: Sendable, Equatable, CustomStringConvertible {
    package enum Severity: String, Sendable { case error, warning }
    package var file: String
    /// The key path inside the property list; empty for the file as a whole.
    package var keyPath: String
    package var message: String
    package var severity: Severity

    package init(file: String, keyPath: String, _ message: String, severity: Severity = .error) {
        self.file = file
        self.keyPath = keyPath
        self.message = message
        self.severity = severity
    }

    /// `file: keyPath: message`, the form the host prints after `error:`/`warning:`.
    package var description: String {
        keyPath.isEmpty ? "\(file): \(severity.rawValue): \(message)" : "\(file): \(severity.rawValue): \(keyPath): \(message)"
    }
}

/// A file that could not be read at all (not a property list, not a dictionary at the
/// top): the one diagnostic that says why.
package struct DefinitionFormatError: Error, Sendable, CustomStringConvertible {
    package var diagnostic: FormatDiagnostic
    package init(_ diagnostic: FormatDiagnostic) { self.diagnostic = diagnostic }
    package var description: String { diagnostic.description }
}
