import Foundation
internal import CLinuxSupport

/// An async handler: runs in its own task, may prompt and report progress.
public typealias PluginHandler = @Sendable (PluginRequest, PluginContext) async throws -> PluginReply

/// A synchronous handler that sees raw frames. It runs on the plugin's socket thread, so
/// it must be quick; it exists for echo-like plugins and benchmarks where a task hop
/// would dominate. Return the body frame to send back (the request's own frame may be
/// returned as is: it is moved, not copied).
public typealias RawPluginHandler = (_ requestId: String, _ intent: String, _ header: Frame, _ body: Frame) -> Frame

/// A REQUEST whose parameters are JSON but not an object.
private struct ParametersNotObject: Error, CustomStringConvertible {
    let found: String
    var description: String { "got \(found)" }
}

/// Why a plugin could not start talking to its host.
public struct PluginStartError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// The plugin side of the bus: connects to the host named in the environment, performs
/// the HELLO handshake, and dispatches requests to the registered handlers.
///
/// Register handlers, then call `run()`. Threading: `run()` owns the socket on the
/// calling thread; async handlers run as tasks and hand their messages back through a
/// `Mailbox`. Registration is not thread-safe and must finish before `run()`.
public final class PluginRuntime: @unchecked Sendable {
    // @unchecked: handler tables are written before run() and only read after; live
    // request contexts are guarded by `lock`.
    public let pluginId: String
    private let backend: String
    private let token: String
    private var asyncHandlers: [String: (HandlerStyle, PluginHandler)] = [:]
    private var rawHandlers: [String: RawPluginHandler] = [:]
    private let lock = Lock()
    private var live: [String: PluginContext] = [:]
    /// The REPLY header of raw handlers, which never changes.
    private let rawReplyHeader: String
    /// New-style declarations sent in HELLO (see the plugin guide).
    public var metadata: JSON = .object([:])
    public var logger: Logger

    /// Reads `INTENTBUS_BACKEND`, `INTENTBUS_PLUGIN_ID` and `INTENTBUS_TOKEN`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(PluginStartError) {
        guard let backend = environment["INTENTBUS_BACKEND"], !backend.isEmpty,
              let id = environment["INTENTBUS_PLUGIN_ID"], !id.isEmpty else {
            throw PluginStartError(message: "INTENTBUS_BACKEND and INTENTBUS_PLUGIN_ID are not set: plugins are started by `intentbus host`, which sets them (see docs/plugin-guide.md)")
        }
        self.backend = backend
        self.pluginId = id
        self.rawReplyHeader = "{\"plugin\":\"\(id)\",\"status\":\"success\"}"
        self.token = environment["INTENTBUS_TOKEN"] ?? ""
        self.logger = Logger(label: id, minimumLevel: Logger.levelFromEnvironment)
    }

    /// Handles `intent` with an async handler.
    public func on(_ intent: String, style: HandlerStyle = .plain, _ handler: @escaping PluginHandler) {
        asyncHandlers[intent] = (style, handler)
    }

    /// Handles `intent` synchronously on the socket thread, with raw frames.
    public func onRaw(_ intent: String, _ handler: @escaping RawPluginHandler) {
        rawHandlers[intent] = handler
    }

    /// The intents and styles announced in HELLO.
    var declaredIntents: [JSON] {
        var out: [JSON] = rawHandlers.keys.sorted().map { ["name": .string($0), "style": "plain"] }
        for name in asyncHandlers.keys.sorted() where rawHandlers[name] == nil {
            out.append(["name": .string(name), "style": .string(asyncHandlers[name]!.0.rawValue)])
        }
        return out
    }

    /// Connects, says HELLO and serves requests until the host disconnects. Exits the
    /// process: 0 on DISCONNECT, 2 when the host rejects the handshake or can't be reached.
    public func run() -> Never {
        let code = serve()
        exit(code)
    }

    private func serve() -> Int32 {
        Self.dieWithParent()
        let context = ZMQContext()
        do {
            let socket = try ZMQSocket(context, .dealer)
            try socket.setHighWaterMarks(send: 100_000, receive: 100_000)
            try socket.connect(backend)
            let mailbox = try Mailbox<OutgoingMessage>(context: context, name: "plugin-\(pluginId)")
            let hello: JSON = [
                "protocol": .int(WireProtocol.version), "plugin": .string(pluginId), "token": .string(token),
                "pid": .int(Int64(getpid())), "intents": .array(declaredIntents), "metadata": metadata,
            ]
            try socket.send(WireMessage(kind: .hello, header: nil, body: hello).frames)
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
            logger.debug("connected to \(backend)")
            return try loop(socket: socket, mailbox: mailbox)
        } catch {
            logger.error("plugin stopped: \(error)")
            return 2
        }
    }

    private func loop(socket: ZMQSocket, mailbox: Mailbox<OutgoingMessage>) throws -> Int32 {
        var poller = Poller([socket, mailbox.receiver])
        let outbox: @Sendable (OutgoingMessage) -> Void = { mailbox.post($0) }
        while true {
            let ready = try poller.poll(timeoutMs: -1)
            if ready[1] {
                for out in mailbox.drain() {
                    let msg = WireMessage(kind: out.kind, requestId: out.requestId, intent: out.intent,
                                          header: out.header, body: out.body)
                    try socket.send(msg.frames)
                    if out.kind.isFinal { _ = lock.withLock { live.removeValue(forKey: out.requestId) } }
                }
            }
            if ready[0] {
                // Drain everything waiting, so a burst costs one poll.
                while let frames = try socket.receive(dontWait: true) {
                    if let exitCode = try handle(frames, socket: socket, outbox: outbox) { return exitCode }
                }
            }
        }
    }

    /// Handles one message from the host; returns an exit code when the plugin should stop.
    private func handle(_ frames: [Frame], socket: ZMQSocket, outbox: @escaping @Sendable (OutgoingMessage) -> Void) throws -> Int32? {
        let msg: WireMessage
        do { msg = try WireMessage.decode(frames[...]) } catch {
            logger.error("malformed message from host: \(error)")
            return nil
        }
        switch msg.kind {
        case .request:
            if let raw = rawHandlers[msg.intent] {
                let body = raw(msg.requestId, msg.intent, msg.header, msg.body)
                // The request itself becomes the reply: its signature and intent frames move
                // back, and the header text is built once (measured: docs/performance.md).
                msg.kind = .reply
                msg.header = Frame(rawReplyHeader)
                msg.body = body
                try socket.send(msg.frames)
                return nil
            }
            guard let (_, handler) = asyncHandlers[msg.intent] else {
                let err = BusError(.pluginError, "plugin \(pluginId) has no handler for \(msg.intent)")
                try socket.send(WireMessage(kind: .error, requestId: msg.requestId, intent: msg.intent,
                                            header: nil, body: err.json).frames)
                return nil
            }
            // The host's plain path forwards bodies unread: the parameters are checked here,
            // before any handler sees them (docs/protocol.md §5.2).
            let header: JSON, params: JSON
            do {
                header = try msg.headerJSON()
                params = try msg.bodyJSON()
                guard case .object = params else { throw ParametersNotObject(found: params.typeName) }
            } catch {
                let err = BusError(.invalidParameters, "the parameters body must be a JSON object: \(error)")
                try socket.send(WireMessage(kind: .error, requestId: msg.requestId, intent: msg.intent,
                                            header: nil, body: err.json).frames)
                return nil
            }
            let request = PluginRequest(id: msg.requestId, intent: msg.intent, header: header, parameters: params)
            let ctx = PluginContext(request: request, outbox: outbox)
            lock.withLock { live[msg.requestId] = ctx }
            let pluginId = self.pluginId
            let logger = self.logger
            let task = Task {
                let out: OutgoingMessage
                do {
                    let reply = try await handler(request, ctx)
                    var h = reply.header
                    h["status"] = .string(reply.status.rawValue)
                    h["plugin"] = .string(pluginId)
                    out = OutgoingMessage(kind: .reply, requestId: request.id, intent: request.intent,
                                          header: .object(h), body: reply.body)
                } catch let error as BusError {
                    out = OutgoingMessage(kind: .error, requestId: request.id, intent: request.intent,
                                          header: nil, body: error.json)
                } catch let error as RequestCancelled {
                    logger.debug("request \(request.id) ended: \(error)")
                    out = OutgoingMessage(kind: .error, requestId: request.id, intent: request.intent,
                                          header: nil, body: BusError(.cancelled, error.description).json)
                } catch is CancellationError {
                    logger.debug("request \(request.id) was cancelled; its handler stopped")
                    out = OutgoingMessage(kind: .error, requestId: request.id, intent: request.intent,
                                          header: nil, body: BusError(.cancelled, "the handler was cancelled").json)
                } catch {
                    out = OutgoingMessage(kind: .error, requestId: request.id, intent: request.intent,
                                          header: nil, body: BusError(.pluginError, "\(error)").json)
                }
                outbox(out)
            }
            ctx.attach(task)
        case .answer:
            let ctx = lock.withLock { live[msg.requestId] }
            ctx?.deliverAnswer((try? msg.bodyJSON()) ?? .object([:]))
        case .cancel:
            let ctx = lock.withLock { live.removeValue(forKey: msg.requestId) }
            let reason = ((try? msg.bodyJSON())?["reason"]?.stringValue) ?? "cancelled"
            ctx?.cancel(reason: reason)
        case .disconnect:
            logger.debug("host said DISCONNECT")
            return 0
        case .heartbeat:
            // Answered here, on the socket thread, never by handler code: a plugin whose
            // handlers are all busy is still alive (docs/lifecycle.md).
            try socket.send(WireMessage(kind: .heartbeat, header: nil, body: nil).frames)
        case .welcome:
            break
        default:
            logger.warning("unexpected \(msg.kind.rawValue) from host")
        }
        return nil
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
