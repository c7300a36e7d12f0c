import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
internal import CLinuxSupport

/// An async handler: runs in its own task, may prompt and report progress.
public typealias PluginHandler = @Sendable (PluginRequest, PluginContext) async throws -> PluginReply

/// A synchronous handler: what `on(intent) { request, context in … }` registers when the
/// closure has no `await` in it (Swift then picks this overload). It runs on the thread
/// that runs the plugin's socket loop, in the turn that received the request: no task, no
/// executor hop, no wake-up (docs/performance.md, "The plugin SDK"). A handler that blocks
/// or computes for long is watched as a task job is: `LoopHandover` moves the loop to
/// another thread, and this one sends its answer through the mailbox when it returns.
/// The context reports progress; asking the user needs `await`, and so an async handler.
public typealias PluginSyncHandler = @Sendable (PluginRequest, PluginContext) throws -> PluginReply

/// An async handler as the runtime keeps it: the closure in an object of its own, so that
/// it stays at its own type in the runtime's tables (a closure kept as a dictionary value
/// or a generic field is stored at the most general representation, and every call then
/// went through two conversion thunks, each an async frame, and a context allocated per
/// request to call it by its concrete type).
final class AsyncHandler: Sendable {
    let run: PluginHandler
    init(_ run: @escaping PluginHandler) { self.run = run }
}

/// A synchronous handler that sees raw frames. It runs on the plugin's socket thread, so
/// it must be quick; it exists for echo-like plugins and benchmarks where a task hop
/// would dominate. Return the body frame to send back (the request's own frame may be
/// returned as is: it is moved, not copied).
public typealias RawPluginHandler = (_ requestId: String, _ intent: String, _ header: Frame, _ body: Frame) -> Frame

/// Why a plugin could not start talking to its host.
public struct PluginStartError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// The plugin side of the bus: connects to the host named in the environment, performs
/// the HELLO handshake, and dispatches requests to the registered handlers.
///
/// Register handlers, then call `run()`. Threading: `run()` owns the socket on the
/// calling thread (or on another, when a handler holds that one: `LoopHandover`); async
/// handlers run as tasks on the loop's thread (`handlerThreads`) and hand their messages
/// back through a `PluginOutbox`. Registration is not thread-safe and must finish before `run()`.
public final class PluginRuntime: @unchecked Sendable {
    // @unchecked: handler tables are written before run() and only read after; live
    // request contexts are guarded by `lock`.
    public let pluginId: String
    private let backend: String
    private let token: String
    var asyncHandlers: [String: (HandlerStyle, AsyncHandler)] = [:]
    var rawHandlers: [String: RawPluginHandler] = [:]
    var syncHandlers: [String: PluginSyncHandler] = [:]
    /// The legacy phases HELLO announces per intent (docs/protocol.md §8.9).
    var announcedPhases: [String: [LegacyPhase]] = [:]
    /// Legacy intent → its handler's response codes, for HELLO (`declare(responseCodes:for:)`).
    private var responseCodes: [String: [String]] = [:]
    let lock = RequestLock()
    var live: [String: PluginContext] = [:]
    /// The request whose handler runs in the turn that received it, kept out of `live`
    /// until it suspends or the loop is handed over (`serveImmediately`).
    var inlineRequest: InlineRequest?
    /// Where async handlers run (`HandlerThreads`); the default, `.socketThread`, runs them
    /// on the thread that runs the socket loop and moves the loop to another thread when
    /// a handler holds it. Set it before `run()`.
    public var handlerThreads: HandlerThreads = .socketThread
    /// Whether the HELLO asks for the packed link (docs/protocol.md §5.1): one frame per
    /// message instead of six, which costs both processes less. On by default; false keeps
    /// six frames (for a wire tool, or a comparison). A plugin serving several hosts always
    /// uses six. Set it before `run()`.
    public var asksPackedLink = true
    /// Handlers on the socket thread, and the loop never moved (`HandlerThreads.socketThreadOnly`):
    /// no watcher thread, but a handler that blocks its thread or computes for long
    /// without suspending then holds up the socket loop: the plugin's other requests,
    /// CANCELs and prompt answers, and its HEARTBEAT answers, so the host would find it
    /// hung (docs/lifecycle.md). Setting it false restores the default. Set it before `run()`.
    public var runsHandlersOnSocketThread: Bool {
        get { handlerThreads == .socketThreadOnly }
        set { handlerThreads = newValue ? .socketThreadOnly : .socketThread }
    }
    /// CURVE keys for a tcp backend, from the environment (docs/security.md).
    private var curve: (keys: CurveKeyPair, serverKey: String)?
    /// With several backends (`INTENTBUS_BACKEND=A,B`): each endpoint and its host's key.
    private var backends: [(endpoint: String, serverKey: String?)] = []
    /// New-style declarations sent in HELLO (see the plugin guide).
    public var metadata: JSON = .object([:])
    public var logger: Logger
    /// Describe mode (`INTENTBUS_DESCRIBE=1`): `run()` prints the HELLO declarations as
    /// JSON on stdout and exits 0 without connecting; `intentbus validate` and
    /// `intentbus describe` use it, for plain, legacy and new-style handlers alike.
    public let describeMode: Bool

    /// Reads `INTENTBUS_BACKEND`, `INTENTBUS_PLUGIN_ID` and `INTENTBUS_TOKEN`; in describe
    /// mode the connection variables may be missing.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(PluginStartError) {
        describeMode = environment["INTENTBUS_DESCRIBE"] == "1"
        var environment = environment
        if describeMode {
            if environment["INTENTBUS_BACKEND"]?.isEmpty ?? true { environment["INTENTBUS_BACKEND"] = "describe:" }
            if environment["INTENTBUS_PLUGIN_ID"]?.isEmpty ?? true { environment["INTENTBUS_PLUGIN_ID"] = "describe" }
        }
        guard let backend = environment["INTENTBUS_BACKEND"], !backend.isEmpty,
              let id = environment["INTENTBUS_PLUGIN_ID"], !id.isEmpty else {
            throw PluginStartError(message: "INTENTBUS_BACKEND and INTENTBUS_PLUGIN_ID are not set: plugins are started by `intentbus host`, which sets them (see docs/plugin-guide.md)")
        }
        self.backend = backend
        self.pluginId = id
        if backend.contains(",") {
            backends = try BackendLink.pairs(backend: backend, serverKeys: environment["INTENTBUS_SERVER_KEY"])
        }
        self.token = environment["INTENTBUS_TOKEN"] ?? ""
        // A CURVE backend (tcp): the host's public key and this plugin's key pair.
        if let server = environment["INTENTBUS_SERVER_KEY"], let secret = environment["INTENTBUS_CURVE_SECRET"],
           let keys = CurveKeyPair(secretKey: secret) {
            curve = (keys, server)
        }
        self.logger = Logger(label: id, minimumLevel: Logger.levelFromEnvironment)
    }

    /// Handles `intent` with an async handler.
    public func on(_ intent: String, style: HandlerStyle = .plain, _ handler: @escaping PluginHandler) {
        syncHandlers[intent] = nil
        asyncHandlers[intent] = (style, AsyncHandler(handler))
    }

    /// Handles `intent` in the plain style with a synchronous handler (`PluginSyncHandler`):
    /// a closure without `await` lands here, one with `await` in the async overload.
    public func on(_ intent: String, _ handler: @escaping PluginSyncHandler) {
        asyncHandlers[intent] = nil
        syncHandlers[intent] = handler
    }

    /// Announces in HELLO the legacy `phases` the handler of `intent` serves; the host
    /// sends the one-trip `run` phase only to a plugin that lists it.
    package func announce(_ intent: String, phases: [LegacyPhase]) {
        announcedPhases[intent] = phases
    }

    /// Handles `intent` synchronously on the socket thread, with raw frames.
    public func onRaw(_ intent: String, _ handler: @escaping RawPluginHandler) {
        rawHandlers[intent] = handler
    }

    /// Announces in HELLO the response codes `intent`'s legacy handler can answer with (its
    /// response-code enum's cases), so that `intentbus validate` can compare them with the
    /// definition before the first request (docs/protocol.md §5.1).
    package func declare(responseCodes: [String], for intent: String) {
        self.responseCodes[intent] = responseCodes
    }

    /// The intents and styles announced in HELLO.
    var declaredIntents: [JSON] {
        var out: [JSON] = rawHandlers.keys.sorted().map { HelloIntents.entry($0, .plain) }
        let styles = asyncHandlers.mapValues(\.0).merging(syncHandlers.mapValues { _ in .plain }) { async, _ in async }
        for name in styles.keys.sorted() where rawHandlers[name] == nil {
            out.append(HelloIntents.entry(name, styles[name]!, codes: styles[name] == .legacy ? responseCodes[name] : nil,
                                          phases: announcedPhases[name] ?? []))
        }
        return out
    }

    /// Connects, says HELLO and serves requests until the host disconnects. Exits the
    /// process: 0 on DISCONNECT, 2 when the host rejects the handshake or can't be reached.
    ///
    /// The socket loop runs on a thread of its own; the calling thread, the process's main
    /// thread, runs the main dispatch queue and so the main actor: a handler that does
    /// `await MainActor.run { … }` gets its turn there (docs/plugin-guide.md, "Where
    /// handlers run"). Called from another thread, `run()` serves on that thread.
    public func run() -> Never {
        if describeMode {
            let out: JSON = ["plugin": .string(pluginId), "intents": .array(declaredIntents), "metadata": metadata]
            FileHandle.standardOutput.write(Data((out.canonicalString + "\n").utf8))
            exit(0)
        }
        guard Thread.isMainThread else { exit(serve()) }
        let loop = Thread { [self] in exit(serve()) }
        loop.name = "intentbus-loop"
        loop.stackSize = 8 << 20  // the size the main thread had: handlers run deep on it
        loop.start()
        // Not dispatchMain(): on Linux it parks the main thread and drains the main queue
        // on a pool thread. The main run loop drains it on this thread, as on Apple's
        // platforms, so that main-actor code sees Thread.isMainThread.
        while true { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
    }

    /// The HELLO this plugin says to a host (docs/protocol.md §5.1).
    /// With `packed`, it asks for the packed form on the link (§5.1; one host only: the
    /// loop for several hosts sends six frames).
    func helloMessage(packed: Bool = false) -> WireMessage {
        var hello: [String: JSON] = [
            "protocol": .int(WireProtocol.version), "plugin": .string(pluginId), "token": .string(token),
            "pid": .int(Int64(getpid())), "intents": .array(declaredIntents), "metadata": metadata,
        ]
        if packed { hello["packed"] = .bool(true) }
        return WireMessage(kind: .hello, header: nil, body: .object(hello))
    }

    private func serve() -> Int32 {
        Self.dieWithParent()
        let context = ZMQContext()
        if backends.count > 1 {
            // A remote plugin serving several hosts (docs/scale-out.md): its own loop.
            do {
                return try SeveralBackends(runtime: self, backends: backends, keys: curve?.keys,
                                           context: context).run()
            } catch {
                logger.error("plugin stopped: \(error)")
                return 2
            }
        }
        do {
            let socket = try ZMQSocket(context, .dealer)
            try socket.setHighWaterMarks(send: 100_000, receive: 100_000)
            if let curve = curve { try socket.makeCurveClient(curve.keys, serverKey: curve.serverKey) }
            try socket.connect(backend)
            let mailbox = try Mailbox<OutgoingMessage>(context: context, name: "plugin-\(pluginId)")
            try socket.send(helloMessage(packed: asksPackedLink).frames)
            try socket.setReceiveTimeout(milliseconds: 10_000)
            guard let reply = try socket.receive() else {
                logger.error("no answer to HELLO from \(backend) within 10 s")
                return 2
            }
            try socket.setReceiveTimeout(milliseconds: -1)
            let answer = try WireMessage.decode(reply[...])
            if answer.kind == .reject {
                let body = (try? answer.bodyJSON()) ?? .null
                logger.error("host rejected the handshake: \(body["reason"]?.stringValue ?? body.canonicalString)")
                return 2
            }
            guard answer.kind == .welcome else {
                logger.error("expected WELCOME, got \(answer.kind.rawValue)")
                return 2
            }
            let packed = (try? answer.bodyJSON())?["packed"] == .bool(true)
            logger.debug("connected to \(backend)\(packed ? " (packed link)" : "")")
            return try loop(socket: socket, mailbox: mailbox, packed: packed)
        } catch {
            logger.error("plugin stopped: \(error)")
            return 2
        }
    }

    /// A plugin must not outlive the host that started it: ask the kernel for SIGTERM when
    /// the parent dies, and stop at once if that already happened.
    private static func dieWithParent() {
        #if os(Linux)
        _ = ib_set_parent_death_signal(SIGTERM)
        if let expected = ProcessInfo.processInfo.environment["INTENTBUS_HOST_PID"],
           let pid = Int32(expected), getppid() != pid {
            exit(0)
        }
        #endif
    }
}
