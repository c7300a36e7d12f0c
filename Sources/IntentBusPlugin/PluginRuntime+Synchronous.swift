import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

extension PluginRuntime {
    /// Serves a REQUEST for a synchronous handler in the turn that received it, in its own
    /// frames: the parameters are parsed straight from the body frame, the handler runs
    /// as a watched job (`LoopHandover`), and its answer goes out in the same six frames,
    /// the kind and (for a reply that adds no header field) the header copied in from the
    /// constant frames. No task, no outbox, no `WireMessage`.
    ///
    /// Progress the handler reported is sent before its answer. When the loop was handed
    /// to another thread while the handler ran, the answer goes through the outbox (the
    /// mailbox, from this thread) and this thread stops using the socket.
    func serveSynchronously(_ handler: PluginSyncHandler, requestId: String, intent: String,
                            _ parts: LoopParts) throws -> Dispatched {
        let (state, socket, outbox, handover) = (parts.state, parts.socket, parts.outbox, parts.handover)
        guard let (header, params, paramsCanonical) = try checkedRequest(state, socket, canonical: true) else { return .served }
        let request = PluginRequest(id: requestId, intent: intent, header: header, parameters: params,
                                    headerSerial: state.lastHeaderSerial)
        let context = PluginContext(request: request, outbox: outbox.poster)
        guard handover.beginJob() else {
            // Not the loop's thread any more (cannot happen between messages; kept safe).
            outbox.post(Self.finalMessage(.failure(BusError(.pluginError, "the plugin's loop moved before the handler ran")),
                                          request: request, pluginId: pluginId, logger: logger))
            return .handedOver
        }
        // Counted as a pending task while it runs: should the loop move to another thread
        // meanwhile, that thread then watches the mailbox, through which the answer comes,
        // and its `send` of the final message counts it off.
        state.pendingTasks += 1
        let result: Result<PluginReply, any Error>
        do { result = .success(try handler(request, context)) } catch { result = .failure(error) }
        guard handover.endJob() else {
            outbox.post(Self.finalMessage(result, request: request, pluginId: pluginId, logger: logger))
            return .handedOver
        }
        state.pendingTasks -= 1
        for out in outbox.takeLocal() { try send(out, on: socket, state: state) }
        switch result {
        case .success(let reply) where reply.header.isEmpty:
            // The parameters handed back (an echo, or a handler that passes them on):
            // the body frame already holds their canonical text, so it goes back as is.
            // (`Optional.none`, not `nil`: JSON is ExpressibleByNilLiteral, `nil` would be null.)
            let unchanged = reply.canonicalBody == nil && paramsCanonical && reply.body.writesSameBytes(as: params)
            try answerInPlace(kind: state.replyKind, header: state.constantHeader(reply.status),
                              body: unchanged ? nil : reply.bodyBytes, state: state, socket: socket)
        default:
            try answerFinalInPlace(result, request: request, state: state, socket: socket)
        }
        return .served
    }

    /// A handler's result that is not a plain reply with no header of its own (an error, a
    /// reply with header fields) as its final message, in the request's frames.
    func answerFinalInPlace(_ result: Result<PluginReply, any Error>, request: PluginRequest,
                            state: PluginLoopState, socket: ZMQSocket) throws {
        let out = Self.finalMessage(result, request: request, pluginId: pluginId, logger: logger)
        try answerInPlace(kind: out.kind == .reply ? state.replyKind : state.errorKind,
                          header: out.header.map { Frame(json: $0) }, body: (out.body ?? .object([:])).canonicalBytes,
                          state: state, socket: socket)
    }

    /// Sends an answer in the request's frames, which are reused: signature, request id
    /// and intent go back as they came; kind and header are copied from constant frames
    /// (`header` nil: empty); the body is written in place (`body` nil: the request's body
    /// frame is sent back as it is).
    /// The REQUEST's header and parameters, parsed from its frames; nil when they are not
    /// JSON or the parameters not an object, which has then been answered in place with
    /// `invalid_parameters`. The host's plain path forwards bodies unread: the check is
    /// here, before any handler sees them (docs/protocol.md §5.2).
    /// With `canonical`, also whether the body is the parameters' canonical text
    /// (`Frame.parseJSON(isCanonical:)`, a little dearer).
    func checkedRequest(_ state: PluginLoopState, _ socket: ZMQSocket,
                        canonical wanted: Bool) throws -> (header: JSON, params: JSON, canonical: Bool)? {
        do {
            let header = try state.requestHeader(state.frames[4])
            var canonical = false
            let params = wanted ? try state.frames[5].parseJSON(isCanonical: &canonical) : try state.frames[5].parseJSON()
            guard case .object = params else { throw ParametersNotObject(found: params.typeName) }
            return (header, params, canonical)
        } catch {
            let err = BusError(.invalidParameters, "the parameters body must be a JSON object: \(error)")
            try answerInPlace(kind: state.errorKind, header: nil, body: err.json.canonicalBytes, state: state, socket: socket)
            return nil
        }
    }

    func answerInPlace(kind: Frame, header: Frame?, body: [UInt8]?, state: PluginLoopState, socket: ZMQSocket) throws {
        state.frames[1].setContent(copyOf: kind)
        if let header {
            state.frames[4].setContent(copyOf: header)
        } else {
            state.frames[4].setContent(bytes: EmptyCollection<UInt8>())
        }
        if let body { state.frames[5].setContent(bytes: body) }
        try sendInPlace(state, socket)
    }

    /// Sends the answer written in `state.frames` with the read batch's other answers
    /// (`PluginLoopState.heldFrames`); `state.frames` gets a set already sent.
    func sendInPlace(_ state: PluginLoopState, _ socket: ZMQSocket) throws {
        swap(&state.frames, &state.heldFrames[state.held])
        state.held += 1
        if state.held == PluginLoopState.heldLimit { try sendHeld(state, socket) }
    }

    /// Sends the answers held so far, in the order they were written.
    func sendHeld(_ state: PluginLoopState, _ socket: ZMQSocket) throws {
        guard state.held > 0 else { return }
        let count = state.held
        state.held = 0
        for index in 0..<count { try state.send(state.heldFrames[index], on: socket) }
    }
}
