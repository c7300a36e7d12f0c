import Foundation
import IntentBusCore
import IntentBusSentences

/// A phrase as a plugin declares it: words, `${applicationName}`, and `${parameter}`
/// slots (App Intents' `"Öffne \(\.$project) in \(.applicationName)"`). The words may use
/// sentence-template syntax (docs/sentences.md): `(open|show) ${project} [please]`.
///
/// Parsed once when declared; matching works on the normalised words (`PhraseText`).
struct PhraseTemplate: Sendable, Hashable {
    /// One piece of a phrase.
    enum Part: Sendable, Hashable {
        /// Literal words, normalised.
        case words([String])
        /// `${applicationName}`: the plugin's name or one of its synonyms.
        case applicationName
        /// `${name}`: a parameter of the intent, filled from what was said.
        case slot(String)
    }

    /// The placeholder that stands for the plugin's name.
    static let applicationNameToken = "applicationName"

    /// The phrase as written.
    let text: String
    let parts: [Part]

    /// Parses `text`; throws a sentence saying what is wrong with the placeholders.
    init(_ text: String) throws(PhraseTemplateError) {
        self.text = text
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.range(of: "${") {
            let literal = PhraseText.words(String(rest[..<open.lowerBound]))
            if !literal.isEmpty { parts.append(.words(literal)) }
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                throw PhraseTemplateError("\"\(text)\": \"${\" without a closing \"}\"")
            }
            let name = rest[open.upperBound..<close].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw PhraseTemplateError("\"\(text)\": \"${\(name)}\" is not a placeholder (${applicationName} or ${parameter})")
            }
            parts.append(name == Self.applicationNameToken ? .applicationName : .slot(name))
            rest = rest[rest.index(after: close)...]
        }
        let tail = PhraseText.words(String(rest))
        if !tail.isEmpty { parts.append(.words(tail)) }
        self.parts = parts
        // The words' template syntax must parse, and its lists are the slots (`${x}`).
        let expression: SentenceExpression
        do { expression = try TemplateParser.parse(sentence, at: SentenceLocation(file: "", line: 1, column: 1)) } catch {
            throw PhraseTemplateError("\"\(text)\": \(error.message) (column \(error.location.column) of \"\(sentence)\")")
        }
        var lists: [(String, SentenceLocation)] = []
        expression.lists(into: &lists)
        for (name, _) in lists where name != Self.applicationNameToken && !slots.contains(name) {
            throw PhraseTemplateError("\"\(text)\": {\(name)} is not a placeholder (write ${\(name)})")
        }
    }

    /// The phrase as a sentence template: `${x}` → `{x}` (the slot's list).
    var sentence: String { text.replacingOccurrences(of: "${", with: "{") }

    /// The parameter names of the slots, in order.
    var slots: [String] {
        parts.compactMap { part -> String? in
            if case .slot(let n) = part { return n }
            return nil
        }
    }
    var mentionsApplicationName: Bool { parts.contains(.applicationName) }
    /// The literal words, in order.
    var literalWords: [String] {
        parts.flatMap { part -> [String] in
            if case .words(let w) = part { return w }
            return []
        }
    }

    /// Two slots with no words between them can't be told apart.
    var hasAdjacentSlots: Bool {
        zip(parts, parts.dropFirst()).contains { pair in
            if case .slot = pair.0, case .slot = pair.1 { return true }
            return false
        }
    }

    /// The words as they are compared with other plugins' phrases: the application name
    /// spelled out, each slot as `{}`. "Öffne ${project} in ${applicationName}" for
    /// FocusFlow → "offne {} in focusflow".
    func key(applicationName: String) -> String {
        parts.map { part -> String in
            switch part {
            case .words(let w): w.joined(separator: " ")
            case .applicationName: PhraseText.normalised(applicationName)
            case .slot: "{}"
            }
        }.joined(separator: " ")
    }

    /// The phrase for people, with the application name filled in and slots kept.
    func display(applicationName: String) -> String {
        text.replacingOccurrences(of: "${\(Self.applicationNameToken)}", with: applicationName)
    }

    /// The number of words a person says, counting the name and each slot as one.
    var spokenLength: Int {
        parts.reduce(0) { n, part in
            if case .words(let w) = part { return n + w.count }
            return n + 1
        }
    }
}

/// What is wrong with a phrase's placeholders.
struct PhraseTemplateError: Error, Sendable, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
