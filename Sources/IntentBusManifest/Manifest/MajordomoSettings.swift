import Foundation
import IntentBusCore

/// The Majordomo endpoint's settings (`host.mdp`, `host.mdp_heartbeat`,
/// `host.mdp_liveness`; docs/mdp.md).
package struct MajordomoSettings: Sendable {
    /// Where MDP clients and workers connect (one ROUTER socket for both): ipc or tcp.
    package var endpoint: String
    /// How often the host sends each worker a HEARTBEAT (RFC 7; the zguide uses 2.5 s).
    package var heartbeat: Duration = .milliseconds(2_500)
    /// How many heartbeat intervals an idle worker may stay silent before the host takes
    /// it for dead (RFC 7: "usually 3-5").
    package var liveness = 3
    /// What an MDP client's reply body is by default (`mdp_reply`): the handler's bytes
    /// as they are (RFC 7), or the IntentBus envelope with `status` and `dialog`.
    package var reply: MajordomoReplyForm = .body
    /// `mdp_intents`: what MDP clients without a key of `host.clients` may call (exact
    /// names, or prefixes ending in `*`). By default every intent but the `ib.*` admin
    /// intents (`ib.ping` is always allowed).
    package var intents: [String]?
    /// `mdp_queue`: how many MDP requests may wait for a plugin that is at its
    /// `max_in_flight`, as RFC 7 brokers queue; past it, `busy`.
    package var queueLimit = 10_000
    /// `mdp_only_idempotent`: MDP clients may call only intents their plugin marks
    /// `idempotent` (an MDP/0.1 client resends a slow request; docs/mdp.md).
    package var onlyIdempotent = false

    /// The ranges the manifest accepts.
    static let heartbeatRange: ClosedRange<Duration> = .milliseconds(50) ... .seconds(60)
    static let livenessRange: ClosedRange<Int> = 2 ... 20
    static let queueRange: ClosedRange<Int> = 0 ... 1_000_000

    /// The grant of an MDP client without a key: `mdp_intents`, or every intent but `ib.*`.
    package func allowsKeyless(_ intent: String) -> Bool {
        if intent == "ib.ping" { return true }
        guard let intents else { return !intent.hasPrefix("ib.") }
        return ClientGrant(name: "mdp", publicKey: "", intents: intents).allows(intent)
    }
}

/// What an MDP client's reply body holds (docs/mdp.md, "Bodies").
package enum MajordomoReplyForm: String, Sendable {
    /// The handler's reply frames unchanged (an error: the envelope's error form).
    case body
    /// One frame of JSON: `{"status", "plugin", "result", "dialog"?}`.
    case envelope
}

extension HostSectionReader {
    /// Decodes `mdp`, `mdp_heartbeat` and `mdp_liveness` of the `host:` mapping `m`.
    /// `others` are the frontend and backend endpoints, which the MDP endpoint must not
    /// repeat.
    func decodeMajordomo(_ m: YAMLMapping, insecure: Bool, others: [String]) -> MajordomoSettings? {
        let endpoint = m.optional("mdp", as: Marked<String>.self)
        let heartbeat = m.optional("mdp_heartbeat", as: Marked<Duration>.self)
        let liveness = m.optional("mdp_liveness", as: Marked<Int>.self)
        let reply = m.optional("mdp_reply", as: Marked<String>.self)
        let intents = m.optional("mdp_intents", as: [String].self)
        let queue = m.optional("mdp_queue", as: Marked<Int>.self)
        let onlyIdempotent = m.optional("mdp_only_idempotent", as: Marked<Bool>.self)
        checkRange(heartbeat, key: "mdp_heartbeat", within: MajordomoSettings.heartbeatRange)
        checkRange(liveness, key: "mdp_liveness", within: MajordomoSettings.livenessRange)
        checkRange(queue, key: "mdp_queue", within: MajordomoSettings.queueRange)
        let form = reply.flatMap { marked -> MajordomoReplyForm? in
            if let form = MajordomoReplyForm(rawValue: marked.value) { return form }
            error("must be body or envelope, got '\(marked.value)'", key: "mdp_reply", at: marked.mark)
            return nil
        }
        guard let endpoint else {
            if let mark = heartbeat?.mark ?? liveness?.mark ?? reply?.mark ?? queue?.mark ?? onlyIdempotent?.mark {
                context.withPath(.key("mdp")) {
                    context.warning("the mdp_* settings do nothing without host.mdp", at: mark)
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
            if !insecure, !curveAvailable {
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
        if let queue, MajordomoSettings.queueRange.contains(queue.value) { settings.queueLimit = queue.value }
        if let form { settings.reply = form }
        settings.intents = intents
        settings.onlyIdempotent = onlyIdempotent?.value ?? false
        return settings
    }
}

extension ManifestAssembler {
    /// An `mdp_worker: true` entry: no `exec`, not `remote`; `public_key` names the CURVE
    /// key its workers connect with over tcp. Returns the placeholder exec.
    func checkMajordomoWorker(_ m: YAMLMapping, remote: Bool, command: Marked<ExecCommandLine>?,
                              publicKey: Marked<String>?) -> PluginExec {
        if remote { error("an entry is remote or mdp_worker, not both", key: "mdp_worker", at: m.mark) }
        if let command {
            error("MDP workers connect by themselves; the host starts nothing for them: leave 'exec' out", key: "exec", at: command.mark)
        }
        if let publicKey, !CurveKeyText.isKey(publicKey.value) {
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
