/// A command line parsed against a `CommandSpec`: `--flag`, `--option value`,
/// `--option=value`, `-h`, `--` and positionals.
package struct ParsedArguments: Sendable {
    package private(set) var positionals: [String] = []
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `args` (the words after the command's name) as `spec` declares.
    ///
    /// With `--help` anywhere, the rest is not checked: the caller prints the usage.
    package init(_ args: [String], spec: CommandSpec) throws(UsageError) {
        if args.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            flags.insert("help")
            return
        }
        var i = 0
        while i < args.count {
            let arg = args[i]
            i += 1
            if arg == "--" { positionals += args[i...]; break }
            guard arg.hasPrefix("-"), arg.count > 1, !Self.isNumber(arg) else {
                positionals.append(arg)
                continue
            }
            guard arg.hasPrefix("--") else {
                throw UsageError("unknown option \(arg) (options start with --)"
                                 + Suggestion.hint(for: String(arg.dropFirst()), among: Self.names(spec), prefix: "--"))
            }
            var name = String(arg.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let option = spec.option(name) else {
                throw UsageError("unknown option --\(name) for \(spec.name)"
                                 + Suggestion.hint(for: name, among: Self.names(spec), prefix: "--"))
            }
            guard option.takesValue else {
                if inline != nil { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard i < args.count else { throw UsageError("--\(name) needs a value (\(option.valueName))") }
                value = args[i]
                i += 1
            }
            try Self.check(value, option)
            options[name, default: []].append(value)
        }
        try checkPositionals(spec)
    }

    private func checkPositionals(_ spec: CommandSpec) throws(UsageError) {
        if !spec.subcommands.isEmpty, let first = positionals.first, !spec.subcommands.contains(first) {
            throw UsageError("unknown \(spec.name) action \"\(first)\""
                             + Suggestion.hint(for: first, among: spec.subcommands)
                             + " (\(Self.list(spec.subcommands)))")
        }
        let variadic = spec.positionals.last?.variadic == true
        let allowed = spec.positionals.count + (spec.subcommands.isEmpty ? 0 : 1)
        if !variadic, positionals.count > allowed {
            let extra = positionals[allowed]
            throw UsageError(allowed == 0 ? "\(spec.name) takes no arguments, got \"\(extra)\""
                                          : "unexpected argument \"\(extra)\"")
        }
    }

    private static func check(_ value: String, _ option: OptionSpec) throws(UsageError) {
        if !option.choices.isEmpty, !option.choices.contains(value) {
            throw UsageError("--\(option.name) is \(list(option.choices)), got \"\(value)\""
                             + Suggestion.hint(for: value, among: option.choices))
        }
        if let problem = option.check?(value) { throw UsageError("--\(option.name): \(problem)") }
    }

    /// A negative number is a positional (`offset=-3` never starts with `-`, but `-3` may).
    private static func isNumber(_ arg: String) -> Bool { Double(arg) != nil }

    private static func names(_ spec: CommandSpec) -> [String] { spec.options.map(\.name) }

    /// "a, b or c".
    static func list(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + words.last!
    }

    /// Whether the switch `name` was given.
    package func flag(_ name: String) -> Bool { flags.contains(name) }
    /// The value of option `name` (the last one given).
    package func value(_ name: String) -> String? { options[name]?.last }
    /// Every value of a repeated option `name`, in order.
    package func values(_ name: String) -> [String] { options[name] ?? [] }
}
