import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire

/// The client boundary: what is checked before a client's message is acted on, and how a
/// message is refused without ending a request (docs/protocol.md §3, §4.8).
extension RouterCore {
    /// A REQUEST's final answer when the host can't take it: an ERROR under its id.
    func reject(_ envelope: RoutingEnvelope, _ msg: WireMessage, _ error: BusError) {
        // Every one at debug; at info, one line and then counts (RefusalSummary).
        logger.debug("request \(msg.requestId) for \(msg.intent): \(error)", [("request", msg.requestId)])
        clientRefusals.refused("\(error.code.rawValue)", detail: "request \(msg.requestId) for \(msg.intent): \(error)",
                               metadata: [("request", msg.requestId)], now: effects.now(), logger: logger)
        stats?.rejected(error, intent: msg.intent)
        effects.sendToClient(envelope, WireMessage(kind: .error, requestId: msg.requestId, intent: msg.intent,
                                           header: nil, body: error.json))
    }

    /// Refuses one message without ending anything: `REFUSED` is never final, so a request
    /// open under `requestId` goes on and still gets its one final answer.
    /// The header names the refused kind when it could be read.
    func refuse(_ envelope: RoutingEnvelope, kind: String?, requestId: String, intent: String, _ error: BusError) {
        logger.debug("refused \(kind ?? "a message") \(requestId.isEmpty ? "" : "for request \(requestId) ")from a client: \(error)")
        clientRefusals.refused("refused \(kind ?? "message"): \(error.code.rawValue)",
                               detail: "refused \(kind ?? "a message") \(requestId.isEmpty ? "" : "for request \(requestId) ")from a client: \(error)",
                               now: effects.now(), logger: logger)
        effects.sendToClient(envelope, WireMessage(kind: .refused, requestId: requestId, intent: intent,
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
            return effects.sendToClient(envelope, WireMessage(kind: .error, requestId: requestId, intent: "",
                                                      header: nil, body: error.busError.json))
        }
        refuse(envelope, kind: kind?.rawValue, requestId: requestId, intent: "", error.busError)
    }

    /// Why a REQUEST can't be taken before routing looks at it (size, id, header, the
    /// client's own limits), or nil. `state` is the client's entry.
    func requestProblem(_ envelope: RoutingEnvelope, _ msg: WireMessage, _ state: ClientState,
                        options: inout JSON) -> BusError? {
        let size = msg.header.count + msg.body.count
        if size > manifest.host.limits.maxMessageSize {
            return BusError(.tooLarge, "the request is \(size) bytes; this host takes at most \(manifest.host.limits.maxMessageSize) (host.limits.max_message_size)",
                            details: ["size": .int(Int64(size)), "limit": .int(Int64(manifest.host.limits.maxMessageSize))])
        }
        if msg.requestId.isEmpty {
            return BusError(.badFrame, "the request id (frame 2) must not be empty")
        }
        if draining || stopping {
            return BusError(.shuttingDown, "the host is shutting down; it takes no new requests")
        }
        if msg.header.count > 0 {
            do { options = try msg.headerJSON() } catch {
                return BusError(.badFrame, "the header (frame 4) is \(error.message)")
            }
            if let problem = RequestHeaderCheck.problem(options) { return BusError(.badFrame, problem) }
        }
        let waiting = effects.clientBacklog(envelope.identity)
        if waiting > 0 {
            return BusError(.busy, "this client is not reading its answers (\(waiting) are waiting for it); read them before sending more",
                            details: ["waiting": .int(Int64(waiting))])
        }
        let limits = manifest.host.limits
        let clientOpen = state.open.count + (relayLane?.openCount(client: envelope.identity) ?? 0)
        if clientOpen >= limits.maxOpenPerClient {
            return BusError(.busy, "this client has \(clientOpen) requests open, the most one client may (host.limits.max_open_per_client); try again when some have ended",
                            details: ["open": .int(Int64(clientOpen)), "limit": .int(Int64(limits.maxOpenPerClient))])
        }
        let hostOpen = exchanges.count + (relayLane?.count ?? 0)
        if hostOpen >= limits.maxOpenExchanges {
            return BusError(.busy, "the host has \(hostOpen) requests open, its limit (host.limits.max_open_exchanges); try again later",
                            details: ["limit": .int(Int64(limits.maxOpenExchanges))])
        }
        if state.openBytes + size > limits.maxInFlightBytesPerClient {
            return BusError(.busy, "this client's open requests hold \(state.openBytes) bytes; with this one's \(size) that passes the limit of \(limits.maxInFlightBytesPerClient) (host.limits.max_in_flight_bytes_per_client); try again when some have ended",
                            details: ["open_bytes": .int(Int64(state.openBytes)), "limit": .int(Int64(limits.maxInFlightBytesPerClient))])
        }
        if openBytes + size > limits.maxInFlightBytes {
            return BusError(.busy, "the host's open requests hold \(openBytes) bytes, its limit \(limits.maxInFlightBytes) (host.limits.max_in_flight_bytes); try again later",
                            details: ["limit": .int(Int64(limits.maxInFlightBytes))])
        }
        return nil
    }
}
