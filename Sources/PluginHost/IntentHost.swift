import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusClient
import IntentBusManifest
import IntentBusStore

/// Why the host could not start.
package struct HostStartError: Error, Sendable, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}

/// The host process: binds the frontend and backend, starts the plugins and routes until
/// SIGINT or SIGTERM.
///
/// Lifecycle: `run()` blocks the calling thread, which becomes the router thread. SIGINT
/// and SIGTERM start a graceful shutdown: open requests get `shutting_down`, plugins get
/// DISCONNECT, then SIGTERM after 1 s and SIGKILL after 3 s, and `run()` returns.
package final class IntentHost {
    package let manifest: Manifest
    let logger: Logger
    private let context = ZMQContext()
    package init(manifest: Manifest, logger: Logger) {
        self.manifest = manifest
        self.logger = logger
    }

    /// Runs the host until it is told to stop.
    package func run() throws(HostStartError) {
        let host = manifest.host
        let files = OpenFileLimit.raiseToHard()
        let connections = ConnectionGuard(budget: connectionBudget(fileLimit: files.soft), limits: host.limits,
                                          context: context, logger: logger)
        logger.info("open files: soft limit \(files.soft), hard limit \(files.hard)")
        let definitions = try LegacyHandlers.loadDefinitions(manifest, logger: logger)
        try StateDirectory.prepare(host.stateDirectory)
        if let state = host.state, let problem = PostgresDatabase.problem(in: state) {
            throw HostStartError(message: "host.state: \(problem)")
        }
        try refuseIfAnotherHostAnswers(host.frontend)
        // From here on a signal waits for the router instead of killing the host with its
        // sockets bound (PendingSignals).
        let signals = PendingSignals()
        defer { signals.cancel() }
        let sockets = try bindSockets(context: context, connections: connections)
        connections.start()
        defer { connections.stop() }  // on the way out of a failed start too
        let (frontend, backend) = (sockets.frontend, sockets.backend)
        let logBook = PluginLogBook()
        let shell: RouterShell
        do {
            shell = try RouterShell(manifest: manifest, logger: logger, context: context, sockets: sockets,
                                    logBook: logBook)
        } catch {
            throw HostStartError(message: "can't set up the router: \(error)")
        }
        let router = shell.core!
        // Remembered plugin choices live in the state directory; a corrupt file is
        // recovered (and logged), any other problem leaves them in memory only.
        router.installChoices(stateDirectory: host.stateDirectory, state: host.state)
        let database = "\(host.stateDirectory)/choices.sqlite3"
        StateDirectory.restrict([database, database + "-wal", database + "-shm"], mode: 0o600)
        let hooks = IntentRouterHooks(view: router)
        let book = LegacyHandlers.install(definitions, into: hooks)
        NewStyleSupport.install(hooks, definitions: book)
        ShortcutSupport.install(hooks, definitions: book)
        // Every client's phrases and donations: 0600 as documented, whatever the umask (with
        // socket_group the directory lets the group pass through).
        let shortcuts = "\(host.stateDirectory)/\(ShortcutStore.fileName)"
        StateDirectory.restrict([shortcuts, shortcuts + "-wal", shortcuts + "-shm"], mode: 0o600)
        hooks.extensions.forEach(router.install)
        let operations = OperationsExtension(view: router, logBook: logBook)
        router.install(operations)
        router.stats = operations.stats
        // host.wyoming: the Wyoming service, a child the host supervises (docs/wyoming.md).
        operations.wyoming = WyomingExtension.install(manifest, into: router, logger: logger)

        for warning in manifest.warnings { logger.warning("\(warning)") }
        for (intent, indices) in router.routes.sorted(by: { $0.key < $1.key }) where indices.count > 1 {
            let ids = indices.map { router.slots[$0].spec.id }.joined(separator: ", ")
            let resolution = manifest.host.presetDefaults[intent].map { "the preset default is \($0)" }
                ?? "clients without a remembered choice will be asked to choose"
            let disabled = (router.disabledClaims[intent] ?? []).map { router.slots[$0].spec.id }
            let also = disabled.isEmpty ? "" : " (also claimed by disabled \(disabled.joined(separator: ", ")))"
            logger.warning("conflict: \(intent) is claimed by \(indices.count) plugins (\(ids))\(also); \(resolution)")
        }
        for spec in manifest.plugins where !spec.enabled {
            logger.info("plugin \(spec.id) is disabled in the manifest (enabled: false); not starting it")
        }
        signal(SIGPIPE, SIG_IGN)
        let mailbox = shell.mailbox  // signal handlers hold the mailbox, never the router
        let internalEndpoint = InternalEndpoint(context: context, endpoint: InternalEndpoint.name)
        let systemd = SystemdService(endpoint: internalEndpoint, logger: logger)
        signals.attach { sig in
            // SIGHUP re-reads the manifest (docs/lifecycle.md, "Hot reload").
            if sig == SIGHUP { return mailbox.post(.reload(trigger: "SIGHUP")) }
            systemd.stopping()
            mailbox.post(.shutdown)
        }
        logger.info("IntentBus host \(getpid()) listening: clients \(frontend.lastEndpoint), plugins \(backend.lastEndpoint); \(manifest.plugins.count) plugins from \(manifest.path)")
        systemd.ready(status: "serving \(manifest.plugins.count) plugins on \(frontend.lastEndpoint)")
        let metricsFile = MetricsFileWriter.start(host, endpoint: internalEndpoint, logger: logger)
        // Several hosts on one database: what the others change reaches this one's caches.
        let listener = host.state.map { StateListener(conninfo: $0, logger: logger, post: { mailbox.post($0) }) }
        listener?.start()
        shell.run()
        listener?.stop()
        connections.stop()  // before the sockets close: see ZMQSocket.monitor(at:)
        metricsFile?.stop()
        systemd.stopped()
        // The last final answers may still be queued in libzmq: give them up to 2 s to
        // leave (a linger of 0 would drop them with the socket).
        try? frontend.setLinger(milliseconds: 2_000)
        frontend.close()
        backend.close()
        for endpoint in [host.frontend, host.backend] where endpoint.hasPrefix("ipc://") {
            unlink(String(endpoint.dropFirst("ipc://".count)))
        }
        logger.info("host stopped")
    }

    /// The budget for this manifest's sockets and plugin processes (Security/ConnectionBudget.swift).
    private func connectionBudget(fileLimit: UInt64) -> ConnectionBudget {
        let host = manifest.host
        let processes = manifest.plugins.reduce(0) { $0 + max(1, $1.instances) }
        let limit = Int(min(fileLimit, UInt64(Int32.max)))
        return ConnectionBudget(pools: ConnectionBudget.pools(
            fileLimit: limit, processes: processes, frontendIsIPC: host.frontend.hasPrefix("ipc://"), mdp: host.mdp != nil,
            maxConnections: host.limits.maxConnections, maxPerUser: host.limits.maxConnectionsPerUser))
    }

    /// libzmq silently takes over an ipc path that another process is bound to; refuse
    /// instead when a live host answers there.
    private func refuseIfAnotherHostAnswers(_ endpoint: String) throws(HostStartError) {
        guard endpoint.hasPrefix("ipc://"),
              FileManager.default.fileExists(atPath: String(endpoint.dropFirst("ipc://".count))) else { return }
        guard let client = try? IntentClient(endpoint: endpoint, context: context) else { return }
        client.hostSlack = .zero
        if let pong = try? client.control("ib.ping", wait: .milliseconds(500)) {
            throw HostStartError(message: "another host (pid \(pong["pid"]?.displayText ?? "?")) is already serving \(endpoint); stop it first or set host.state_dir")
        }
    }
}
