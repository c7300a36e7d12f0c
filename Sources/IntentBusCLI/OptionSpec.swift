/// What the shell completes for a value or a positional argument.
package enum Completion: Sendable, Equatable {
    /// Nothing to offer (free text, numbers).
    case none
    /// File names.
    case file
    /// The values in `OptionSpec.choices` (or the listed words for a positional).
    case words([String])
    /// Names the running host knows, fetched by `intentbus __complete KIND` at completion
    /// time (`intents`, `plugins`); nothing when no host answers.
    case dynamic(String)
}

/// One option of a command, declared once: the parser, the usage text, "did you mean"
/// and the shell completion scripts all read this declaration.
///
/// To add an option to a command, add one entry to its `options`; to check a value
/// beyond its `choices` (a numeric range, say), give it a `check`.
package struct OptionSpec: Sendable {
    package enum Kind: Sendable, Equatable {
        /// `--name`, no value.
        case flag
        /// `--name VALUE` or `--name=VALUE`; the last one given wins.
        case value
        /// `--name VALUE`, may be given several times; all are kept in order.
        case repeated
    }

    /// The name without the leading dashes.
    package let name: String
    package let kind: Kind
    /// How the usage text names the value (`FILE`, `S`, `JSON`).
    package let valueName: String
    /// One or more lines for the usage text; the first also describes it in completions.
    package let help: String
    /// When not empty, the only values accepted (and offered by completion).
    package let choices: [String]
    package let completion: Completion
    /// A further check of a value: returns the problem (for the error message) or nil.
    package let check: (@Sendable (String) -> String?)?
    /// Left out of the usage text and completions (still parsed).
    package let hidden: Bool

    package init(name: String, kind: Kind, valueName: String = "", help: String, choices: [String] = [],
                completion: Completion = .none, hidden: Bool = false, check: (@Sendable (String) -> String?)? = nil) {
        self.name = name
        self.kind = kind
        self.valueName = valueName
        self.help = help
        self.choices = choices
        self.completion = choices.isEmpty ? completion : .words(choices)
        self.hidden = hidden
        self.check = check
    }

    /// `--name`: a switch.
    package static func flag(_ name: String, _ help: String, hidden: Bool = false) -> OptionSpec {
        OptionSpec(name: name, kind: .flag, help: help, hidden: hidden)
    }

    /// `--name VALUE`.
    package static func value(_ name: String, _ valueName: String, _ help: String, choices: [String] = [],
                             completion: Completion = .none,
                             check: (@Sendable (String) -> String?)? = nil) -> OptionSpec {
        OptionSpec(name: name, kind: .value, valueName: valueName, help: help, choices: choices,
                   completion: completion, check: check)
    }

    /// `--name VALUE`, repeatable.
    package static func repeated(_ name: String, _ valueName: String, _ help: String,
                                completion: Completion = .none) -> OptionSpec {
        OptionSpec(name: name, kind: .repeated, valueName: valueName, help: help, completion: completion)
    }

    /// The `--help` every command takes.
    package static let help = OptionSpec.flag("help", "show this help")

    var takesValue: Bool { kind != .flag }
    /// `--name VALUE` as the usage text shows it.
    var label: String { takesValue ? "--\(name) \(valueName)" : "--\(name)" }
}

/// A positional argument, for the usage text and completion.
package struct PositionalSpec: Sendable {
    package let name: String
    package let help: String
    package let completion: Completion
    /// Takes every remaining argument (`key=value …`).
    package let variadic: Bool

    package init(_ name: String, _ help: String = "", completion: Completion = .none, variadic: Bool = false) {
        self.name = name
        self.help = help
        self.completion = completion
        self.variadic = variadic
    }
}
