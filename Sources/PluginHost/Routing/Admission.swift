import Foundation
import IntentBusCore
import IntentBusZMQ
import IntentBusWire
import IntentBusManifest

/// What a REQUEST is admitted on before routing, counted by whichever path holds it: the
/// core's general path (RouterCore+Requests.swift `requestProblem`) and the relay lane's
/// (Relay/RelayLane+Dispatch.swift) fill these in from their own tables and ask the same
/// `Admission`, so that both obey every rule.
struct RequestFacts {
    /// Header and body bytes.
    var size: Int
    var hasId: Bool
    /// The host is draining or stopping.
    var shuttingDown: Bool
    /// Messages the shell keeps for this client because it is not reading.
    var clientBacklog: Int
    /// The client's open requests, in the core's table and the lane.
    var clientOpen: Int
    /// The host's open requests, in the core's table and the lane.
    var hostOpen: Int
    /// The header and body bytes of the client's open requests.
    var clientBytes: Int
    /// The header and body bytes of all open requests.
    var hostBytes: Int
}

/// The admission rules, as a value: the host's limits and the request's facts in, the
/// final error out (nil: admitted). One place: a new rule written here holds on both paths
/// (AdmissionTests sends the same request down both).
struct Admission {
    let limits: HostLimits

    /// Why a request can't be taken, checking in this order: size, id, shutdown, then the
    /// header (`header`: the core's path reads it; the lane takes only an empty or
    /// `timeout_ms`-only header, which passes), then the client's and the host's limits.
    func problem(_ f: RequestFacts, header: () -> BusError? = { nil }) -> BusError? {
        if f.size > limits.maxMessageSize {
            return BusError(.tooLarge, "the request is \(f.size) bytes; this host takes at most \(limits.maxMessageSize) (host.limits.max_message_size)",
                            details: ["size": .int(Int64(f.size)), "limit": .int(Int64(limits.maxMessageSize))])
        }
        if !f.hasId {
            return BusError(.badFrame, "the request id (frame 2) must not be empty")
        }
        if f.shuttingDown {
            return BusError(.shuttingDown, "the host is shutting down; it takes no new requests")
        }
        if let problem = header() { return problem }
        if f.clientBacklog > 0 {
            return BusError(.busy, "this client is not reading its answers (\(f.clientBacklog) are waiting for it); read them before sending more",
                            details: ["waiting": .int(Int64(f.clientBacklog))])
        }
        if f.clientOpen >= limits.maxOpenPerClient {
            return BusError(.busy, "this client has \(f.clientOpen) requests open, the most one client may (host.limits.max_open_per_client); try again when some have ended",
                            details: ["open": .int(Int64(f.clientOpen)), "limit": .int(Int64(limits.maxOpenPerClient))])
        }
        if f.hostOpen >= limits.maxOpenExchanges {
            return BusError(.busy, "the host has \(f.hostOpen) requests open, its limit (host.limits.max_open_exchanges); try again later",
                            details: ["limit": .int(Int64(limits.maxOpenExchanges))])
        }
        if f.clientBytes + f.size > limits.maxInFlightBytesPerClient {
            return BusError(.busy, "this client's open requests hold \(f.clientBytes) bytes; with this one's \(f.size) that passes the limit of \(limits.maxInFlightBytesPerClient) (host.limits.max_in_flight_bytes_per_client); try again when some have ended",
                            details: ["open_bytes": .int(Int64(f.clientBytes)), "limit": .int(Int64(limits.maxInFlightBytesPerClient))])
        }
        if f.hostBytes + f.size > limits.maxInFlightBytes {
            return BusError(.busy, "the host's open requests hold \(f.hostBytes) bytes, its limit \(limits.maxInFlightBytes) (host.limits.max_in_flight_bytes); try again later",
                            details: ["limit": .int(Int64(limits.maxInFlightBytes))])
        }
        return nil
    }

    /// The core's general path: `problem` with the REQUEST's header read into `options`
    /// (a JSON object whose fields `RequestHeaderCheck` range-checks).
    func problem(_ f: RequestFacts, request msg: WireMessage, options: inout JSON) -> BusError? {
        problem(f) {
            guard msg.header.count > 0 else { return nil }
            do throws(JSONParseError) { options = try msg.headerJSON() } catch {
                return BusError(.badFrame, "the header (frame 4) is \(error.message)")
            }
            return RequestHeaderCheck.problem(options).map { BusError(.badFrame, $0) }
        }
    }
}
