import Foundation
import IntentBus

/// Why the host could not start.
public struct HostStartError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// The host process: binds the frontend and backend, starts the plugins and routes until
/// SIGINT or SIGTERM.
///
/// Lifecycle: `run()` blocks the calling thread, which becomes the router thread. SIGINT
/// and SIGTERM start a graceful shutdown: open requests get `shutting_down`, plugins get
/// DISCONNECT and SIGTERM (SIGKILL after 2 s), and `run()` returns.
public final class IntentHost {
    public let manifest: Manifest
    private let logger: Logger
    private let context = ZMQContext()
    /// Installs extra behaviour (flows, metadata checks, choice handling) before routing
    /// starts. Later features hook in here.
    private let configure: [(IntentRouterHooks) -> Void]

    public init(manifest: Manifest, logger: Logger, extensions: [(IntentRouterHooks) -> Void] = []) {
        self.manifest = manifest
        self.logger = logger
        self.configure = extensions
    }

    /// Runs the host until it is told to stop.
    public func run() throws(HostStartError) {
        let host = manifest.host
        let definitions = try LegacyHandlers.loadDefinitions(manifest, logger: logger)
        do {
            try FileManager.default.createDirectory(atPath: host.stateDirectory, withIntermediateDirectories: true)
        } catch {
            throw HostStartError(message: "can't create the state directory \(host.stateDirectory): \(error.localizedDescription)")
        }
        try refuseIfAnotherHostAnswers(host.frontend)
        let frontend: ZMQSocket, backend: ZMQSocket
        do {
            frontend = try ZMQSocket(context, .router)
            backend = try ZMQSocket(context, .router)
            for s in [frontend, backend] {
                try s.setRouterMandatory()
                try s.setHighWaterMarks(send: 100_000, receive: 100_000)
            }
            try frontend.bind(host.frontend)
            try backend.bind(host.backend)
        } catch {
            throw HostStartError(message: "can't bind: \(error)")
        }
        let logBook = PluginLogBook()
        let launcher = ChildProcessLauncher(logger: logger, logBook: logBook)
        let router: IntentRouter
        do {
            router = try IntentRouter(manifest: manifest, logger: logger, context: context, frontend: frontend,
                                      backend: backend, backendEndpoint: backend.lastEndpoint, launcher: launcher)
        } catch {
            throw HostStartError(message: "can't set up the router: \(error)")
        }
        // Remembered plugin choices live in the state directory; a corrupt file is
        // recovered (and logged), any other problem leaves them in memory only.
        router.installChoices(stateDirectory: host.stateDirectory)
        let hooks = IntentRouterHooks(router: router)
        logBook.install(into: hooks)
        HostStats.install(into: hooks)
        LegacyHandlers.install(definitions, into: hooks)
        NewStyleSupport.install(hooks, definitions: definitions)
        for install in configure { install(hooks) }

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
        let systemd = SystemdService(frontend: host.frontend, logger: logger)
        let sources = [SIGINT, SIGTERM].map { sig -> any DispatchSourceSignal in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { systemd.stopping(); router.post(.shutdown) }
            source.resume()
            return source
        }
        logger.info("IntentBus host \(getpid()) listening: clients \(frontend.lastEndpoint), plugins \(backend.lastEndpoint); \(manifest.plugins.count) plugins from \(manifest.path)")
        systemd.ready(status: "serving \(manifest.plugins.count) plugins on \(frontend.lastEndpoint)")
        let metricsFile = MetricsFileWriter.start(host, logger: logger)
        router.run()
        metricsFile?.stop()
        systemd.stopped()
        sources.forEach { $0.cancel() }
        frontend.close()
        backend.close()
        for endpoint in [host.frontend, host.backend] where endpoint.hasPrefix("ipc://") {
            unlink(String(endpoint.dropFirst("ipc://".count)))
        }
        logger.info("host stopped")
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

/// What an extension may install into the router before it runs. Extensions run on the
/// router thread afterwards, so they need no locking.
public final class IntentRouterHooks {
    let router: IntentRouter
    init(router: IntentRouter) { self.router = router }

    /// The manifest the host runs.
    public var manifest: Manifest { router.manifest }
    /// The host's logger.
    public var logger: Logger { router.logger }
}
