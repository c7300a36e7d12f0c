import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

extension PluginRuntime {
    /// Serves the host until DISCONNECT. Each turn: run the handler tasks that are ready,
    /// send what they answered, then wait. With no async request in flight the loop waits
    /// on the socket alone, in a blocking receive, as a bare worker would; otherwise it
    /// polls the socket and the mailbox.
    ///
    /// The loop runs on one thread at a time: this one, until a handler holds it too long
    /// and `LoopHandover` gives the loop to another thread; this one then parks until a
    /// later handover needs it. Whichever thread sees DISCONNECT ends the process.
    /// `packed`: the host's WELCOME agreed to the packed form (PackedLink.swift).
    func loop(socket: ZMQSocket, mailbox: Mailbox<OutgoingMessage>, packed: Bool = false) throws -> Int32 {
        let handover = LoopHandover(watches: handlerThreads == .socketThread)
        let executor = SocketThreadExecutor(handover: handover, wake: { mailbox.wake() })
        let parts = LoopParts(socket: socket, mailbox: mailbox, executor: executor, handover: handover,
                              outbox: PluginOutbox(mailbox: mailbox, handover: handover),
                              state: PluginLoopState(rawHandlers: rawHandlers,
                                                     // On the global executor every handler is a task (`handle`).
                                                     syncHandlers: handlerThreads == .globalExecutor ? [:] : syncHandlers,
                                                     asyncHandlers: handlerThreads == .globalExecutor ? [:] : asyncHandlers.mapValues(\.1),
                                                     pluginId: pluginId))
        parts.state.packedLink = packed
        handover.start { [self] in
            do {
                while true {
                    handover.awaitLead()
                    if let code = try turns(parts) { exit(code) }
                }
            } catch {
                logger.error("plugin stopped: \(error)")
                exit(2)
            }
        }
        while true {
            if let code = try turns(parts) { return code }
            handover.awaitLead()
        }
    }

    /// The loop's turns on this thread: an exit code when the plugin should stop, nil when
    /// the loop was handed to another thread.
    private func turns(_ parts: LoopParts) throws -> Int32? {
        let (socket, mailbox, executor, outbox, state) = (parts.socket, parts.mailbox, parts.executor, parts.outbox, parts.state)
        var poller = Poller([socket, mailbox.receiver])
        adoptInlineRequest()  // taking the lead from a thread held in a handler
        while true {
            guard executor.runPending() else { return nil }
            for out in outbox.takeLocal() { try send(out, on: socket, state: state) }
            if state.pendingTasks == 0 && !executor.hasPending {
                try sendHeld(state, socket)
                guard try state.receive(from: socket) else { continue }
                repeat {
                    if let end = try dispatchEnds(parts) { return end.exitCode }
                } while try state.receive(from: socket, dontWait: true)
                continue
            }
            try sendHeld(state, socket)
            try poller.wait(timeoutMs: -1)
            if poller.isReady(1) {
                for out in mailbox.drain() { try send(out, on: socket, state: state) }
            }
            if poller.isReady(0) {
                // Drain everything waiting, so a burst costs one poll.
                while try state.receive(from: socket, dontWait: true) {
                    if let end = try dispatchEnds(parts) { return end.exitCode }
                }
            }
        }
    }

    /// Dispatches the message in `state.frames`; non-nil when the loop ends on this thread.
    /// Before an exit what was held is sent; after a handover the loop's state is the next
    /// leader's, which sends it before it reads or waits.
    private func dispatchEnds(_ parts: LoopParts) throws -> LoopEnd? {
        switch try dispatch(parts) {
        case .served: return nil
        case .stop(let exitCode):
            try sendHeld(parts.state, parts.socket)
            return LoopEnd(exitCode: exitCode)
        case .handedOver: return LoopEnd(exitCode: nil)
        }
    }

    /// Sends a handler's message; a final one ends its request.
    func send(_ out: OutgoingMessage, on socket: ZMQSocket, state: PluginLoopState) throws {
        try sendHeld(state, socket)
        try state.send([Frame(WireProtocol.signature), Frame(out.kind.rawValue), Frame(out.requestId), Frame(out.intent),
                        out.header.map { Frame(json: $0) } ?? Frame(), out.body.map { Frame(json: $0) } ?? Frame()], on: socket)
        if out.kind.isFinal {
            _ = lock.withLock { live.removeValue(forKey: out.requestId) }
            state.pendingTasks -= 1
        }
    }

    /// How the loop's turns on this thread end: an exit code, or nil when handed over.
    private struct LoopEnd { let exitCode: Int32? }

    /// Handles the message in `state.frames`. A REQUEST for a raw or a synchronous handler
    /// is answered right here, in the request's own frames (measured: docs/performance.md),
    /// and one for an async handler starts its task here (`serveImmediately`); anything
    /// else goes through `handle`.
    private func dispatch(_ parts: LoopParts) throws -> Dispatched {
        let state = parts.state
        let isRequest = state.frames.count == WireProtocol.frameCount && state.frames[0].equals("IB1")
            && state.frames[1].equals("REQUEST") && state.frames[2].count <= WireProtocol.maxNameLength
        // A raw handler first: it wins over any other for its intent, as HELLO says.
        if isRequest, let route = state.rawRoutes.route(for: state.frames[3]), let requestId = state.frames[2].validUTF8 {
            let body = route.handler(requestId, route.intent, state.frames[4], state.frames[5])
            // Signature, request id and intent go back as they came; kind and header are
            // the constant frames, copied in place.
            state.frames[1].setContent(copyOf: state.replyKind)
            if isKnownUniquelyReferenced(&state.frames[4]) {
                state.frames[4].setContent(copyOf: state.successHeader)
            } else {
                state.frames[4] = state.successHeader.copy()  // the handler kept the header frame
            }
            state.frames[5] = body
            try sendInPlace(state, parts.socket)
            return .served
        }
        if isRequest, !state.syncRoutes.isEmpty, let route = state.syncRoutes.route(for: state.frames[3]),
           let requestId = state.frames[2].validUTF8 {
            return try serveSynchronously(route.handler, requestId: requestId, intent: route.intent, parts)
        }
        if isRequest, !state.asyncRoutes.isEmpty, let route = state.asyncRoutes.route(for: state.frames[3]),
           let requestId = state.frames[2].validUTF8 {
            return try serveImmediately(route.handler.run, requestId: requestId, intent: route.intent, parts)
        }
        try sendHeld(state, parts.socket)  // what `handle` sends goes after them
        return try handle(state.frames[...], socket: parts.socket, outbox: parts.outbox, executor: parts.executor,
                          state: state).map { .stop($0) } ?? .served
    }

    /// Handles one message from the host; returns an exit code when the plugin should stop.
    private func handle(_ frames: ArraySlice<Frame>, socket: ZMQSocket, outbox: PluginOutbox,
                        executor: SocketThreadExecutor, state: PluginLoopState) throws -> Int32? {
        let msg: WireMessage
        do { msg = try WireMessage.decode(frames) } catch {
            logger.error("malformed message from host: \(error)")
            return nil
        }
        switch msg.kind {
        case .request:
            if let raw = rawHandlers[msg.intent] {
                // A raw intent whose request id is not valid UTF-8 would not reach here; kept
                // for completeness: the same answer as the fast path.
                let body = raw(msg.requestId, msg.intent, msg.header, msg.body)
                msg.kind = .reply
                msg.header = state.successHeader.copy()
                msg.body = body
                try socket.send(msg.frames)
                return nil
            }
            let synchronous = syncHandlers[msg.intent].map { sync -> PluginHandler in { try sync($0, $1) } }
            guard let handler = asyncHandlers[msg.intent]?.1.run ?? synchronous else {
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
            let ctx = PluginContext(request: request, outbox: outbox.poster)
            lock.withLock { live[msg.requestId] = ctx }
            state.pendingTasks += 1
            let work = Self.task(handler, request: request, context: ctx, pluginId: pluginId, logger: logger, outbox: outbox)
            let task = handlerThreads == .globalExecutor ? Task(operation: work) : Task(executorPreference: executor, operation: work)
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
            try state.send(WireMessage(kind: .heartbeat, header: nil, body: nil).frames, on: socket)
        case .welcome:
            break
        default:
            logger.warning("unexpected \(msg.kind.rawValue) from host")
        }
        return nil
    }

    /// One request's task: runs the handler and posts exactly one final message.
    private static func task(_ handler: @escaping PluginHandler, request: PluginRequest, context: PluginContext,
                             pluginId: String, logger: Logger, outbox: PluginOutbox) -> @Sendable () async -> Void {
        return {
            let result: Result<PluginReply, any Error>
            do { result = .success(try await handler(request, context)) } catch { result = .failure(error) }
            outbox.post(finalMessage(result, request: request, pluginId: pluginId, logger: logger))
        }
    }

    /// The one final message for what a handler returned or threw: a REPLY, or an ERROR
    /// with the error's code (a `BusError`'s own, `cancelled`, or `plugin_error`).
    static func finalMessage(_ result: Result<PluginReply, any Error>, request: PluginRequest,
                             pluginId: String, logger: Logger) -> OutgoingMessage {
        let error: BusError
        switch result {
        case .success(let reply):
            return OutgoingMessage(kind: .reply, requestId: request.id, intent: request.intent,
                                   header: PluginReply.header(status: reply.status, pluginId: pluginId, extra: reply.header),
                                   body: reply.body)
        case .failure(let bus as BusError):
            error = bus
        case .failure(let cancelled as RequestCancelled):
            logger.debug("request \(request.id) ended: \(cancelled)")
            error = BusError(.cancelled, cancelled.description)
        case .failure(is CancellationError):
            logger.debug("request \(request.id) was cancelled; its handler stopped")
            error = BusError(.cancelled, "the handler was cancelled")
        case .failure(let other):
            error = BusError(.pluginError, "\(other)")
        }
        return OutgoingMessage(kind: .error, requestId: request.id, intent: request.intent, header: nil, body: error.json)
    }
}

/// What the loop works with, whichever thread runs it.
struct LoopParts: @unchecked Sendable {
    // @unchecked: the sockets and `state` are only used by the thread that runs the loop,
    // one thread at a time (`LoopHandover`); the rest is thread-safe.
    let socket: ZMQSocket
    let mailbox: Mailbox<OutgoingMessage>
    let executor: SocketThreadExecutor
    let handover: LoopHandover
    let outbox: PluginOutbox
    let state: PluginLoopState
}

/// What handling one message came to.
enum Dispatched {
    /// Handled (or dropped); the loop goes on.
    case served
    /// The plugin should exit with this code (DISCONNECT).
    case stop(Int32)
    /// A synchronous handler held the loop so long that it went to another thread; this
    /// thread stops using the socket.
    case handedOver
}

/// A REQUEST whose parameters are JSON but not an object.
struct ParametersNotObject: Error, CustomStringConvertible {
    let found: String
    var description: String { "got \(found)" }
}
