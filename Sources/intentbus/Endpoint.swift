import Foundation
import IntentBus
import PluginHost

/// Where a command finds the host: `--endpoint`, `INTENTBUS_ENDPOINT`, or the frontend
/// named by the manifest (`--config`, `INTENTBUS_CONFIG`, or ./plugins.yaml). Only the
/// manifest's `host:` section is read: an error in a plugin entry or a drop-in is the
/// host's business, not a reason for a client command to fail.
func resolveEndpoint(_ args: Arguments) throws -> String {
    let env = ProcessInfo.processInfo.environment
    if let ep = args.value("endpoint") ?? env["INTENTBUS_ENDPOINT"] { return ep }
    if args.value("config") == nil, env["INTENTBUS_CONFIG"] == nil, !FileManager.default.fileExists(atPath: "plugins.yaml") {
        throw NoHostNamed()
    }
    return try ManifestLoader.loadHostSettings(path: configPath(args), curveAvailable: CurveKeyPair.isAvailable).frontend
}

/// A client command run outside the project directory, with nothing saying where the
/// host is: exit 5 (the host can't be reached), with the ways to name it.
struct NoHostNamed: Error, CustomStringConvertible {
    var description: String {
        "which host? There is no plugins.yaml here to find it by. Run this in the directory of the host's manifest, "
            + "or point at the host: --endpoint ipc:///path/to/state/frontend.sock (or INTENTBUS_ENDPOINT), "
            + "or --config /path/to/plugins.yaml (or INTENTBUS_CONFIG)"
    }
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
    try connectedClient(endpoint: try resolveEndpoint(args), curve: try curveKeys(args))
}

/// The CURVE keys for a tcp host (docs/security.md): `--key` (or INTENTBUS_CLIENT_KEY), a
/// secret key file; `--server-key` (or INTENTBUS_SERVER_KEY), the host's public key or
/// its host.pub file. Nil when neither is given.
func curveKeys(_ args: Arguments) throws -> (keys: CurveKeyPair, serverKey: String)? {
    let env = ProcessInfo.processInfo.environment
    let keyFile = args.value("key") ?? env["INTENTBUS_CLIENT_KEY"]
    let server = args.value("server-key") ?? env["INTENTBUS_SERVER_KEY"]
    if keyFile == nil && server == nil { return nil }
    guard let keyFile, let server else {
        throw UsageError("CURVE needs both --key (this client's secret key file) and --server-key (the host's public key)")
    }
    guard let secret = CurveKeyPair.readKey(path: keyFile), let keys = CurveKeyPair(secretKey: secret) else {
        throw UsageError("--key \(keyFile): no CURVE secret key in that file (intentbus keygen writes one)")
    }
    let serverKey = CurveKeyPair.isKey(server) ? server : CurveKeyPair.readKey(path: server)
    guard let serverKey else { throw UsageError("--server-key: neither a CURVE public key nor a file holding one: \(server)") }
    return (keys, serverKey)
}

func connectedClient(endpoint: String, curve: (keys: CurveKeyPair, serverKey: String)? = nil) throws -> IntentClient {
    if endpoint.hasPrefix("ipc://") {
        let path = String(endpoint.dropFirst("ipc://".count))
        if !path.hasPrefix("@"), !FileManager.default.fileExists(atPath: path) {
            throw HostUnreachable(endpoint: endpoint, why: "the socket file \(path) does not exist")
        }
    }
    let client = try IntentClient(endpoint: endpoint, curve: curve)
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
