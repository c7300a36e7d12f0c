import IntentBusCLI

/// One `intentbus` command: its declaration and what runs it.
///
/// To add a command: declare its `CommandSpec` (options once, with their help), write
/// `run(_ args: Arguments) throws -> Int32`, and add one line to `Commands.all`. The
/// parser, `--help`, "did you mean" and the completion scripts follow from the
/// declaration.
struct Command: Sendable {
    let spec: CommandSpec
    let run: @Sendable (Arguments) throws -> Int32
    /// For a command not yet declared: it parses its own words (`Arguments(argv, valued:,
    /// booleans:)`) and prints its own `--help`. Only its name and summary are declared
    /// (the list of commands, "did you mean" for its name, completion of its name).
    let runRaw: (@Sendable ([String]) throws -> Int32)?

    init(spec: CommandSpec, run: @escaping @Sendable (Arguments) throws -> Int32) {
        self.spec = spec
        self.run = run
        self.runRaw = nil
    }

    init(name: String, summary: String, runRaw: @escaping @Sendable ([String]) throws -> Int32) {
        self.spec = CommandSpec(name: name, summary: summary, options: [])
        self.run = { _ in ExitCode.usage }
        self.runRaw = runRaw
    }
}

/// Every command, in the order `intentbus --help` lists them.
enum Commands {
    static let all: [Command] = [
        Command(spec: HostCommand.spec, run: HostCommand.run),
        Command(spec: SendCommand.spec, run: SendCommand.run),
        Command(spec: PluginsCommand.spec, run: PluginsCommand.run),
        Command(spec: ReloadCommand.spec, run: ReloadCommand.run),
        Command(spec: DescribeCommand.spec, run: DescribeCommand.run),
        Command(spec: StatusCommand.spec, run: StatusCommand.run),
        Command(spec: StatusCommand.metricsSpec, run: StatusCommand.runMetrics),
        Command(spec: LogsCommand.spec, run: LogsCommand.run),
        Command(spec: ExplainCommand.spec, run: ExplainCommand.run),
        Command(spec: ChoicesCommand.spec, run: ChoicesCommand.run),
        Command(spec: ValidateCommand.spec, run: ValidateCommand.run),
        Command(spec: KeygenCommand.spec, run: KeygenCommand.run),
        // Not declared yet: they parse their own words (SayCommand.swift, ShortcutsCommand.swift,
        // SuggestionsCommand.swift).
        Command(name: "say", summary: "run the intent a phrase names (\"Öffne Website in FocusFlow\")",
                runRaw: { try SayCommand.run($0) }),
        Command(name: "shortcuts", summary: "add, list, edit or delete your own phrases (\"Add to Siri\")",
                runRaw: { try ShortcutsCommand.run($0) }),
        Command(name: "suggestions", summary: "what you are likely to want now, from donations",
                runRaw: { try SuggestionsCommand.run($0, command: "suggestions") }),
        Command(name: "donations", summary: "list, add or delete donations",
                runRaw: { try SuggestionsCommand.run($0, command: "donations") }),
        Command(spec: CompletionCommand.spec, run: CompletionCommand.run),
        Command(spec: CompletionCommand.helperSpec, run: CompletionCommand.runHelper),
    ]

    static let tool = ToolSpec(
        name: "intentbus",
        summary: "IntentBus routes Siri-style intent requests over ZeroMQ to plugin processes.",
        commands: all.map(\.spec),
        footer: """
        Exit codes: 0 success, 1 the intent failed, 2 usage, 3 bus error, 4 timeout,
        5 host unreachable, 6 manifest or start-up error.
        """)

    static func named(_ name: String) -> Command? { all.first { $0.spec.name == name } }
}
