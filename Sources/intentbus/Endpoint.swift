import Foundation
import PluginHost

/// Where a command finds the host: `--endpoint`, `INTENTBUS_ENDPOINT`, or the frontend
/// named by the manifest (`--config`, `INTENTBUS_CONFIG`, or ./plugins.yaml).
func resolveEndpoint(_ args: Arguments) throws -> String {
    if let ep = args.value("endpoint") ?? ProcessInfo.processInfo.environment["INTENTBUS_ENDPOINT"] { return ep }
    let manifest = try ManifestLoader.load(path: configPath(args))
    return manifest.host.frontend
}

func configPath(_ args: Arguments) -> String {
    args.value("config") ?? ProcessInfo.processInfo.environment["INTENTBUS_CONFIG"] ?? "plugins.yaml"
}

/// Exit codes scripts can rely on (README "Exit codes").
enum ExitCode {
    static let success: Int32 = 0
    static let intentFailed: Int32 = 1
    static let usage: Int32 = 2
    static let busError: Int32 = 3
    static let timeout: Int32 = 4
    static let hostUnreachable: Int32 = 5
    static let configError: Int32 = 6
}

/// Writes to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
