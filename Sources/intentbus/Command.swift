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
    init(spec: CommandSpec, run: @escaping @Sendable (Arguments) throws -> Int32) {
        self.spec = spec
        self.run = run
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
        Command(spec: DefinitionsCommand.spec, run: DefinitionsCommand.run),
        Command(spec: KeygenCommand.spec, run: KeygenCommand.run),
        Command(spec: SayCommand.spec, run: SayCommand.run),
        Command(spec: ShortcutsCommand.spec, run: ShortcutsCommand.run),
        Command(spec: SuggestionsCommand.suggestionsSpec, run: SuggestionsCommand.runSuggestions),
        Command(spec: SuggestionsCommand.donationsSpec, run: SuggestionsCommand.runDonations),
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
