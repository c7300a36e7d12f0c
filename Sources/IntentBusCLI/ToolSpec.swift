import Foundation

/// A command-line tool made of commands (`intentbus send …`): finds the command for a
/// word, with "did you mean" for typos, and writes the usage texts.
package struct ToolSpec: Sendable {
    package let name: String
    /// The paragraph under the tool's usage line.
    package let summary: String
    package let commands: [CommandSpec]
    /// Lines at the end of the tool's help (exit codes, where to read more).
    package let footer: String

    package init(name: String, summary: String, commands: [CommandSpec], footer: String = "") {
        self.name = name
        self.summary = summary
        self.commands = commands
        self.footer = footer
    }

    /// The command named `word`, or a usage error that suggests the nearest one.
    package func command(_ word: String) throws(UsageError) -> CommandSpec {
        if let found = commands.first(where: { $0.name == word }) { return found }
        let visible = commands.filter { !$0.hidden }.map(\.name)
        if let near = Suggestion.closest(to: word, among: visible) {
            throw UsageError("unknown command \"\(word)\"; did you mean \"\(near)\"?")
        }
        throw UsageError("unknown command \"\(word)\" (commands: \(visible.joined(separator: ", ")))")
    }

    /// The tool's help: its commands with their summaries.
    package var usage: String {
        let visible = commands.filter { !$0.hidden }
        let width = visible.map(\.name.count).max() ?? 0
        var out = "usage: \(name) COMMAND [options]\n\n\(summary)\n\ncommands:\n"
        for c in visible { out += "  \(c.name.padding(toLength: width, withPad: " ", startingAt: 0))   \(c.summary)\n" }
        out += "\nRun `\(name) COMMAND --help` for a command's options."
        if !footer.isEmpty { out += "\n" + footer }
        return out
    }

    /// One command's help: usage lines, discussion, options (from the declaration), footer.
    package func usage(of spec: CommandSpec) -> String {
        var lines = spec.synopsis.isEmpty ? [generatedSynopsis(spec)] : spec.synopsis
        lines = lines.enumerated().map { ($0.offset == 0 ? "usage: " : "       ") + "\(name) " + $0.element }
        var out = lines.joined(separator: "\n") + "\n"
        if !spec.discussion.isEmpty { out += "\n" + spec.discussion + "\n" }
        let shown = spec.options.filter { !$0.hidden }
        let labels = shown.map { $0.name == "help" ? "-h, --help" : $0.label + ($0.kind == .repeated ? " …" : "") }
        let width = min(max(labels.map(\.count).max() ?? 0, 12), 24)
        out += "\noptions:\n"
        for (option, label) in zip(shown, labels) {
            var help = option.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if !option.choices.isEmpty, !option.help.contains(option.choices[0]) {
                help[0] += " (\(ParsedArguments.list(option.choices)))"
            }
            let pad = String(repeating: " ", count: width + 4)
            if label.count > width {
                out += "  \(label)\n" + help.map { pad + $0 }.joined(separator: "\n") + "\n"
            } else {
                out += "  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + help[0] + "\n"
                for more in help.dropFirst() { out += pad + more + "\n" }
            }
        }
        if !spec.footer.isEmpty { out += "\n" + spec.footer + "\n" }
        return out
    }

    private func generatedSynopsis(_ spec: CommandSpec) -> String {
        var words = [spec.name]
        if !spec.subcommands.isEmpty { words.append(spec.subcommands.joined(separator: "|")) }
        for p in spec.positionals { words.append(p.variadic ? "[\(p.name) …]" : p.name) }
        words.append("[options]")
        return words.joined(separator: " ")
    }
}
