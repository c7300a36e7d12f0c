import Foundation
import IntentBus
import IntentBusCLI
import PluginHost

/// `intentbus host`: runs the host on a manifest until SIGINT or SIGTERM.
enum HostCommand {
    static let spec = CommandSpec(
        name: "host", summary: "run the host on a manifest (default ./plugins.yaml)",
        discussion: """
        Reads the manifest, starts every plugin as its own process and routes requests until
        SIGINT or SIGTERM. Manifest errors are printed as file:line:column and exit 6.
        """,
        options: [
            CommonOptions.config,
            .value("log-level", "LEVEL", "the least important lines logged (default $INTENTBUS_LOG or info)",
                   choices: Logger.Level.allCases.map(\.name)),
            .value("log-format", "FORMAT", """
                text, or json: one object a line with time (ISO 8601 UTC), level,
                label, plugin, pid, request where known, message (default
                $INTENTBUS_LOG_FORMAT or text); plugins inherit it
                """, choices: Logger.Format.allCases.map(\.rawValue)),
        ])

    static func run(_ args: Arguments) throws -> Int32 {
        // Before any thread exists, so that every thread inherits it (PendingSignals).
        PendingSignals.blockInEveryThread()
        var level = Logger.levelFromEnvironment
        if let name = args.value("log-level"), let parsed = Logger.Level(name: name) { level = parsed }
        var format = Logger.formatFromEnvironment
        if let name = args.value("log-format"), let parsed = Logger.Format(rawValue: name) { format = parsed }
        // Plugins inherit the host's environment: the SDKs then log in the same format and
        // level, and the host keeps their fields (request ids) when it relays their lines.
        setenv("INTENTBUS_LOG_FORMAT", format.rawValue, 1)
        setenv("INTENTBUS_LOG", level.name, 1)
        let logger = Logger(label: "host", minimumLevel: level, format: format)
        let manifest = try ManifestLoader.load(path: configPath(args), curveAvailable: CurveKeyPair.isAvailable)
        try IntentHost(manifest: manifest, logger: logger).run()
        return ExitCode.success
    }
}
