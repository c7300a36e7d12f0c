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
    static let endpoint = OptionSpec.repeated("endpoint", "EP",
                                              "a host's frontend endpoint; repeat it for several hosts (or $INTENTBUS_ENDPOINT=A,B)")
    static let json = OptionSpec.flag("json", "print the answer as JSON")
    static let key = OptionSpec.value("key", "FILE",
                                      "this client's CURVE secret key file, for a tcp host (or $INTENTBUS_CLIENT_KEY)",
                                      completion: .file)
    static let serverKey = OptionSpec.value("server-key", "KEY",
                                            "the host's public key, or its host.pub file (or $INTENTBUS_SERVER_KEY)")
    /// How a client command finds the host.
    static let host = [config, endpoint, key, serverKey]
}
