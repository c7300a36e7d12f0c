import Foundation
import IntentBus
import PluginHost

/// Where a command finds the hosts: `--endpoint` (repeated for several), `INTENTBUS_ENDPOINT`
/// (comma-separated), or the manifest's frontend and its `host.peers` (`--config`,
/// `INTENTBUS_CONFIG`, or ./plugins.yaml). Only the manifest's `host:` section is read: an
/// error in a plugin entry or a drop-in is the host's business, not a reason for a client
/// command to fail.
func resolveEndpoints(_ args: Arguments) throws -> [String] {
    let env = ProcessInfo.processInfo.environment
    let given = args.values("endpoint")
    if !given.isEmpty { return try checkedEndpoints(given, from: "--endpoint") }
    if let listed = env["INTENTBUS_ENDPOINT"] {
        return try checkedEndpoints(listed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) },
                                    from: "INTENTBUS_ENDPOINT")
    }
    if args.value("config") == nil, env["INTENTBUS_CONFIG"] == nil, !FileManager.default.fileExists(atPath: "plugins.yaml") {
        throw NoHostNamed()
    }
    let host = try ManifestLoader.loadHostSettings(path: configPath(args), curveAvailable: CurveKeyPair.isAvailable)
    return [host.frontend] + host.peers
}

/// The first of `resolveEndpoints`, for commands that talk to one host.
func resolveEndpoint(_ args: Arguments) throws -> String {
    try resolveEndpoints(args)[0]
}

/// At most `maximumEndpoints`, each `transport://address`, none twice.
private func checkedEndpoints(_ endpoints: [String], from source: String) throws -> [String] {
    guard !endpoints.isEmpty, endpoints.allSatisfy({ !$0.isEmpty }) else {
        throw UsageError("\(source): an empty endpoint; give transport://address, e.g. ipc:///run/intentbus/frontend.sock")
    }
    guard endpoints.count <= maximumEndpoints else {
        throw UsageError("\(source): \(endpoints.count) endpoints; at most \(maximumEndpoints)")
    }
    for endpoint in endpoints where !endpoint.contains("://") {
        throw UsageError("\(source): '\(endpoint)' is not an endpoint; expected transport://address, e.g. tcp://127.0.0.1:5555")
    }
    if let twice = endpoints.first(where: { e in endpoints.filter { $0 == e }.count > 1 }) {
        throw UsageError("\(source): \(twice) is given twice")
    }
    return endpoints
}

/// How many hosts one client command may know.
let maximumEndpoints = 64

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
/// reported at once, a silent endpoint within `hostProbeWait`; with several hosts, the
/// first that answers (the client then stays with it: `HostSelection.leastRecentlyFailed`).
func connectedClient(_ args: Arguments) throws -> IntentClient {
    try connectedClient(endpoints: try resolveEndpoints(args), curve: try curveKeys(args))
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
    try connectedClient(endpoints: [endpoint], curve: curve)
}

func connectedClient(endpoints: [String], curve: (keys: CurveKeyPair, serverKey: String)? = nil) throws -> IntentClient {
    let missing = endpoints.compactMap(missingSocketFile)
    if missing.count == endpoints.count {
        throw HostUnreachable(endpoint: endpoints.joined(separator: ", "),
                              why: missing.count == 1 ? "the socket file \(missing[0]) does not exist"
                                  : "none of the socket files exists (\(missing.joined(separator: ", ")))")
    }
    // A host whose socket file is missing is not running: it goes last.
    let ordered = endpoints.filter { missingSocketFile($0) == nil } + endpoints.filter { missingSocketFile($0) != nil }
    let client = try IntentClient(endpoints: ordered, curve: curve)
    let (slack, beat, connectWait) = (client.hostSlack, client.heartbeat, client.connectWait)
    client.hostSlack = .zero
    // A socket file nobody listens on takes no message: said within the probe's wait too.
    client.connectWait = min(connectWait, endpoints.count > 1 ? hostProbeWait / 2 : hostProbeWait)
    // With several hosts a silent one must be found lost before the probe's wait ends, so
    // that the ping goes on to the next.
    if endpoints.count > 1 { client.heartbeat = hostProbeWait / 4 }
    let ping = Result { () throws(ClientError) -> JSON in try client.control("ib.ping", wait: hostProbeWait) }
    if case .failure(let error) = ping {
        let named = endpoints.joined(separator: ", ")
        switch error {
        case .noAnswer: throw HostUnreachable(endpoint: named, why: "nothing answered within \(hostProbeWait.humanText)")
        case .hostLost(let endpoint, _, let why): throw HostUnreachable(endpoint: named, why: "the last one tried, \(endpoint), was lost: \(why)")
        default: throw error
        }
    }
    client.hostSlack = slack
    client.heartbeat = beat
    client.connectWait = connectWait
    return client
}

/// The path of an `ipc://` endpoint's socket file when that file does not exist.
private func missingSocketFile(_ endpoint: String) -> String? {
    guard endpoint.hasPrefix("ipc://") else { return nil }
    let path = String(endpoint.dropFirst("ipc://".count))
    return !path.hasPrefix("@") && !FileManager.default.fileExists(atPath: path) ? path : nil
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
