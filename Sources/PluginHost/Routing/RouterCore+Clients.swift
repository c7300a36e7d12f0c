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
        let isOpen = book.clients.existing(envelope.identity)?.open[requestId] != nil
        if kind == .request, !requestId.isEmpty, !isOpen {
            return effects.sendToClient(envelope, WireMessage(kind: .error, requestId: requestId, intent: "",
                                                      header: nil, body: error.busError.json))
        }
        refuse(envelope, kind: kind?.rawValue, requestId: requestId, intent: "", error.busError)
    }

    /// Why a REQUEST can't be taken before routing looks at it (size, id, header, the
    /// client's own limits), or nil. `state` is the client's entry. The rules are
    /// `Admission`'s, which the relay lane asks too (RouterCore+Lane.swift).
    func requestProblem(_ envelope: RoutingEnvelope, _ msg: WireMessage, _ state: ClientState,
                        options: inout JSON) -> BusError? {
        let lane = relayLane.map { lane in
            envelope.identity.withUnsafeBytes { lane.open(client: $0, hash: ByteHash.hash($0)) }
        } ?? (count: 0, bytes: 0)
        let facts = RequestFacts(size: msg.header.count + msg.body.count, hasId: !msg.requestId.isEmpty,
                                 shuttingDown: draining || stopping, clientBacklog: effects.clientBacklog(envelope.identity),
                                 clientOpen: state.open.count + lane.count, hostOpen: book.count + (relayLane?.count ?? 0),
                                 clientBytes: state.openBytes + lane.bytes, hostBytes: book.openBytes + (relayLane?.bytes ?? 0))
        return admission.problem(facts) {
            guard msg.header.count > 0 else { return nil }
            do throws(JSONParseError) { options = try msg.headerJSON() } catch {
                return BusError(.badFrame, "the header (frame 4) is \(error.message)")
            }
            return RequestHeaderCheck.problem(options).map { BusError(.badFrame, $0) }
        }
    }

    /// The admission rules under the limits in force (a reload may change them).
    var admission: Admission { Admission(limits: manifest.host.limits) }
}
