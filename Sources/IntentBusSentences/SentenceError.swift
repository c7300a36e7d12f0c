/// Why templates could not be loaded: a stable code, where, and a sentence for people.
package struct SentenceError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What kind of problem it is; stable, for tests and tools.
    package enum Code: String, Sendable {
        /// A `(`, `[`, `{` or `<` without its closing partner, or a closing one too many.
        case unbalanced
        /// `{list}` names no list the templates, the plugin or the host knows.
        case unknownList
        /// `<rule>` names no expansion rule.
        case unknownRule
        /// An expansion rule that refers to itself, directly or through others.
        case recursiveRule
        /// Anything else malformed: an empty name, a permutation too long, a bad range.
        case malformed
    }

    package let code: Code
    package let location: SentenceLocation
    package let message: String

    package init(_ code: Code, at location: SentenceLocation, _ message: String) {
        self.code = code
        self.location = location
        self.message = message
    }

    package var description: String { "\(location): \(message)" }
}
