import Foundation
import IntentBus

/// The client boundary: what is checked before a client's message is acted on, how a
/// message is refused without ending a request, and how answers reach a client that
/// is slow to read (docs/protocol.md §3, docs/reliability.md).
///
/// Runs on the router thread.
extension IntentRouter {
    /// A REQUEST's final answer when the host can't take it: an ERROR under its id.
    func reject(_ envelope: RoutingEnvelope, _ msg: WireMessage, _ error: BusError) {
        logger.info("request \(msg.requestId) for \(msg.intent): \(error)")
        sendToClient(envelope, WireMessage(kind: .error, requestId: msg.requestId, intent: msg.intent,
                                           header: nil, body: error.json))
    }

    /// Refuses one message without ending anything: `REFUSED` is never final, so a request
    /// open under `requestId` goes on and still gets its one final answer.
    /// The header names the refused kind when it could be read.
    func refuse(_ envelope: RoutingEnvelope, kind: String?, requestId: String, intent: String, _ error: BusError) {
        logger.info("refused \(kind ?? "a message") \(requestId.isEmpty ? "" : "for request \(requestId) ")from a client: \(error)")
        sendToClient(envelope, WireMessage(kind: .refused, requestId: requestId, intent: intent,
                                           header: kind.map { ["refused": .string($0)] }, body: error.json))
    }

    /// A client message that could not be decoded. A REQUEST under an id that is not open
    /// gets its final ERROR (the request ends before it began); anything else, including
    /// a REQUEST reusing an open id, is refused.
    func undecodable(_ envelope: RoutingEnvelope, _ rest: ArraySlice<Frame>, _ error: WireError) {
        logger.warning("malformed message from a client: \(error.message)")
        let frames = Array(rest.prefix(4))
        let kind = frames.count > 1 ? MessageKind(frame: frames[1]) : nil
        // An id the protocol forbids (too long, not UTF-8) is never echoed.
        var requestId = ""
        if frames.count > 2, frames[2].count <= WireProtocol.maxNameLength, let id = frames[2].validUTF8 { requestId = id }
        let isOpen = clients.existing(envelope.identity)?.open[requestId] != nil
        if kind == .request, !requestId.isEmpty, !isOpen {
            return sendToClient(envelope, WireMessage(kind: .error, requestId: requestId, intent: "",
                                                      header: nil, body: error.busError.json))
        }
        refuse(envelope, kind: kind?.rawValue, requestId: requestId, intent: "", error.busError)
    }

    /// Why a REQUEST can't be taken before routing looks at it (size, id, header, the
    /// client's own limits), or nil. `state` is the client's entry.
    func requestProblem(_ msg: WireMessage, _ state: ClientState, options: inout JSON) -> BusError? {
        let size = msg.header.count + msg.body.count
        if size > manifest.host.limits.maxMessageSize {
            return BusError(.tooLarge, "the request is \(size) bytes; this host takes at most \(manifest.host.limits.maxMessageSize) (host.limits.max_message_size)",
                            details: ["size": .int(Int64(size)), "limit": .int(Int64(manifest.host.limits.maxMessageSize))])
        }
        if msg.requestId.isEmpty {
            return BusError(.badFrame, "the request id (frame 2) must not be empty")
        }
        if msg.header.count > 0 {
            do { options = try msg.headerJSON() } catch {
                return BusError(.badFrame, "the header (frame 4) is \(error.message)")
            }
            if let problem = RequestHeaderCheck.problem(options) { return BusError(.badFrame, problem) }
        }
        if state.isCongested {
            return BusError(.busy, "this client is not reading its answers (\(state.backlogCount) are waiting for it); read them before sending more",
                            details: ["waiting": .int(Int64(state.backlogCount))])
        }
        let limits = manifest.host.limits
        if state.open.count >= limits.maxOpenPerClient {
            return BusError(.busy, "this client has \(state.open.count) requests open, the most one client may (host.limits.max_open_per_client); try again when some have ended",
                            details: ["open": .int(Int64(state.open.count)), "limit": .int(Int64(limits.maxOpenPerClient))])
        }
        if exchanges.count >= limits.maxOpenExchanges {
            return BusError(.busy, "the host has \(exchanges.count) requests open, its limit (host.limits.max_open_exchanges); try again later",
                            details: ["limit": .int(Int64(limits.maxOpenExchanges))])
        }
        return nil
    }

    // MARK: - Sending to clients

    /// Sends to a client. A client whose pipe is full (it is not reading) gets its
    /// messages kept, in order, up to `limits.client_backlog`, and sent once it reads;
    /// PROGRESS, which is never needed, is dropped for it instead.
    func sendToClient(_ envelope: RoutingEnvelope, _ msg: WireMessage) {
        let frames = msg.frames(after: envelope.isRequestReply ? [Frame()] : [])
        if !clients.congested.isEmpty, let state = clients.existing(envelope.identity), state.isCongested {
            return keep(frames, for: state, kind: msg.kind)
        }
        do {
            if try frontend.send(to: envelope.identity, frames, dontWait: true) { return }
            keep(frames, for: clients.state(for: envelope.identity), kind: msg.kind)
        } catch let error where error.isHostUnreachable {
            logger.info("the client has gone away; its \(msg.kind.rawValue) was dropped")
        } catch {
            logger.warning("send to a client failed: \(error)")
        }
    }

    private func keep(_ frames: [Frame], for state: ClientState, kind: MessageKind) {
        let limits = manifest.host.limits
        if kind != .progress, state.enqueue(frames, limit: limits.clientBacklog, byteLimit: limits.clientBacklogBytes) {
            if state.backlogCount == 1 {
                logger.warning("a client is not reading: its answers are kept for it (at most \(limits.clientBacklog)) and its new requests get busy")
                clients.markCongested(state)
                scheduleClientFlush(after: Self.firstFlushDelay)
            }
            return
        }
        if kind == .progress { return }
        let now = MonotonicClock.now()
        if now - state.lastDropReport > 1_000_000_000 {
            logger.error("a client that is not reading has \(state.backlogCount) answers waiting, its limit: \(state.dropped) more were dropped (\(state.droppedTotal) in all)")
            state.dropped = 0
            state.lastDropReport = now
        }
    }

    static let firstFlushDelay: UInt64 = 1_000_000
    static let longestFlushDelay: UInt64 = 50_000_000

    func scheduleClientFlush(after delay: UInt64) {
        guard !clientFlushScheduled else { return }
        clientFlushScheduled = true
        timers.schedule(at: MonotonicClock.now() + delay, .flushClients(delay: delay))
    }

    /// Sends what waits for congested clients, in order, until a pipe is full again.
    /// Retried on a timer that backs off while nobody reads (1 ms up to 50 ms).
    func flushClients(previousDelay: UInt64) {
        clientFlushScheduled = false
        var progressed = false
        for state in Array(clients.congested.values) {
            while let frames = state.nextWaiting {
                do {
                    guard try frontend.send(to: state.identity, frames, dontWait: true) else { break }
                    state.dropFirstWaiting()
                    progressed = true
                } catch {
                    logger.info("a client with \(state.backlogCount) waiting answers has gone away; they were dropped")
                    state.clearBacklog()
                }
            }
            if !state.isCongested {
                clients.markDrained(state)
                if state.droppedTotal > 0 {
                    logger.warning("a client read again after \(state.droppedTotal) of its answers were dropped")
                    state.droppedTotal = 0
                }
            }
        }
        guard !clients.congested.isEmpty else { return }
        scheduleClientFlush(after: progressed ? Self.firstFlushDelay : min(previousDelay * 2, Self.longestFlushDelay))
    }
}
