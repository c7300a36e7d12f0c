import Foundation

/// A position in a source file, for `file:line:column` messages. Lines and columns are
/// 1-based, as editors show them.
package struct SourceMark: Sendable, Hashable, CustomStringConvertible {
    package let file: String
    package let line: Int
    package let column: Int
    /// For a file with no lines to point at (an `.intentdefinition` property list):
    /// the key path inside it, `INIntents[3].INIntentParameters[1]`; line and column are 0.
    package let keyPath: String?

    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = nil
    }

    /// A place in a property list, by its key path.
    package init(file: String, keyPath: String) {
        self.file = file
        self.line = 0
        self.column = 0
        self.keyPath = keyPath
    }

    package var description: String {
        guard let keyPath else { return "\(file):\(line):\(column)" }
        return keyPath.isEmpty ? file : "\(file): \(keyPath)"
    }
}

/// One problem found in a manifest or definition file.
package struct ConfigDiagnostic: Sendable, CustomStringConvertible {
    package enum Severity: String, Sendable { case error, warning }
    package let mark: SourceMark
    package let severity: Severity
    package let message: String

    package init(_ mark: SourceMark, _ message: String, severity: Severity = .error) {
        self.mark = mark
        self.message = message
        self.severity = severity
    }

    /// `file:line:column: error: message`, the form compilers use.
    package var description: String { "\(mark): \(severity.rawValue): \(message)" }
}

/// A manifest or definition file that could not be loaded. Holds every problem found,
/// not just the first.
package struct ConfigError: Error, Sendable, CustomStringConvertible {
    package let diagnostics: [ConfigDiagnostic]
    package init(_ diagnostics: [ConfigDiagnostic]) { self.diagnostics = diagnostics }
    package var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// How a plugin's executable is started.
package struct PluginExec: Sendable, Equatable {
    /// The program, resolved against the manifest's directory when relative.
    package var path: String
    package var arguments: [String]
}

/// One plugin declared in the manifest.
package struct PluginSpec: Sendable {
    /// Stable id, unique in the manifest: `[A-Za-z0-9._-]+`.
    package var id: String
    /// Display name shown to people.
    package var name: String
    package var exec: PluginExec
    /// `IntentsSupported`: the intents this plugin claims, in manifest order.
    package var intentsSupported: [String]
    /// `IntentsRestrictedWhileLocked`: a subset of `intentsSupported` that requires an
    /// authenticated client.
    package var intentsRestrictedWhileLocked: [String]
    /// Extra environment variables for the plugin process.
    package var environment: [String: String]
    /// `inherit_env:`: names of the host's environment variables the plugin gets besides
    /// the minimal set every plugin gets (docs/security.md, "Plugin environment").
    package var inheritedEnvironment: [String] = []
    /// How long the host waits for the plugin to answer one request.
    package var timeout: Duration
    /// Routing priority when several plugins claim an intent and the client's policy is
    /// "default" (higher wins). 0 unless set.
    package var priority: Int
    /// Intent definition files (legacy custom intents), resolved like `exec.path`.
    package var definitions: [String]
    /// Most requests the plugin may hold at once before the host answers `busy`.
    package var maxInFlight: Int
    /// Where the entry was declared, for later diagnostics.
    package var mark: SourceMark
    /// The mark of each claimed intent in `intentsSupported`, same order.
    package var intentMarks: [SourceMark]
    /// `enabled:`; false keeps the plugin declared but never started or routed to, so
    /// that remembered choices naming it are asked again rather than dropped.
    package var enabled: Bool = true
    /// `remote: true` with `public_key`: a plugin on another machine that connects to a
    /// tcp+CURVE backend with this key; never spawned, supervised by heartbeats.
    package var remoteKey: String?
    /// Activation, heartbeats and the crash breaker (docs/lifecycle.md).
    package var lifecycle = PluginLifecycle()
    /// `synonyms:`: other names people use for the plugin; a phrase's
    /// `${applicationName}` matches `name` or any of these (docs/shortcuts.md).
    package var synonyms: [String] = []
    /// `mdp_worker: true`: no process; Majordomo workers that say READY for one of its
    /// `IntentsSupported` on `host.mdp` serve those intents (docs/mdp.md).
    package var mdpWorker = false
    /// `public_key` of an `mdp_worker` entry: the CURVE key its workers connect with to a
    /// tcp MDP endpoint.
    package var mdpWorkerKey: String?
    /// Whether the host starts this plugin's process (not a `remote` plugin, not an
    /// `mdp_worker` entry, whose processes connect by themselves).
    package var isSpawned: Bool { remoteKey == nil && !mdpWorker }
    /// How many processes of the plugin run (`instances`, docs/lifecycle.md).
    package var instances = 1
    /// Intents whose requests may be retried once when the instance handling them dies
    /// (`idempotent: true` or a list of intents).
    package var idempotentIntents: Set<String> = []
    /// `memory_limit`, `cpu_limit`, `sha256`.
    package var guards = PluginGuards()
}

/// Host settings from the manifest's `host:` section.
package struct HostSettings: Sendable {
    /// Where clients connect (ROUTER). Default `ipc://<stateDirectory>/frontend.sock`.
    package var frontend: String
    /// Where plugins connect (ROUTER). Default `ipc://<stateDirectory>/backend.sock`.
    package var backend: String
    /// Directory for sockets and state. Default `.intentbus/` beside the manifest.
    package var stateDirectory: String
    /// `state:` where remembered choices, user phrases and donations live: nil for SQLite
    /// files in `stateDirectory`, or a `postgresql://` connection string (no password:
    /// libpq's PGPASSFILE, service file or PG* variables give it) shared by several hosts.
    package var state: String? = nil
    /// How long an unanswered prompt keeps its conversation. Default 120 s.
    package var conversationTimeout: Duration
    /// The shared client credential for restricted intents (until CURVE), or nil.
    package var clientCredential: String?
    /// `defaults:` preset default plugin per intent (intent → plugin id), used when
    /// several plugins claim an intent and no remembered choice applies. Checked at load:
    /// each plugin exists and claims its intent.
    package var presetDefaults: [String: String] = [:]
    /// `choice_context:` a request-context key (`satellite`) whose value keeps remembered
    /// choices of its own: a request whose context names it is asked, and remembers
    /// "always", for that value (docs/choices.md "Per context"); nil: per client.
    package var choiceContext: String?
    /// `metrics_file:` where the host writes its metrics in the Prometheus text format
    /// (atomically, every `metricsInterval`), or nil.
    package var metricsFile: String?
    /// `metrics_interval:` how often `metricsFile` is rewritten. Default 5 s, 1 s…1 h.
    package var metricsInterval: Duration = .seconds(5)
    /// `socket_group:` the group whose members may connect to an ipc frontend (the socket
    /// becomes 0660 in that group, and the state directory 0710 when the socket is in it);
    /// nil: the host's user only (0600). Checked at load: the group exists.
    package var socketGroup: SocketGroup?
    /// `peers:` the frontends of the other hosts of the same deployment (docs/scale-out.md):
    /// client commands reading this manifest know them all, and `ib.status` lists them.
    package var peers: [String] = []
    /// `insecure: true`: tcp endpoints without CURVE (a warning at each start).
    package var insecure = false
    /// `clients:` the clients known by their CURVE public key, with their rights.
    package var clients: [ClientGrant] = []
    /// How long open requests may finish after SIGTERM before the plugins are stopped.
    package var drainTimeout: Duration = .seconds(10)
    /// `limits:` what clients and plugins can make the host hold (docs/reliability.md).
    package var limits = HostLimits()
    /// `mdp:` the Majordomo (MDP/0.1) endpoint and its heartbeat, or nil (docs/mdp.md).
    package var mdp: MajordomoSettings?
    /// `wyoming:` the Wyoming service the host starts and supervises, or nil (docs/wyoming.md).
    package var wyoming: WyomingServiceSettings?
}

/// The whole manifest: `plugins.yaml` plus any drop-ins.
package struct Manifest: Sendable {
    /// Absolute path of the main manifest file.
    package var path: String
    package var host: HostSettings
    /// Plugins in manifest order.
    package var plugins: [PluginSpec]
    /// Non-fatal findings (warnings) from loading.
    package var warnings: [ConfigDiagnostic]
    /// Every file that was read, main manifest first, then the drop-ins in load order,
    /// named as in diagnostics.
    package var files: [String] = []
}
