import Foundation

/// Reads the manifest's `host:` section into `HostSettings` (docs/manifest.md): the
/// endpoints and peers, the state, the client credential, and through its other files the
/// limits, clients, metrics, socket group, Majordomo endpoint, Wyoming service and the
/// shape of `defaults`. Reports into the decoding context it is given (the assembler's,
/// or its own for `ManifestLoader.loadHostSettings`, which reads nothing else). Keeps the
/// `defaults` entries it read: whether their plugins exist can only be known once every
/// file is read, so the assembler checks them (`checkPresetDefaults`). Used by one
/// thread, once.
package final class HostSectionReader: ManifestReading {
    let context: YAMLDecodingContext
    let directory: String
    /// Whether the libzmq the host runs on has CURVE: a tcp endpoint without `insecure`
    /// needs it. This module does not link libzmq, so the loader's caller says.
    let curveAvailable: Bool
    /// `host.defaults` as written, once `read` has run.
    private(set) var presetDefaultEntries: [PresetDefaultEntry] = []

    init(context: YAMLDecodingContext, directory: String, curveAvailable: Bool) {
        self.context = context
        self.directory = directory
        self.curveAvailable = curveAvailable
    }

    /// The ZeroMQ transports an endpoint may name.
    static let transports: Set<String> = ["ipc", "tcp", "inproc", "pgm", "epgm", "norm", "vmci", "ws", "wss", "tipc", "udp"]
    /// Longest path an `ipc://` endpoint can bind on Linux (`sun_path` less its NUL).
    static let maximumIPCPathLength = 107

    /// Why `host.state` can't be used, or nil. A full check (libpq's own parser) runs when
    /// the host connects; this one refuses what the manifest must never hold: a password.
    package static func stateProblem(_ value: String) -> String? {
        guard let scheme = ["postgresql://", "postgres://"].first(where: { value.hasPrefix($0) }) else {
            return "must be a postgresql:// connection URL (leave it out for SQLite files in state_dir), got \"\(value)\""
        }
        let rest = value.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        let query = rest.drop { $0 != "?" }
        let inQuery = query.dropFirst().split(separator: "&").contains { $0.lowercased().hasPrefix("password=") }
        let userInfo = authority.contains("@") ? authority.prefix { $0 != "@" } : ""
        if userInfo.contains(":") || inQuery {
            return "must not carry a password; give it through PGPASSFILE (~/.pgpass), a service file or PGPASSWORD"
        }
        return nil
    }

    /// Every default: the sockets in `.intentbus` beside the manifest.
    func defaultSettings() -> HostSettings {
        let stateDirectory = resolve(".intentbus")
        return HostSettings(
            frontend: "ipc://\(stateDirectory)/frontend.sock",
            backend: "ipc://\(stateDirectory)/backend.sock",
            stateDirectory: stateDirectory,
            conversationTimeout: .seconds(120),
            clientCredential: nil)
    }

    /// Decodes the `host:` section; absent or empty means every default.
    func read(_ node: YAMLNode?) -> HostSettings {
        var settings = defaultSettings()
        guard let node, !node.isNull else { return settings }
        context.withPath(.key("host")) {
            context.mapping(node) { m -> Void in
                let stateDirectory = m.optional("state_dir", as: Marked<String>.self)
                if let state = m.optional("state", as: Marked<String>.self) {
                    if let problem = Self.stateProblem(state.value) {
                        error(problem, key: "state", at: state.mark)
                    } else {
                        settings.state = state.value
                    }
                }
                let frontend = m.optional("frontend", as: Marked<String>.self)
                let backend = m.optional("backend", as: Marked<String>.self)
                let conversationTimeout = m.optional("conversation_timeout", as: Marked<Duration>.self)
                let credential = m.optional("client_credential", as: Marked<String>.self)
                let credentialFile = m.optional("client_credential_file", as: Marked<String>.self)
                let metricsFile = m.optional("metrics_file", as: Marked<String>.self)
                let metricsInterval = m.optional("metrics_interval", as: Marked<Duration>.self)
                let peers = m.optional("peers", as: [Marked<String>].self)
                presetDefaultEntries = decodePresetDefaults(m.node(for: "defaults"))
                settings.limits = decodeLimits(m.node(for: "limits"))
                settings.insecure = m.optional("insecure", as: Bool.self, default: false)
                settings.clients = decodeClients(m.node(for: "clients"))
                let tcp = [("frontend", settings.frontend, frontend?.mark), ("backend", settings.backend, backend?.mark)]
                    .filter { $0.1.hasPrefix("tcp://") }
                if !tcp.isEmpty, !settings.insecure, !curveAvailable {
                    for (key, endpoint, mark) in tcp {
                        error("\(endpoint) would need CURVE, which this libzmq was built without (zmq_has(\"curve\") is false); use ipc, or set insecure: true", key: key, at: mark ?? m.mark)
                    }
                }
                if let key = m.optional("choice_context", as: Marked<String>.self) {
                    if (1...64).contains(key.value.utf8.count) {
                        settings.choiceContext = key.value
                    } else {
                        error("must be a request-context key of 1 to 64 bytes, got \(key.value.utf8.count)", key: "choice_context", at: key.mark)
                    }
                }
                if let drain = m.optional("drain_timeout", as: Marked<Duration>.self) {
                    if drain.value >= .zero && drain.value <= .seconds(3_600) {
                        settings.drainTimeout = drain.value
                    } else {
                        error("must be from 0 s to 1 h, got \(drain.value.humanText)", key: "drain_timeout", at: drain.mark)
                    }
                }

                if let stateDirectory {
                    if stateDirectory.value.isEmpty {
                        error("must not be empty", key: "state_dir", at: stateDirectory.mark)
                    } else {
                        settings.stateDirectory = resolve(stateDirectory.value)
                        settings.frontend = "ipc://\(settings.stateDirectory)/frontend.sock"
                        settings.backend = "ipc://\(settings.stateDirectory)/backend.sock"
                    }
                }
                if let frontend, let endpoint = endpoint(frontend, key: "frontend") {
                    settings.frontend = endpoint
                }
                if let backend, let endpoint = endpoint(backend, key: "backend") {
                    settings.backend = endpoint
                }
                settings.peers = decodePeers(peers ?? [], frontend: settings.frontend)
                if settings.frontend == settings.backend {
                    let mark = backend?.mark ?? frontend?.mark ?? m.mark
                    error("the frontend and backend endpoints must differ (both are \(settings.frontend))", key: "backend", at: mark)
                }
                for (key, endpoint, mark) in [
                    ("frontend", settings.frontend, frontend?.mark ?? stateDirectory?.mark ?? m.mark),
                    ("backend", settings.backend, backend?.mark ?? stateDirectory?.mark ?? m.mark),
                ] where endpoint.hasPrefix("ipc://") && endpoint.utf8.count - 6 > Self.maximumIPCPathLength {
                    context.withPath(.key(key)) {
                        context.warning(
                            "the socket path of \(endpoint) is longer than \(Self.maximumIPCPathLength) bytes; binding it will fail (choose a shorter state_dir)",
                            at: mark)
                    }
                }
                if let conversationTimeout {
                    if ManifestLimits.conversationTimeout.contains(conversationTimeout.value) {
                        settings.conversationTimeout = conversationTimeout.value
                    } else {
                        checkRange(conversationTimeout, key: "conversation_timeout", within: ManifestLimits.conversationTimeout)
                    }
                }
                settings.clientCredential = self.credential(inline: credential, file: credentialFile)
                decodeMetrics(file: metricsFile, interval: metricsInterval, into: &settings)
                settings.socketGroup = decodeSocketGroup(m.optional("socket_group", as: Marked<String>.self),
                                                         frontend: settings.frontend)
                settings.mdp = decodeMajordomo(m, insecure: settings.insecure, others: [settings.frontend, settings.backend])
                settings.wyoming = decodeWyoming(m.node(for: "wyoming"), host: settings)
            }
        }
        return settings
    }

    /// `peers:` other hosts' frontends: each a valid endpoint, not this host's own, no
    /// repeats, at most `ManifestLimits.maximumPeers`.
    private func decodePeers(_ peers: [Marked<String>], frontend: String) -> [String] {
        if peers.count > ManifestLimits.maximumPeers, let extra = peers.dropFirst(ManifestLimits.maximumPeers).first {
            error("lists \(peers.count) hosts; at most \(ManifestLimits.maximumPeers)", key: "peers", at: extra.mark)
            return []
        }
        var out: [String] = []
        for peer in peers {
            guard let endpoint = endpoint(peer, key: "peers") else { continue }
            if endpoint == frontend {
                error("\(endpoint) is this host's own frontend; peers lists the other hosts", key: "peers", at: peer.mark)
            } else if out.contains(endpoint) {
                error("\(endpoint) is listed twice", key: "peers", at: peer.mark)
            } else {
                out.append(endpoint)
            }
        }
        return out
    }

    /// Checks an endpoint's transport; a relative `ipc://` path resolves against the
    /// manifest's directory (`ipc://@name`, Linux's abstract namespace, is kept).
    private func endpoint(_ endpoint: Marked<String>, key: String) -> String? {
        let text = endpoint.value
        guard let separator = text.range(of: "://"), !text[separator.upperBound...].isEmpty else {
            error("invalid endpoint '\(text)'; expected transport://address, e.g. ipc:///run/intentbus/frontend.sock or tcp://127.0.0.1:5555",
                  key: key, at: endpoint.mark)
            return nil
        }
        let transport = String(text[..<separator.lowerBound])
        guard Self.transports.contains(transport) else {
            error("unknown ZeroMQ transport '\(transport)' in '\(text)' (use ipc, tcp or inproc)", key: key, at: endpoint.mark)
            return nil
        }
        let address = String(text[separator.upperBound...])
        if transport == "ipc", !address.hasPrefix("/"), !address.hasPrefix("@") {
            return "ipc://\(resolve(address))"
        }
        return text
    }

    /// The client credential, inline or read from a file (trimmed), not both.
    private func credential(inline: Marked<String>?, file: Marked<String>?) -> String? {
        if inline != nil, let file {
            error("set client_credential or client_credential_file, not both", key: "client_credential_file", at: file.mark)
            return nil
        }
        if let inline {
            guard !inline.value.isEmpty else {
                error("must not be empty", key: "client_credential", at: inline.mark)
                return nil
            }
            return inline.value
        }
        guard let file else { return nil }
        let path = resolve(file.value)
        let contents: String
        do {
            contents = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            self.error("cannot read \(path): \(ManifestLoader.readFailureReason(path, error))",
                       key: "client_credential_file", at: file.mark)
            return nil
        }
        // Checked like host.key (which must be 0600): a warning, since the file is the
        // operator's, not the host's to change.
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & 0o077 != 0 {
            context.warning("host.client_credential_file: \(path) can be read by other users (mode \(String(info.st_mode & 0o777, radix: 8))): whoever reads it can run restricted intents; chmod 600 it",
                            at: file.mark)
        }
        let credential = contents.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !credential.isEmpty else {
            error("\(path) is empty", key: "client_credential_file", at: file.mark)
            return nil
        }
        return credential
    }
}
