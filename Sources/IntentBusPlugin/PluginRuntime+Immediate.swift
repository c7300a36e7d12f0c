import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

extension PluginRuntime {
    /// Serves a REQUEST for an async handler (plain, legacy or new-style) when handlers run
    /// on the loop's thread: its task starts right here, in the turn that received the
    /// request (`Task.immediate`), and runs as a watched job (`LoopHandover`) until it
    /// finishes or first suspends. A handler that finishes without suspending (a
    /// `perform()` that asks nothing, a legacy `run` with nothing to ask) is answered in
    /// the request's own six frames, as a synchronous handler is: no `WireMessage`, no job
    /// queued on the executor, no outbox entry, and a REPLY that adds no header field gets
    /// the constant header frame. The parameters are parsed straight from the body frame.
    ///
    /// A handler that suspends (a prompt, a sleep, an actor call) goes on as before: it is
    /// a live request (`live`), its next jobs run on `SocketThreadExecutor`, and its final
    /// message goes through the outbox. When the loop was handed to another thread while
    /// the handler ran, the answer goes through the outbox (the mailbox, from this thread)
    /// and this thread stops using the socket.
    func serveImmediately(_ handler: @escaping PluginHandler, requestId: String, intent: String,
                          _ parts: LoopParts) throws -> Dispatched {
        let (state, socket, outbox, handover, executor) = (parts.state, parts.socket, parts.outbox, parts.handover, parts.executor)
        guard let (header, params, _) = try checkedRequest(state, socket, canonical: false) else { return .served }
        let request = PluginRequest(id: requestId, intent: intent, header: header, parameters: params,
                                    headerSerial: state.lastHeaderSerial)
        let context = PluginContext(request: request, outbox: outbox.poster, waitsInline: true)
        state.pendingTasks += 1
        let (pluginId, logger) = (self.pluginId, self.logger)
        let work: @Sendable () async -> Void = {
            let result: Result<PluginReply, any Error>
            do { result = .success(try await handler(request, context)) } catch { result = .failure(error) }
            if !context.keepInline(result) {
                outbox.post(Self.finalMessage(result, request: request, pluginId: pluginId, logger: logger))
            }
        }
        guard handover.beginJob() else {
            // Not the loop's thread any more (cannot happen between messages; kept safe).
            _ = context.closeInline()
            lock.withLock { live[requestId] = context }
            context.attach(Task(executorPreference: executor, operation: work))
            return .handedOver
        }
        // Not in `live` while it runs in this turn: no other message is read meanwhile,
        // unless the loop is handed over, and the next leader first moves it into `live`
        // (`adoptInlineRequest`), so that it gets the request's CANCEL and answers.
        lock.withLock { inlineRequest = InlineRequest(id: requestId, context: context) }
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            context.attach(Task.immediate(executorPreference: executor, operation: work))
        } else {
            context.attach(Task(executorPreference: executor, operation: work))  // answered through the outbox
        }
        let finished = context.closeInline()
        guard handover.endJob() else {
            settleInlineRequest(context, live: true)  // the next leader may hear of it
            if let finished { outbox.post(Self.finalMessage(finished, request: request, pluginId: pluginId, logger: logger)) }
            return .handedOver
        }
        // Suspended: live from now on, before anything it posted is sent.
        settleInlineRequest(context, live: finished == nil)
        // Progress it reported (or the prompt it sent before suspending) goes first.
        for out in outbox.takeLocal() { try send(out, on: socket, state: state) }
        guard let finished else { return .served }  // suspended: its task goes on
        state.pendingTasks -= 1
        switch finished {
        case .success(let reply) where reply.header.isEmpty:
            try answerInPlace(kind: state.replyKind, header: state.constantHeader(reply.status), body: reply.bodyBytes,
                              state: state, socket: socket)
        default:
            try answerFinalInPlace(finished, request: request, state: state, socket: socket)
        }
        return .served
    }

    /// The next leader's first step after a handover: the request whose handler held the
    /// loop becomes live here, before this thread reads the socket.
    func adoptInlineRequest() {
        lock.withLock {
            guard let running = inlineRequest else { return }
            live[running.id] = running.context
            inlineRequest = nil
        }
    }

    /// The handler that ran in the receiving turn returned to it (finished or suspended):
    /// unless a next leader adopted it, it is no longer the inline request, and becomes
    /// live when `live`.
    private func settleInlineRequest(_ context: PluginContext, live makeLive: Bool) {
        lock.withLock {
            guard let running = inlineRequest, running.context === context else { return }
            inlineRequest = nil
            if makeLive { live[running.id] = context }
        }
    }
}

/// The request whose async handler runs in the turn that received it (`serveImmediately`),
/// not yet in `live`. Guarded by the runtime's `lock`.
struct InlineRequest {
    let id: String
    let context: PluginContext
}
