import Foundation
import IntentBus

/// The Majordomo endpoint's settings (`host.mdp`, `host.mdp_heartbeat`,
/// `host.mdp_liveness`; docs/mdp.md).
public struct MajordomoSettings: Sendable {
    /// Where MDP clients and workers connect (one ROUTER socket for both): ipc or tcp.
    public var endpoint: String
    /// How often the host sends each worker a HEARTBEAT (RFC 7; the zguide uses 2.5 s).
    public var heartbeat: Duration = .milliseconds(2_500)
    /// How many heartbeat intervals an idle worker may stay silent before the host takes
    /// it for dead (RFC 7: "usually 3-5").
    public var liveness = 3

    /// The ranges the manifest accepts.
    static let heartbeatRange: ClosedRange<Duration> = .milliseconds(50) ... .seconds(60)
    static let livenessRange: ClosedRange<Int> = 2 ... 20
}

extension ManifestAssembler {
    /// Decodes `mdp`, `mdp_heartbeat` and `mdp_liveness` of the `host:` mapping `m`.
    /// `others` are the frontend and backend endpoints, which the MDP endpoint must not
    /// repeat.
    func decodeMajordomo(_ m: YAMLMapping, insecure: Bool, others: [String]) -> MajordomoSettings? {
        let endpoint = m.optional("mdp", as: Marked<String>.self)
        let heartbeat = m.optional("mdp_heartbeat", as: Marked<Duration>.self)
        let liveness = m.optional("mdp_liveness", as: Marked<Int>.self)
        checkRange(heartbeat, key: "mdp_heartbeat", within: MajordomoSettings.heartbeatRange)
        checkRange(liveness, key: "mdp_liveness", within: MajordomoSettings.livenessRange)
        guard let endpoint else {
            if let mark = heartbeat?.mark ?? liveness?.mark {
                context.withPath(.key("mdp")) {
                    context.warning("mdp_heartbeat and mdp_liveness do nothing without host.mdp", at: mark)
                }
            }
            return nil
        }
        var text = endpoint.value
        if text.hasPrefix("ipc://") {
            let address = String(text.dropFirst(6))
            guard !address.isEmpty else {
                error("an ipc endpoint needs a path, e.g. ipc://mdp.sock", key: "mdp", at: endpoint.mark)
                return nil
            }
            if !address.hasPrefix("/"), !address.hasPrefix("@") { text = "ipc://\(resolve(address))" }
            if text.utf8.count - 6 > Self.maximumIPCPathLength {
                error("the socket path of \(text) is longer than \(Self.maximumIPCPathLength) bytes", key: "mdp", at: endpoint.mark)
                return nil
            }
        } else if text.hasPrefix("tcp://"), text.count > 6 {
            if !insecure, !CurveKeyPair.isAvailable {
                error("\(text) would need CURVE, which this libzmq was built without; use ipc, or set insecure: true",
                      key: "mdp", at: endpoint.mark)
                return nil
            }
        } else {
            error("the MDP endpoint is ipc:// or tcp://, got '\(text)'", key: "mdp", at: endpoint.mark)
            return nil
        }
        if others.contains(text) {
            error("the MDP endpoint must differ from the frontend and the backend (\(text))", key: "mdp", at: endpoint.mark)
            return nil
        }
        var settings = MajordomoSettings(endpoint: text)
        if let heartbeat, MajordomoSettings.heartbeatRange.contains(heartbeat.value) { settings.heartbeat = heartbeat.value }
        if let liveness, MajordomoSettings.livenessRange.contains(liveness.value) { settings.liveness = liveness.value }
        return settings
    }

    /// An `mdp_worker: true` entry: no `exec`, not `remote`; `public_key` names the CURVE
    /// key its workers connect with over tcp. Returns the placeholder exec.
    func checkMajordomoWorker(_ m: YAMLMapping, remote: Bool, command: Marked<ExecCommandLine>?,
                              publicKey: Marked<String>?) -> PluginExec {
        if remote { error("an entry is remote or mdp_worker, not both", key: "mdp_worker", at: m.mark) }
        if let command {
            error("MDP workers connect by themselves; the host starts nothing for them: leave 'exec' out", key: "exec", at: command.mark)
        }
        if let publicKey, !CurveKeyPair.isKey(publicKey.value) {
            error("must be a CURVE public key: 40 characters of Z85", key: "public_key", at: publicKey.mark)
        }
        return PluginExec(path: "(mdp)", arguments: [])
    }

    /// Across entries: a service may be served by one `mdp_worker` entry only (a READY
    /// names a service, not an entry), and workers need `host.mdp`.
    func checkMajordomoWorkers(_ settings: HostSettings) {
        var owner: [String: String] = [:]
        for spec in plugins where spec.mdpWorker {
            if settings.mdp == nil {
                context.warning("plugin \(spec.id) is an mdp_worker entry, but host.mdp is not set: no worker can connect", at: spec.mark)
            }
            for (intent, mark) in zip(spec.intentsSupported, spec.intentMarks) {
                if let first = owner[intent] {
                    context.error("'\(intent)' is already served by mdp_worker entry \(first); a READY names the service, not the entry, so only one entry may list it", at: mark)
                } else {
                    owner[intent] = spec.id
                }
            }
        }
    }
}
