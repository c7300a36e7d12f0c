import IntentBusCLI

/// A command-line usage error: printed with a pointer to the command's help, exit 2.
typealias UsageError = IntentBusCLI.UsageError

/// A command's arguments, parsed against its `CommandSpec` (Sources/IntentBusCLI).
typealias Arguments = IntentBusCLI.ParsedArguments

/// Options several commands share, declared once.
enum CommonOptions {
    static let config = OptionSpec.value("config", "FILE",
                                         "the manifest (default $INTENTBUS_CONFIG or ./plugins.yaml)",
                                         completion: .file)
    static let endpoint = OptionSpec.value("endpoint", "EP", "the host's frontend endpoint (or $INTENTBUS_ENDPOINT)")
    static let json = OptionSpec.flag("json", "print the answer as JSON")
    /// How a client command finds the host.
    static let host = [config, endpoint]
}
