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
        ])

    static func run(_ args: Arguments) throws -> Int32 {
        var level = Logger.levelFromEnvironment
        if let name = args.value("log-level"), let parsed = Logger.Level(name: name) { level = parsed }
        let logger = Logger(label: "host", minimumLevel: level)
        let manifest = try ManifestLoader.load(path: configPath(args))
        try IntentHost(manifest: manifest, logger: logger).run()
        return ExitCode.success
    }
}
