/// One command of a command-line tool, declared once: its usage text, its parser, "did
/// you mean" for its options and subcommands, and its shell completion all come from here.
package struct CommandSpec: Sendable {
    /// The word that selects it (`send`).
    package let name: String
    /// One line for the list of commands.
    package let summary: String
    /// Usage lines after the tool's name; generated from the declaration when empty.
    package let synopsis: [String]
    /// Paragraphs below the usage lines.
    package let discussion: String
    /// Words the first positional must be one of (`choices list|set|reset`); empty when free.
    package let subcommands: [String]
    package let positionals: [PositionalSpec]
    /// The options, in the order the usage text lists them; `--help` is added.
    package let options: [OptionSpec]
    /// Lines after the options (exit codes).
    package let footer: String
    /// Left out of the list of commands and of completion (`__complete`).
    package let hidden: Bool

    package init(name: String, summary: String, synopsis: [String] = [], discussion: String = "",
                subcommands: [String] = [], positionals: [PositionalSpec] = [], options: [OptionSpec],
                footer: String = "", hidden: Bool = false) {
        self.name = name
        self.summary = summary
        self.synopsis = synopsis
        self.discussion = discussion
        self.subcommands = subcommands
        self.positionals = positionals
        self.options = options.contains { $0.name == "help" } ? options : options + [.help]
        self.footer = footer
        self.hidden = hidden
    }

    /// The option named `name`, if declared.
    package func option(_ name: String) -> OptionSpec? { options.first { $0.name == name } }
}
