import Foundation
import IntentBus
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

/// No host answers at the endpoint: exit 5, said at once rather than after a request's
/// whole timeout.
struct HostUnreachable: Error, CustomStringConvertible {
    let endpoint: String
    let why: String
    var description: String { "no host is running at \(endpoint): \(why) (start one with `intentbus host`)" }
}

/// How long a client command waits for the host to answer a ping before it says that no
/// host is running.
let hostProbeWait: Duration = .milliseconds(1500)

/// A client connected to a host that answered `ib.ping`: a missing ipc socket file is
/// reported at once, a silent endpoint within `hostProbeWait`.
func connectedClient(_ args: Arguments) throws -> IntentClient {
    try connectedClient(endpoint: try resolveEndpoint(args))
}

func connectedClient(endpoint: String) throws -> IntentClient {
    if endpoint.hasPrefix("ipc://") {
        let path = String(endpoint.dropFirst("ipc://".count))
        if !path.hasPrefix("@"), !FileManager.default.fileExists(atPath: path) {
            throw HostUnreachable(endpoint: endpoint, why: "the socket file \(path) does not exist")
        }
    }
    let client = try IntentClient(endpoint: endpoint)
    let slack = client.hostSlack
    client.hostSlack = .zero
    do {
        _ = try client.control("ib.ping", wait: hostProbeWait)
    } catch .noAnswer {
        throw HostUnreachable(endpoint: endpoint, why: "nothing answered within \(hostProbeWait.humanText)")
    }
    client.hostSlack = slack
    return client
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
